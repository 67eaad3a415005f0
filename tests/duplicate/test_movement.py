"""Movements over a range of sizes: every board at every table of its round, in both
directions; no entrant meets a board twice; nobody meets the same opponents (pairs) or
partner (individual) again before every one was met; bots only fill what is missing."""

from collections import Counter
from itertools import combinations

import pytest

from games.duplicate.movement import individual_movement, pairs_movement, round_boards

pytestmark = pytest.mark.events


def common_properties(sittings, entrants, rounds, per_round, seats_of):
    tables = max(s.table for s in sittings)
    played = Counter()
    for r in range(1, rounds + 1):
        this_round = [s for s in sittings if s.round == r]
        assert [s.table for s in this_round] == list(range(1, tables + 1))
        # everyone sits once a round; bots only where the numbers are short
        present = [e for s in this_round for e in seats_of(s) if e is not None]
        assert sorted(present, key=str) == sorted(entrants, key=str)
        assert all(any(seat is not None for seat in s.seats) for s in this_round)
        for s in this_round:
            assert s.boards == round_boards(r, per_round)
            for board in s.boards:
                for e in set(seats_of(s)) - {None}:
                    played[(e, board)] += 1
    # each board: once at every table, so once each way at every table
    boards = {b for s in sittings for b in s.boards}
    assert boards == set(range(1, rounds * per_round + 1))
    for board in boards:
        at = [s for s in sittings if board in s.boards]
        assert len(at) == tables
        assert len([s.side(0) for s in at]) == len([s.side(1) for s in at]) == tables
    assert set(played.values()) == {1}  # nobody meets a board twice


@pytest.mark.parametrize("count", range(3, 15))
@pytest.mark.parametrize("rounds", [1, 2, 5])
def test_pairs_movement(count, rounds):
    pairs = [f"pair{i}" for i in range(count)]
    sittings = pairs_movement(pairs, rounds=rounds, boards_per_round=2)
    common_properties(sittings, pairs, rounds, 2, lambda s: set(s.seats))
    assert all(s.seats[0] == s.seats[2] and s.seats[1] == s.seats[3] and s.seats[0] != s.seats[1] for s in sittings)
    field = count + count % 2
    met = Counter(frozenset(s.seats[:2]) for s in sittings)
    if rounds <= field - 1:
        assert set(met.values()) == {1}  # no opponents twice
    ns = Counter(s.seats[0] for s in sittings)
    ew = Counter(s.seats[1] for s in sittings)
    assert all(abs(ns[p] - ew[p]) <= min(rounds, 2) for p in pairs)  # both directions, nearly in turn


@pytest.mark.parametrize("count", range(5, 23))
@pytest.mark.parametrize("rounds", [1, 3, 7])
def test_individual_movement(count, rounds):
    players = list(range(100, 100 + count))
    sittings = individual_movement(players, rounds=rounds, boards_per_round=3)
    common_properties(sittings, players, rounds, 3, lambda s: list(s.seats))
    assert max(s.table for s in sittings) == -(-count // 4)
    partners = Counter(frozenset(s.side(d)) for s in sittings for d in (0, 1) if None not in s.side(d))
    field = count + (-count % 4)
    if rounds <= field - 1:
        assert set(partners.values()) == {1}  # a new partner every round
    for s in sittings:
        humans = [p for p in s.seats if p is not None]
        assert len(humans) == len(set(humans))


def test_every_pair_meets_every_other_in_a_full_round_robin():
    sittings = pairs_movement("ABCDEF", rounds=5, boards_per_round=1)
    assert {frozenset(s.seats[:2]) for s in sittings} == {frozenset(p) for p in combinations("ABCDEF", 2)}


@pytest.mark.parametrize(
    "call",
    [
        lambda: pairs_movement(["a", "b"], rounds=2, boards_per_round=2),
        lambda: pairs_movement(["a", "b", "a"], rounds=2, boards_per_round=2),
        lambda: pairs_movement(["a", "b", "c"], rounds=0, boards_per_round=2),
        lambda: individual_movement([1, 2, 3, 4], rounds=1, boards_per_round=1),
        lambda: individual_movement([1, 2, 3, 4, 4], rounds=1, boards_per_round=1),
        lambda: individual_movement([1, 2, 3, 4, 5], rounds=1, boards_per_round=0),
    ],
)
def test_impossible_events_are_refused(call):
    with pytest.raises(ValueError):
        call()
