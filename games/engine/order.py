"""Trump context: suit-classes, rank positions and display order (RULES §2).

Every card gets a `position` inside its suit-class such that a higher position
outranks a lower one, equal-ranked cards share a position (§2.3: other-suit level
cards, other-suit 2s) and consecutive positions are what tractors need (§5.1).
Contexts are immutable and cached per (level, trump), so the tables are built once.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from .cards import CODES, JOKERS, RANKS, SUITS

TRUMP_CLASS = "T"
_CLASS_ORDER = {TRUMP_CLASS: 0, "S": 1, "H": 2, "D": 3, "C": 4}


class TrumpContext:
    """Per-hand ordering tables. `trump` is a suit letter, "NT", or None (not fixed yet:
    ordered like no-trump, which only matters for display during the deal). `twos`: the
    2s are permanent trumps (RULES §2.2, the default; the house rule `permanent_twos`)."""

    __slots__ = ("cls", "key", "level", "pos", "trump", "twos")

    level: str
    trump: str | None
    twos: bool
    cls: dict[str, str]  # card -> suit-class (a suit letter or TRUMP_CLASS)
    pos: dict[str, int]  # card -> position inside its suit-class
    key: dict[str, tuple[int, int, int]]  # card -> display sort key (§2.6)

    def __init__(self, level: str, trump: str | None, twos: bool = True) -> None:
        if level not in RANKS:
            raise ValueError(f"bad level {level!r}")
        if trump not in SUITS and trump not in ("NT", None):
            raise ValueError(f"bad trump {trump!r}")
        self.level = level
        self.trump = trump
        self.twos = twos
        tsuit = trump if trump in SUITS else None
        cls: dict[str, str] = {}
        pos: dict[str, int] = {}
        # RULES §2.4: a plain run 3..A skipping the level rank (2 is always trump); without
        # permanent 2s the run is 2..A, 2 lowest (docs/house-rules.md, permanent_twos).
        permanent = ("2", level) if twos else (level,)
        plain = [r for r in RANKS if r not in permanent]
        for s in SUITS:
            for i, r in enumerate(plain):
                cls[s + r] = TRUMP_CLASS if s == tsuit else s
                pos[s + r] = i
        # RULES §2.3, from low to high above the trump-suit run:
        # other 2s < trump-suit 2 < other level cards < trump-suit level card < SJK < BJK.
        p = len(plain) if tsuit else 0
        ranks_above = list(dict.fromkeys(permanent))  # low to high; at level 2 just the 2s
        for r in ranks_above:
            for s in SUITS:
                cls[s + r] = TRUMP_CLASS
                if s != tsuit:
                    pos[s + r] = p
            p += 1
            if tsuit:
                pos[tsuit + r] = p
                p += 1
        pos["SJK"], pos["BJK"] = p, p + 1
        cls["SJK"] = cls["BJK"] = TRUMP_CLASS
        self.cls = cls
        self.pos = pos
        # RULES §2.6: trumps first high to low (equal ranks in suit order ♠♥♦♣),
        # then the non-trump suits ♠ ♥ ♦ ♣, each high to low.
        self.key = {c: (_CLASS_ORDER[cls[c]], -pos[c], 0 if c in JOKERS else SUITS.index(c[0])) for c in CODES}

    def suit_class(self, card: str) -> str:
        return self.cls[card]

    def position(self, card: str) -> int:
        return self.pos[card]

    def is_trump(self, card: str) -> bool:
        return self.cls[card] == TRUMP_CLASS

    def display_key(self, card: str) -> tuple[int, int, int]:
        return self.key[card]

    def sort(self, cards: Iterable[str]) -> list[str]:
        return sorted(cards, key=self.key.__getitem__)

    def classes(self, cards: Iterable[str]) -> set[str]:
        return {self.cls[c] for c in cards}

    def __repr__(self) -> str:
        twos = "" if self.twos else ", twos=False"
        return f"TrumpContext({self.level!r}, {self.trump!r}{twos})"


_CONTEXTS: dict[tuple[str, str | None, bool], TrumpContext] = {}


def context(level: str, trump: str | None, twos: bool = True) -> TrumpContext:
    """The shared, cached TrumpContext for a level rank, trump and the 2s rule."""
    key = (level, trump, twos)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        ctx = _CONTEXTS[key] = TrumpContext(level, trump, twos)
    return ctx


def sort_cards(cards: Iterable[str], level: str, trump: str | None, twos: bool = True) -> list[str]:
    """Cards in RULES §2.6 display order."""
    return context(level, trump, twos).sort(cards)


def standing_context(
    *, level: str, trump: str | None, standing: Mapping[str, Any] | None, twos: bool = True
) -> TrumpContext:
    """The hand's TrumpContext; before trump is fixed, the standing declaration's trump
    (RULES §3.3: the hand is sorted and marked as if it stood; display only)."""
    if trump is None and standing:
        trump = standing["trump"]
    return context(level, trump, twos)
