"""RULES §5.2/§5.3: leads, the throw check, the forced component and the penalty."""

import pytest

from games.engine import Refusal, apply, check_throw, context
from games.engine.casebook import table

H7 = context("7", "H")


def hands(**by_seat):
    return {int(k[1:]): v for k, v in by_seat.items()}


def test_single_pair_tractor_never_checked():  # RULES §5.2
    others = {1: ["SA", "SA", "SK", "SK"], 2: [], 3: []}
    for lead in (["S3"], ["S3", "S3"], ["S4", "S4", "S3", "S3"]):
        assert check_throw(lead, 0, {**others, 0: lead}, H7) is None


def test_throw_beaten_by_a_single_inside_a_pair():  # RULES §5.3
    res = check_throw(["SA", "SQ"], 0, hands(s0=["SA", "SQ"], s1=["SK", "SK"], s2=[], s3=[]), H7)
    assert res["forced"] == ["SQ"] and res["penalty"] == 10


def test_throw_pair_beaten_by_a_pair_inside_a_tractor():  # RULES §5.3
    res = check_throw(["SA", "S9", "S9"], 0, hands(s0=[], s1=[], s2=["SQ", "SQ", "SJ", "SJ"], s3=[]), H7)
    assert res["forced"] == ["S9", "S9"] and res["penalty"] == 20


def test_tractor_beaten_by_a_longer_higher_tractor_only():  # RULES §5.3
    lead = ["SA", "S9", "S9", "S8", "S8"]
    low_run = hands(s0=[], s1=["S6", "S6", "S5", "S5", "S4", "S4"], s2=[], s3=[])
    assert check_throw(lead, 0, low_run, H7) is None
    high_run = hands(s0=[], s1=["SQ", "SQ", "SJ", "SJ", "S10", "S10"], s2=[], s3=[])
    res = check_throw(lead, 0, high_run, H7)
    assert res["forced"] == ["S9", "S9", "S8", "S8"] and res["penalty"] == 40
    # two higher pairs that are not a tractor do not beat a tractor
    split_pairs = hands(s0=[], s1=["SK", "SK"], s2=["SJ", "SJ"], s3=[])
    assert check_throw(lead, 0, split_pairs, H7) is None


def test_equal_rank_does_not_beat():  # RULES §5.3, §2.5
    # level 7 hearts: D7 equals S7; a held SJK... the thrower holds the only higher cards
    res = check_throw(["SJK", "S7"], 0, hands(s0=[], s1=["D7", "C7"], s2=["H2"], s3=[]), H7)
    assert res is None


def test_partner_counts():  # RULES §5.3: partner included
    res = check_throw(["SA", "SJ"], 0, hands(s0=[], s1=[], s2=["SQ"], s3=[]), H7)
    assert res["forced"] == ["SJ"]


def test_forced_is_lowest_beatable_and_ties_go_to_fewer_cards():  # RULES §5.3
    # 9 single and 9 9? impossible; use J single vs 8 8 pair: lowest by highest card -> 8 8
    res = check_throw(["SJ", "S8", "S8"], 0, hands(s0=[], s1=["SQ", "SQ"], s2=[], s3=[]), H7)
    assert res["forced"] == ["S8", "S8"] and res["penalty"] == 30
    # equal highest card: H7 pair vs S7 single in trump (same position) -> the single
    res = check_throw(["H7", "H7", "S7"], 0, hands(s0=[], s1=["BJK", "BJK"], s2=[], s3=[]), H7)
    assert res["forced"] == ["S7"] and res["penalty"] == 30


def lead_table(dealer, seat, hs):
    g = table("7", "H", dealer)
    g.phase = "play"
    g.hands = [list(hs[s]) for s in range(4)]
    g.turn = g.leader = seat
    return g


def test_failed_throw_by_defender_costs_defenders():  # RULES §5.3 signs
    g = lead_table(0, 1, {0: ["H3"], 1: ["SA", "SQ", "D3"], 2: ["SK"], 3: ["C3"]})
    events = apply(g, {"type": "play", "seat": 1, "cards": ["SA", "SQ"]})
    failed = next(e for e in events if e["type"] == "throw_failed")
    assert failed["forced"] == ["SQ"] and failed["defenders_delta"] == -10
    assert g.penalties == -10
    assert g.trick == [[1, ["SQ"]]]
    assert sorted(g.hands[1]) == ["D3", "SA"]  # the rest stays in hand
    assert g.turn == 2


def test_failed_throw_by_dealer_team_gives_defenders():  # RULES §5.3 signs
    g = lead_table(0, 2, {0: ["H3"], 1: ["S5", "S5"], 2: ["SA", "S4", "S4"], 3: ["C3"]})
    events = apply(g, {"type": "play", "seat": 2, "cards": ["SA", "S4", "S4"]})
    assert events[0]["type"] == "throw_failed" and events[0]["defenders_delta"] == 20
    assert g.trick == [[2, ["S4", "S4"]]]


def test_follow_after_failed_throw_follows_the_forced_component():
    g = lead_table(0, 1, {0: ["SK", "S3", "H3"], 1: ["SA", "SQ", "D3"], 2: ["SK", "S5"], 3: ["C3", "C4", "C5"]})
    apply(g, {"type": "play", "seat": 1, "cards": ["SA", "SQ"]})
    with pytest.raises(Refusal) as e:
        apply(g, {"type": "play", "seat": 2, "cards": ["SK", "S5"]})
    assert e.value.code == "wrong_card_count"
    apply(g, {"type": "play", "seat": 2, "cards": ["SK"]})


def test_mixed_lead_and_missing_cards_refused():  # RULES §5.2
    g = lead_table(0, 0, {0: ["SA", "DA", "H3"], 1: ["S3"], 2: ["S4"], 3: ["S5"]})
    before = g.to_json()
    for cards, code in (
        (["SA", "DA"], "mixed_lead"),
        (["SK"], "cards_not_in_hand"),
        (["SA", "SA"], "cards_not_in_hand"),
        ([], "wrong_card_count"),
    ):
        with pytest.raises(Refusal) as e:
            apply(g, {"type": "play", "seat": 0, "cards": cards})
        assert e.value.code == code
    assert g.to_json() == before


def test_throw_failure_message_reveals_nothing_hidden():
    g = lead_table(0, 1, {0: ["H3"], 1: ["SA", "SQ", "D3"], 2: ["SK"], 3: ["C3"]})
    events = apply(g, {"type": "play", "seat": 1, "cards": ["SA", "SQ"]})
    failed = events[0]
    # who held the higher card is not part of the public event
    assert "SK" not in str(failed) and "seat" in failed and failed["seat"] == 1


def test_forced_tie_between_equal_singles_is_the_later_in_display_order():  # [choice]
    res = check_throw(["S7", "D7"], 0, hands(s0=[], s1=["H7"], s2=[], s3=[]), H7)
    assert res["forced"] == ["D7"] and res["penalty"] == 20
