"""RULES §2: trumps, trump order, equal ranks, display order."""

import pytest

from games.engine import TRUMP_CLASS, context, sort_cards


def test_twos_are_always_trump():  # RULES §2.2
    ctx = context("7", "H")
    assert all(ctx.is_trump(s + "2") for s in "SHDC")
    assert ctx.is_trump("SJK") and ctx.is_trump("BJK")
    assert all(ctx.is_trump(s + "7") for s in "SHDC")
    assert ctx.is_trump("H3") and not ctx.is_trump("S3")


def test_no_trump_has_only_jokers_levels_and_twos():  # RULES §2.2
    ctx = context("9", "NT")
    trumps = {c for c in ctx.cls if ctx.is_trump(c)}
    assert trumps == {"SJK", "BJK"} | {s + r for s in "SHDC" for r in ("2", "9")}


def test_trump_order_with_trump_suit():  # RULES §2.3
    ctx = context("7", "H")
    chain = ["BJK", "SJK", "H7", "S7", "H2", "S2", "HA", "HK", "H8", "H6", "H3"]
    positions = [ctx.position(c) for c in chain]
    assert positions == sorted(positions, reverse=True)
    assert len(set(positions)) == len(positions)
    # consecutive where §2.3 says adjacent (this is what tractors use): 8 and 6 skip 7
    assert ctx.position("H8") - ctx.position("H6") == 1
    assert ctx.position("HA") - ctx.position("H3") == 10
    assert ctx.position("S7") == ctx.position("D7") == ctx.position("C7")
    assert ctx.position("S2") == ctx.position("D2") == ctx.position("C2")


def test_trump_order_level_two():  # RULES §2.3: L = 2
    ctx = context("2", "S")
    assert ctx.position("BJK") > ctx.position("SJK") > ctx.position("S2") > ctx.position("H2")
    assert ctx.position("H2") == ctx.position("C2")
    assert ctx.position("H2") - ctx.position("SA") == 1


def test_trump_order_no_trump():  # RULES §2.3
    ctx = context("7", "NT")
    assert ctx.position("BJK") > ctx.position("SJK") > ctx.position("H7") > ctx.position("H2")
    assert ctx.position("S7") == ctx.position("H7") == ctx.position("C7")
    assert ctx.suit_class("SA") == "S" and ctx.suit_class("H7") == TRUMP_CLASS


def test_plain_suit_order_skips_level_and_two():  # RULES §2.4
    ctx = context("10", "D")
    assert ctx.position("SJ") - ctx.position("S9") == 1
    assert ctx.position("SA") > ctx.position("SK") > ctx.position("S3")
    assert ctx.suit_class("S10") == TRUMP_CLASS


@pytest.mark.parametrize(
    "level,trump,cards,expected",
    [
        (
            "7",
            "H",
            ["S3", "BJK", "D7", "H7", "S7", "C2", "H2", "SJK", "C9", "H6", "DA"],
            ["BJK", "SJK", "H7", "S7", "D7", "H2", "C2", "H6", "S3", "DA", "C9"],
        ),
        ("2", "NT", ["C2", "H2", "S2", "DK", "SA"], ["S2", "H2", "C2", "SA", "DK"]),
        ("A", "C", ["CA", "SA", "C2", "D2", "CK", "HK"], ["CA", "SA", "C2", "D2", "CK", "HK"]),
        ("5", "D", ["C3", "H3", "S3", "D3"], ["D3", "S3", "H3", "C3"]),
    ],
)
def test_display_order(level, trump, cards, expected):  # RULES §2.6
    assert sort_cards(cards, level, trump) == expected


def test_display_before_trump_is_fixed_treats_no_suit_as_trump():
    assert sort_cards(["SA", "H2", "BJK", "D5", "C5"], "5", None) == ["BJK", "D5", "C5", "H2", "SA"]


def test_bad_context_rejected():
    with pytest.raises(ValueError):
        context("1", "H")
    with pytest.raises(ValueError):
        context("5", "X")
