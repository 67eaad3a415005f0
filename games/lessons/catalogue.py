"""The lessons in their order (a lesson's number is its place here, from 1)."""

from .cards_and_tricks import LESSONS as CARDS_AND_TRICKS
from .deal_and_score import LESSONS as DEAL_AND_SCORE
from .lesson import Lesson

LESSONS: tuple[Lesson, ...] = (*CARDS_AND_TRICKS, *DEAL_AND_SCORE)
_BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}
assert len(_BY_SLUG) == len(LESSONS), "two lessons share a slug"


def lesson_by_slug(slug: str) -> Lesson | None:
    return _BY_SLUG.get(slug)


def number_of(lesson: Lesson) -> int:
    return LESSONS.index(lesson) + 1


def next_lesson(lesson: Lesson) -> Lesson | None:
    index = LESSONS.index(lesson) + 1
    return LESSONS[index] if index < len(LESSONS) else None


def first_not_done(done: set[str]) -> Lesson | None:
    """The lesson to continue with: the first one not done yet."""
    return next((lesson for lesson in LESSONS if lesson.slug not in done), None)
