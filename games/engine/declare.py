"""Declaring trump during the deal (RULES §3).

A declaration is a dict {"seat", "cards", "strength", "trump", "reinforce"}; the
standing one is the last accepted. Strengths (§3.1): 1 one level card of suit X,
2 two identical level cards, 3 two small jokers (no-trump), 4 two big jokers (no-trump).
"""

from collections import Counter
from collections.abc import Sequence
from typing import TypedDict

from .cards import SUITS, holds
from .errors import rule_refusal


class Standing(TypedDict):
    """The standing declaration (RULES §3.3), as a Game stores it."""

    seat: int
    cards: list[str]
    strength: int
    trump: str


class Declaration(Standing):
    """One accepted declaration; `reinforce`: a self-reinforce (§3.2)."""

    reinforce: bool


def declaration_of(cards: Sequence[str], level: str) -> tuple[int, str] | None:
    """(strength, trump) that `cards` would declare, or None (RULES §3.1)."""
    if len(cards) == 1:
        c = cards[0]
        if c[0] in SUITS and c[1:] == level and c not in ("SJK", "BJK"):
            return 1, c[0]
        return None
    if len(cards) == 2 and cards[0] == cards[1]:
        c = cards[0]
        if c == "SJK":
            return 3, "NT"
        if c == "BJK":
            return 4, "NT"
        if c[1:] == level:
            return 2, c[0]
    return None


def is_reinforcement(seat: int, cards: Sequence[str], standing: Standing | None) -> bool:
    """Self-reinforce (§3.2): the seat whose single still stands adds the identical card."""
    return (
        standing is not None
        and standing["seat"] == seat
        and standing["strength"] == 1
        and len(cards) == 1
        and cards[0] == standing["cards"][0]
    )


def check_declaration(
    seat: int, cards: Sequence[str], hand: Sequence[str], standing: Standing | None, level: str
) -> Declaration:
    """Validate a declaration; returns the new standing declaration or raises Refusal.

    `hand` is the seat's hand (declared cards already sit outside it, in the area)."""
    if not holds(hand, cards):
        raise rule_refusal("cards_not_in_hand")
    if standing is not None and is_reinforcement(seat, cards, standing):
        c = cards[0]
        return {"seat": seat, "cards": [c, c], "strength": 2, "trump": standing["trump"], "reinforce": True}
    found = declaration_of(cards, level)
    if found is None:
        raise rule_refusal("not_a_declaration")
    strength, trump = found
    current = standing["strength"] if standing else 0
    if strength <= current:
        # Equal strength never overrides; only the declarer may reinforce (§3.2).
        raise rule_refusal("declaration_too_weak", standing=current)
    return {"seat": seat, "cards": list(cards), "strength": strength, "trump": trump, "reinforce": False}


def legal_declarations(seat: int, hand: Sequence[str], standing: Standing | None, level: str) -> list[list[str]]:
    """Every card list `seat` could declare now (a reinforcement is the single added card)."""
    current = standing["strength"] if standing else 0
    counts = Counter(hand)
    out = []
    if standing and standing["seat"] == seat and standing["strength"] == 1 and counts[standing["cards"][0]]:
        out.append([standing["cards"][0]])
    for s in SUITS:
        c = s + level
        if counts[c] >= 1 and current < 1:
            out.append([c])
        if counts[c] >= 2 and current < 2:
            out.append([c, c])
    if counts["SJK"] >= 2 and current < 3:
        out.append(["SJK", "SJK"])
    if counts["BJK"] >= 2 and current < 4:
        out.append(["BJK", "BJK"])
    return out


def flip_trump(card: str) -> str:
    """Trump set by the flipped 4th kitty card (§3.4): a joker means no-trump."""
    return "NT" if card in ("SJK", "BJK") else card[0]
