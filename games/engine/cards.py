"""Card codes, the 108-card pack and point values (RULES §1.2).

A card is a string: suit letter + rank (`S10`, `HQ`, `D2`) or a joker (`SJK`, `BJK`).
Two copies of every code exist; hands are lists (multisets) of codes.
"""

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

# One play of a trick, [seat, cards]: a 2-item JSON list inside a Game (so the state
# survives its JSON round trip unchanged), a (seat, cards) tuple in the bots. Typing
# cannot name a 2-item list, so the items are Any: readers unpack it into typed names.
Play = Sequence[Any]

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKERS = ("SJK", "BJK")
TRUMPS = SUITS + ("NT",)

DEALT_CARDS = 100  # RULES §1.3: 25 cards to each of the 4 seats ...
KITTY_SIZE = 8  # ... and 8 stay face down as the kitty, which the dealer buries again (§4.1)

CODES = tuple(s + r for s in SUITS for r in RANKS) + JOKERS
VALID = frozenset(CODES)


def full_deck() -> list[str]:
    """The 108 cards in a fixed canonical order (shuffled by the game, RULES §1.3)."""
    return [c for c in CODES for _ in range(2)]


def shuffled_deck(seed: str | int) -> list[str]:
    """The deck a hand with this seed is dealt from (RULES §1.3): the same seed, the same
    order, so a board (a hand fixed in advance) is its seed."""
    deck = full_deck()
    random.Random(seed).shuffle(deck)
    return deck


def rank_of(card: str) -> str | None:
    return None if card in JOKERS else card[1:]


_POINTS = {c: (5 if rank_of(c) == "5" else 10 if rank_of(c) in ("10", "K") else 0) for c in CODES}


def points(cards: Iterable[str]) -> int:
    """Point value of some cards: 5 = 5, 10 = 10, K = 10 (RULES §1.2)."""
    return sum(_POINTS[c] for c in cards)


def holds(hand: Sequence[str], cards: Sequence[str]) -> bool:
    """True when the multiset `cards` is contained in the multiset `hand`."""
    if len(cards) == 1:
        return cards[0] in hand
    return Counter(cards) <= Counter(hand)
