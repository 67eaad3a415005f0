"""Movements: who sits where in each round, and which boards they play (docs/events.md).
Pure: no Django, nothing of the site.

Every table of a round plays the same boards (round r: boards (r-1)·B+1 … r·B), so each
board is played once at every table, by every entrant present, half of the sides
North-South and half East-West; no entrant can meet a board twice. Who meets whom comes
from the circle method (a round-robin's rounds): in a pairs event the pairs' opponents, in
an individual event the partners, differ from round to round until every one has been
met (n − 1 rounds for n entrants, a bot counted as one). A missing entrant is a bot
(None). A pair sits the way it has sat less (ties alternate by table and round): no pair
sits one way more than two rounds more often than the other.
"""

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

SEATS = 4
MIN_PAIRS = 3  # two tables at least: a board played at one table only compares nothing
MIN_PLAYERS = 5

Entrant = TypeVar("Entrant", bound=Hashable)


@dataclass(frozen=True)
class Sitting:
    """One table in one round. `seats[s]` is who plays seat s (0/2 North-South, 1/3
    East-West; RULES §1.1): in a pairs event the pair's id at both of its seats, in an
    individual event the player's; None is a bot."""

    round: int  # 1-based
    table: int  # 1-based
    seats: tuple[Hashable | None, ...]
    boards: tuple[int, ...]

    def side(self, direction: int) -> tuple[Hashable | None, Hashable | None]:
        """The two seats of a direction: 0 North-South (team 0), 1 East-West (team 1)."""
        return self.seats[direction], self.seats[direction + 2]


def round_boards(round_no: int, boards_per_round: int) -> tuple[int, ...]:
    first = (round_no - 1) * boards_per_round + 1
    return tuple(range(first, first + boards_per_round))


def _circle(entrants: list[Hashable | None], index: int) -> list[tuple[Hashable | None, Hashable | None]]:
    """Round `index` of a round robin among an even number of entrants (the circle method:
    the first stays, the others turn one place a round); its n/2 meetings."""
    n = len(entrants)
    turn = index % (n - 1)
    others = entrants[1:]
    ring = [entrants[0]] + others[-turn:] + others[:-turn] if turn else list(entrants)
    return [(ring[i], ring[n - 1 - i]) for i in range(n // 2)]


def _check(count: int, least: int, rounds: int, boards_per_round: int, what: str) -> None:
    if count < least:
        raise ValueError(f"an event needs at least {least} {what}")
    if rounds < 1 or boards_per_round < 1:
        raise ValueError("an event needs at least one round of at least one board")


def pairs_movement(pairs: Sequence[Hashable], *, rounds: int, boards_per_round: int) -> list[Sitting]:
    """The sittings of a pairs event: a table is two pairs, one each way."""
    _check(len(pairs), MIN_PAIRS, rounds, boards_per_round, "pairs")
    if len(set(pairs)) != len(pairs):
        raise ValueError("a pair is entered twice")
    field: list[Hashable | None] = list(pairs) + ([None] if len(pairs) % 2 else [])
    north_south: Counter[Hashable | None] = Counter()
    sittings = []
    for r in range(1, rounds + 1):
        for t, (a, b) in enumerate(_circle(field, r - 1), start=1):
            if (north_south[a], (r + t) % 2) > (north_south[b], 0):  # the one that sat NS less
                a, b = b, a
            north_south[a] += 1
            sittings.append(Sitting(r, t, (a, b, a, b), round_boards(r, boards_per_round)))
    return sittings


def individual_movement(players: Sequence[Hashable], *, rounds: int, boards_per_round: int) -> list[Sitting]:
    """The sittings of an individual event: partners rotate each round."""
    _check(len(players), MIN_PLAYERS, rounds, boards_per_round, "players")
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    field: list[Hashable | None] = list(players) + [None] * (-len(players) % SEATS)
    north_south: Counter[Hashable | None] = Counter()
    sittings = []
    for r in range(1, rounds + 1):
        partnerships = _circle(field, r - 1)
        for t in range(1, len(partnerships) // 2 + 1):
            ns, ew = partnerships[2 * t - 2], partnerships[2 * t - 1]
            if sum(north_south[p] for p in ns) > sum(north_south[p] for p in ew):
                ns, ew = ew, ns
            north_south.update(ns)
            seats = (ns[0], ew[0], ns[1], ew[1])
            sittings.append(Sitting(r, t, seats, round_boards(r, boards_per_round)))
    return sittings
