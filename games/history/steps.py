"""The replay's coarse steps: players think in tricks, not in single dealt cards.

A hand's frames (games/history/replay.py, one per dealt card, declaration, play…) fall
into chapters: the deal (from the hand's start to the deal complete, declarations and a
turned-up card included), the bury (trump fixed, the kitty picked up and buried), each
trick (its plays and its collection) and the result. Each chapter has one stop, the frame
that shows it whole: the deal complete, the bury done, the trick with every play on the
table, the score. ← and → move from stop to stop; a frame's own index (`?step=N`) still
addresses every single card, so a link made before the replay moved by trick opens where
it always did.

Pure: no Django.
"""

from dataclasses import dataclass

DEAL, BURY, TRICK, RESULT = "deal", "bury", "trick", "result"
_CHAPTER_OF_KIND = {
    "hand_started": DEAL,
    "card_dealt": DEAL,
    "declared": DEAL,
    "flipped": DEAL,
    "redealt": DEAL,
    "trump_fixed": BURY,
    "buried": BURY,
    "played": TRICK,
    "trick_won": TRICK,
    "hand_scored": RESULT,
}


@dataclass(frozen=True)
class Chapter:
    kind: str  # deal, bury, trick, result
    first: int  # the index of its first frame
    last: int  # … and of its last
    stop: int  # the frame that shows it whole
    trick_no: int | None = None


def chapters(frames) -> list[Chapter]:
    """The hand's chapters in order; every frame belongs to exactly one."""
    spans: list[tuple[str, int | None, int, int]] = []  # (kind, trick_no, first, last)
    trick_no = 1
    for index, frame in enumerate(frames):
        kind = _CHAPTER_OF_KIND.get(frame.kind, DEAL)
        number = trick_no if kind == TRICK else None
        if spans and spans[-1][:2] == (kind, number):
            spans[-1] = (kind, number, spans[-1][2], index)
        else:
            spans.append((kind, number, index, index))
        if frame.kind == "trick_won":
            trick_no += 1
    return [Chapter(kind, first, last, _stop(frames, first, last), number) for kind, number, first, last in spans]


def _stop(frames, first: int, last: int) -> int:
    # A trick is whole just before it is collected: all its plays on the table.
    if frames[last].kind == "trick_won" and last > first:
        return last - 1
    return last


def stops(frames) -> list[int]:
    """The frames ← and → move between: the hand's start, then each chapter's stop."""
    return sorted({0, *(chapter.stop for chapter in chapters(frames))})


def position(frames, step: int) -> dict:
    """Where `step` is: its chapter, the trick count, the coarse neighbours (`prev`,
    `next`: the nearest stops before and after) and the single-card ones."""
    parts = chapters(frames)
    chapter = next(c for c in parts if c.first <= step <= c.last)
    marks = stops(frames)
    before = [s for s in marks if s < step]
    after = [s for s in marks if s > step]
    return {
        "chapter": chapter,
        "tricks_total": sum(c.kind == TRICK for c in parts),
        "at_stop": step in marks,
        "prev": before[-1] if before else None,
        "next": after[0] if after else None,
        "prev_card": step - 1 if step > 0 else None,
        "next_card": step + 1 if step < len(frames) - 1 else None,
    }
