"""What a lesson is: one goal, a position to act in, and the check of the learner's move."""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise

from .outcome import Outcome, Verdict
from .positions import Position

ACTIONS = ("play", "declare", "bury", "hand")  # what the learner does; "hand": a whole guided hand
# When an attempt is judged: after the trick the learner played to, after the hand, or as
# soon as the engine accepts the learner's action (a declaration, a bury).
UNTIL = ("trick", "hand", "action")


@dataclass(frozen=True)
class Lesson:
    """One lesson. `intro`: what to know first, in a few sentences; `rule`: the RULES.md
    section the rules page explains it in; `check`: the verdict on an attempt the engine
    accepted (None for the guided hand, which has no wrong move but an illegal one);
    `showcase`: a labelled row of cards shown in the engine's order (the trumps, say);
    `scale`: show the level scale of RULES §7.2."""

    slug: str
    title: Promise
    goal: Promise
    intro: Promise
    rule: str
    action: str
    position: Position | None = None
    check: Callable[[Outcome], Verdict] | None = None
    until: str = "trick"
    showcase: tuple[Promise, str] | None = None
    scale: bool = False

    def __post_init__(self) -> None:
        assert self.action in ACTIONS and self.until in UNTIL, f"lesson {self.slug}: bad action or until"
        assert (self.position is None) == (self.action == "hand"), f"lesson {self.slug}: a position, or a whole hand"
