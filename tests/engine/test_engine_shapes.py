"""RULES §5.1 shapes and the §5.3 greedy split."""

import pytest

from games.engine import context, requirements, shape_of, split

H7 = context("7", "H")


@pytest.mark.parametrize(
    "cards,expected",
    [
        (["H6", "H6", "H8", "H8"], {"shape": "tractor", "length": 2}),
        (["SJK", "SJK", "BJK", "BJK"], {"shape": "tractor", "length": 2}),
        (["H7", "H7", "SJK", "SJK"], {"shape": "tractor", "length": 2}),
        (["H7", "H7", "S7", "S7"], {"shape": "tractor", "length": 2}),
        (["S7", "S7", "H2", "H2"], {"shape": "tractor", "length": 2}),
        (["S7", "S7", "D7", "D7"], {"shape": "throw"}),
        (["H2", "H2", "S2", "S2"], {"shape": "tractor", "length": 2}),
        (["S2", "S2", "HA", "HA"], {"shape": "tractor", "length": 2}),
        (["SA", "SA", "S3", "S3"], {"shape": "throw"}),  # no wrap-around
        (["S5", "S5", "S4"], {"shape": "throw"}),
        (["S5", "S4", "S4"], {"shape": "throw"}),
        (["S5", "S5", "S3", "S3"], {"shape": "throw"}),
        (["SJ", "SJ", "SQ"], {"shape": "throw"}),
        (["SJ", "SJ", "DQ", "DQ"], {"shape": "mixed"}),
        (["SJK", "BJK"], {"shape": "throw"}),
        (["H7", "D7"], {"shape": "throw"}),
        (["D10"], {"shape": "single"}),
        (["D10", "D10"], {"shape": "pair"}),
        ([], {"shape": "empty"}),
        (["S8", "S8", "S6", "S6", "S5", "S5", "S4", "S4"], {"shape": "tractor", "length": 4}),
    ],
)
def test_shapes_level7_hearts(cards, expected):  # RULES §5.1
    assert shape_of(cards, H7) == expected


def test_split_greedy_longest_first():  # RULES §5.3
    comps = split(["SA", "SA", "SK", "SK", "SQ", "SQ", "S9", "S9", "S3"], H7)
    assert [(c.kind, c.pairs) for c in comps] == [("tractor", 3), ("pair", 1), ("single", 0)]
    assert comps[0].cards == ["SA", "SA", "SK", "SK", "SQ", "SQ"]


def test_split_extracts_every_separate_tractor():  # RULES §5.3
    comps = split(["SA", "SA", "SK", "SK", "S9", "S9", "S8", "S8", "S6", "S6"], H7)
    # 9-8-6 (7 is skipped) is taken first; components come out highest-ranked first.
    assert [(c.kind, c.pairs, c.cards[0]) for c in comps] == [("tractor", 2, "SA"), ("tractor", 3, "S9")]


def test_split_shared_position_uses_display_order():  # RULES §5.3
    comps = split(["D7", "D7", "S7", "S7", "H2", "H2"], H7)
    assert comps[0].cards == ["S7", "S7", "H2", "H2"]
    assert comps[1].cards == ["D7", "D7"]


def test_greedy_takes_the_longest_tractor_through_a_shared_position():  # RULES §5.3 [choice]
    # Two 2-tractors (H7H7 S7S7, D7D7 H2H2) would also be a reading; greedy takes the 3.
    comps = split(["H7", "H7", "S7", "S7", "D7", "D7", "H2", "H2"], H7)
    assert [(c.kind, c.pairs) for c in comps] == [("tractor", 3), ("pair", 1)]


def test_requirements_count_pairs_inside_tractors():
    reqs, pairs = requirements(split(["SA", "SA", "S5", "S5", "S4", "S4", "S3"], H7))
    assert reqs == [2] and pairs == 3


def test_no_trump_level_cards_do_not_chain_with_each_other():
    nt = context("7", "NT")
    assert shape_of(["S7", "S7", "H7", "H7"], nt) == {"shape": "throw"}
    assert shape_of(["D2", "D2", "C7", "C7", "SJK", "SJK"], nt) == {"shape": "tractor", "length": 3}
