"""Game: one match (a series of hands) and the state of its current hand.

Plain data only, so to_json/from_json are lossless and cheap. The rules that change it
live in actions.py (`step` returns a new Game and never changes the one it was given: the
new one shares every value that did not change, so nothing reachable from a Game is ever
changed in place by the engine); what a seat may see lives in views.py. A Game carries its
`Rules` (rules.py), serialised with the state.
"""

import pickle
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypedDict

from .cards import DEALT_CARDS, Play
from .declare import Declaration, Standing
from .order import TrumpContext, context, standing_context
from .rules import DEFAULT_RULES, Rules
from .seats import next_seat, team_of

# RULES §8.1: both teams start at level 2 (team -> rank); read-only, copy it to change it
START_LEVELS: Mapping[str, str] = MappingProxyType({"0": "2", "1": "2"})

PHASES = ("ready", "deal", "last_chance", "bury", "play", "scored", "finished")

# Fields of the current hand, reset by start_hand; with their empty values.
_HAND_FIELDS: dict[str, object] = {
    "deck": None,  # the 108 shuffled cards (server-internal)
    "first": None,  # seat receiving the first card (§3.6)
    "hands": None,  # [[cards] x 4]
    "areas": None,  # declaration areas [[cards] x 4] (§3.3)
    "standing": None,  # standing declaration dict or None
    "declarations": None,  # accepted declarations in order
    "flipped": None,  # the flipped 4th kitty card (§3.4)
    "kitty": None,  # the original 8 kitty cards in deck order
    "buried": None,  # the 8 cards the dealer buried (§4)
    "leader": None,  # seat leading the current trick
    "trick": None,  # current trick: [[seat, cards], ...]
    "tricks": None,  # finished tricks: {"leader", "plays", "winner", "points"}
    "defender_points": 0,  # points the defenders won in tricks
    "penalties": 0,  # signed throw penalties, as a delta to the defenders (§5.3)
    "last_failed_throw": None,
    "redeals": 0,  # times this hand was dealt again because nobody declared (house rule, §3.4)
}

# A match's past hands are not kept here: each is in its hand_scored event (and the site's
# HandRecord), so the live state stays the same size however long the match runs.
_MATCH_FIELDS = ("phase", "hand_no", "dealer", "levels", "trump", "turn", "dealt", "result", "winner")


def deal_receiver(*, first: int, index: int) -> int:
    """The seat receiving the card at deal position `index` (0-based): one card each in
    turn from `first` on (RULES §1.3, §3.6)."""
    return next_seat(first, index)


def hands_of(game: "Game") -> list[list[str]]:
    """The hands, which exist in every phase but "ready" (start_hand sets them)."""
    assert game.hands is not None, "no hand has started"
    return game.hands


def dealer_of(game: "Game") -> int:
    """The dealer, known from fix_trump on (§3.5)."""
    assert game.dealer is not None, "the dealer is not known yet"
    return game.dealer


class TrickRecord(TypedDict):
    """A finished trick as a Game keeps it."""

    leader: int
    plays: list[Play]
    winner: int
    points: int


class Game:
    """A match of Double Up. Attributes are plain JSON-able values."""

    phase: str
    hand_no: int
    dealer: int | None
    levels: dict[str, str]  # team ("0"/"1") -> level rank
    trump: str | None
    turn: int | None
    dealt: int
    result: dict[str, Any] | None  # the last hand's HandResult.to_json() (actions._finish_hand)
    winner: int | None
    # The current hand (_HAND_FIELDS): None before the first hand, set by start_hand.
    deck: list[str] | None
    first: int | None
    hands: list[list[str]] | None
    areas: list[list[str]] | None
    standing: Standing | None
    declarations: list[Declaration] | None
    flipped: str | None
    kitty: list[str] | None
    buried: list[str] | None
    leader: int | None
    trick: list[Play] | None
    tricks: list[TrickRecord] | None
    defender_points: int
    penalties: int
    last_failed_throw: dict[str, Any] | None
    redeals: int
    rules: Rules  # the table's ruleset (immutable, shared)

    def __init__(self, rules: Rules = DEFAULT_RULES) -> None:
        self.rules = rules
        self.phase = "ready"
        self.hand_no = 0
        self.dealer = None
        self.levels = dict(START_LEVELS)
        self.trump = None
        self.turn = None
        self.dealt = 0
        self.result = None
        self.winner = None
        for name, empty in _HAND_FIELDS.items():
            setattr(self, name, empty)

    @classmethod
    def new(cls, rules: Rules = DEFAULT_RULES) -> "Game":
        return cls(rules)

    def evolve(self) -> "Game":
        """A shallow copy: the same values, shared. actions.step changes the copy by
        rebinding fields to new values (copy-on-write), never the values themselves."""
        g = Game.__new__(Game)
        g.__dict__ = self.__dict__.copy()
        return g

    def become(self, other: "Game") -> None:
        """Take on `other`'s state (the in-place `apply` of older callers)."""
        self.__dict__ = other.__dict__  # `other` is the caller's fresh, unshared Game

    # --- derived --------------------------------------------------------------
    @property
    def level(self) -> str:
        """The hand's level rank: the dealer team's level (§2.1). In a first hand the
        dealer is unknown during the deal, but both teams are then still at 2."""
        if self.dealer is None:
            return self.levels["0"]
        return self.levels[str(team_of(self.dealer))]

    @property
    def dealer_team(self) -> int | None:
        return None if self.dealer is None else team_of(self.dealer)

    @property
    def first_hand(self) -> bool:
        return self.hand_no == 1

    @property
    def ctx(self) -> TrumpContext:
        """TrumpContext of the hand; before trump is fixed, the standing declaration's
        trump is used (display only)."""
        return standing_context(
            level=self.level, trump=self.trump, standing=self.standing, twos=self.rules.permanent_twos
        )

    def deal_order(self) -> list[tuple[int, str]]:
        """The 100 (seat, card) of this hand's deal, in order (server-internal)."""
        if not self.deck or self.first is None:
            return []
        return [(deal_receiver(first=self.first, index=i), self.deck[i]) for i in range(DEALT_CARDS)]

    def undealt(self) -> list[str]:
        """Cards not dealt yet, the kitty included (server-internal)."""
        return list(self.deck[self.dealt :]) if self.deck else []

    # --- serialisation -------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A snapshot of its own: the caller may change it."""
        return _clone(self.snapshot())

    def snapshot(self) -> dict[str, Any]:
        """The JSON snapshot sharing this Game's values (no copy): like the Game itself, it
        must never be changed in place. The server stores and caches this one."""
        data = {name: getattr(self, name) for name in _MATCH_FIELDS}
        for name in _HAND_FIELDS:
            data[name] = getattr(self, name)
        data["rules"] = self.rules.shared_json()
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Game":
        """The Game of a `to_json` snapshot, with values of its own; one without "rules"
        (older) plays RULES.md, and an older one's "history" of past hands is left out
        (see _MATCH_FIELDS)."""
        return cls.sharing(_clone(dict(data)))

    @classmethod
    def sharing(cls, data: Mapping[str, Any]) -> "Game":
        """The Game of a snapshot that nobody changes in place (a stored, cached one):
        it reads the snapshot's values without copying them, as `step` shares values
        between a Game and the next."""
        g = cls(Rules.from_json(data.get("rules")))
        for name in _MATCH_FIELDS:
            setattr(g, name, data[name])
        for name, empty in _HAND_FIELDS.items():
            setattr(g, name, data.get(name, empty))
        return g

    def copy(self) -> "Game":
        return Game.from_json(self.to_json())

    def __repr__(self) -> str:
        return f"<Game hand {self.hand_no} {self.phase} dealer={self.dealer} trump={self.trump} levels={self.levels}>"

    def play_context(self) -> TrumpContext:
        """The TrumpContext of play: the fixed trump (None before it is fixed) under the rules."""
        return context(self.level, self.trump, self.rules.permanent_twos)


def _clone(data: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of plain JSON data; pickling is ~5x faster than copy.deepcopy here,
    and the server copies the state several times per action."""
    clone: dict[str, Any] = pickle.loads(pickle.dumps(data, pickle.HIGHEST_PROTOCOL))
    return clone
