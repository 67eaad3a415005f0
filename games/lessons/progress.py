"""Which lessons a learner has completed, and each lesson's state in progress.

An account (a guest's too: a guest is a logged-in user) keeps its completed lessons in
LessonProgress; a visitor who is not logged in keeps them in the session, and they are
merged into the account when the visitor logs in or registers (the `user_logged_in`
receiver below; Django keeps the session's data across the login). The state of a lesson
being played is always in the session (games/lessons/coach.py): the server's own copy,
never one the client sends.
"""

from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver

from .catalogue import LESSONS
from .models import LessonProgress

DONE_KEY = "lessons_done"  # session: slugs a visitor completed
STATES_KEY = "lesson_states"  # session: slug -> the lesson's state (coach.State)
KNOWN = frozenset(lesson.slug for lesson in LESSONS)


def lessons_done(*, request) -> set[str]:
    """The slugs of the lessons this learner has completed."""
    if request.user.is_authenticated:
        return set(LessonProgress.objects.filter(user=request.user).values_list("lesson", flat=True))
    return set(request.session.get(DONE_KEY, ())) & KNOWN


def lesson_complete(*, request, slug: str) -> None:
    """Record that the learner completed lesson `slug` (again is no change)."""
    if request.user.is_authenticated:
        LessonProgress.objects.get_or_create(user=request.user, lesson=slug)
        return
    done = request.session.get(DONE_KEY, [])
    if slug not in done:
        request.session[DONE_KEY] = [*done, slug]


def progress_merge(*, user, session) -> None:
    """Move a visitor's completed lessons from the session to `user`'s account."""
    slugs = set(session.get(DONE_KEY, ())) & KNOWN
    if slugs:
        LessonProgress.objects.bulk_create(
            [LessonProgress(user=user, lesson=slug) for slug in sorted(slugs)], ignore_conflicts=True
        )
    session.pop(DONE_KEY, None)


@receiver(user_logged_in, dispatch_uid="lessons_progress_merge")
def merge_at_login(sender, request, user, **kwargs) -> None:
    if request is not None and hasattr(request, "session"):
        progress_merge(user=user, session=request.session)


def lesson_state(*, request, slug: str) -> dict[str, Any] | None:
    return request.session.get(STATES_KEY, {}).get(slug)


def lesson_state_save(*, request, slug: str, state: dict[str, Any]) -> None:
    states = dict(request.session.get(STATES_KEY, {}))
    states[slug] = state
    request.session[STATES_KEY] = states
