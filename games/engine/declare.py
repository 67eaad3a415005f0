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
from .rules import DEFAULT_RULES, Rules
from .seats import partner_of


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


def may_reinforce(seat: int, standing: Standing, rules: Rules = DEFAULT_RULES) -> bool:
    """Whether `seat` may reinforce the standing single (§3.2): its declarer, and under the
    house rule `overrides = partner_reinforce` also the declarer's partner (对家保)."""
    if standing["strength"] != 1:
        return False
    return seat == standing["seat"] or (rules.overrides == "partner_reinforce" and seat == partner_of(standing["seat"]))


def is_reinforcement(seat: int, cards: Sequence[str], standing: Standing | None, rules: Rules = DEFAULT_RULES) -> bool:
    """Self-reinforce (§3.2): the seat whose single still stands adds the identical card."""
    return (
        standing is not None
        and may_reinforce(seat, standing, rules)
        and len(cards) == 1
        and cards[0] == standing["cards"][0]
    )


def _joker_pair_blocked(strength: int, standing: Standing | None, rules: Rules) -> bool:
    """House rule `overrides = no_joker_override`: a joker pair (strength 3 or 4) declares
    no-trump only while nothing stands; it never overrides (docs/house-rules.md)."""
    return rules.overrides == "no_joker_override" and strength >= 3 and standing is not None


def check_declaration(
    seat: int,
    cards: Sequence[str],
    hand: Sequence[str],
    standing: Standing | None,
    level: str,
    rules: Rules = DEFAULT_RULES,
) -> Declaration:
    """Validate a declaration; returns the new standing declaration or raises Refusal.

    `hand` is the seat's hand (declared cards already sit outside it, in the area). A
    partner's reinforcement (house rule) keeps the declarer as the standing seat."""
    if not holds(hand, cards):
        raise rule_refusal("cards_not_in_hand")
    if standing is not None and is_reinforcement(seat, cards, standing, rules):
        c = cards[0]
        return {"seat": standing["seat"], "cards": [c, c], "strength": 2, "trump": standing["trump"], "reinforce": True}
    found = declaration_of(cards, level)
    if found is None:
        raise rule_refusal("not_a_declaration")
    strength, trump = found
    if _joker_pair_blocked(strength, standing, rules):
        raise rule_refusal("joker_pair_no_override")
    current = standing["strength"] if standing else 0
    if strength <= current:
        # Equal strength never overrides; only the declarer may reinforce (§3.2).
        raise rule_refusal("declaration_too_weak", standing=current)
    return {"seat": seat, "cards": list(cards), "strength": strength, "trump": trump, "reinforce": False}


def legal_declarations(
    seat: int, hand: Sequence[str], standing: Standing | None, level: str, rules: Rules = DEFAULT_RULES
) -> list[list[str]]:
    """Every card list `seat` could declare now (a reinforcement is the single added card)."""
    current = standing["strength"] if standing else 0
    counts = Counter(hand)
    out = []
    if standing and may_reinforce(seat, standing, rules) and counts[standing["cards"][0]]:
        out.append([standing["cards"][0]])
    for s in SUITS:
        c = s + level
        if counts[c] >= 1 and current < 1:
            out.append([c])
        if counts[c] >= 2 and current < 2:
            out.append([c, c])
    for joker, strength in (("SJK", 3), ("BJK", 4)):
        if counts[joker] >= 2 and current < strength and not _joker_pair_blocked(strength, standing, rules):
            out.append([joker, joker])
    return out


def flip_trump(card: str) -> str:
    """Trump set by the flipped 4th kitty card (§3.4): a joker means no-trump."""
    return "NT" if card in ("SJK", "BJK") else card[0]
