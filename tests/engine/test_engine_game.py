"""The state machine: phases, deal, bury, play flow, hand end, match end (RULES §1, §4-§8)."""

import json
import random
from collections import Counter

import pytest

from games.engine import Game, HandResult, Refusal, apply, full_deck, sample_play
from games.engine.casebook import table


def refused(g, action):
    before = g.to_json()
    with pytest.raises(Refusal) as e:
        apply(g, action)
    assert g.to_json() == before
    return e.value.code


def started(seed="s"):
    g = Game.new()
    apply(g, {"type": "start_hand", "seed": seed})
    return g


def to_bury(seed="s"):
    g = started(seed)
    apply(g, {"type": "deal", "upto": 100})
    apply(g, {"type": "fix_trump"})
    return g


def play_out(g, rng):
    while g.phase == "play":
        apply(g, {"type": "play", "seat": g.turn, "cards": sample_play(g, g.turn, rng)})


def test_new_game():
    g = Game.new()
    assert (g.phase, g.hand_no, g.dealer, g.levels, g.trump, g.turn, g.dealt, g.result, g.winner) == (
        "ready",
        0,
        None,
        {"0": "2", "1": "2"},
        None,
        None,
        0,
        None,
        None,
    )


def test_start_hand_is_deterministic_and_deals_from_seat_0():  # §1.3, §3.6
    a, b, c = started("seed-1"), started("seed-1"), started("seed-2")
    assert a.deck == b.deck != c.deck
    assert Counter(a.deck) == Counter(full_deck()) and len(a.deck) == 108
    order = a.deal_order()
    assert len(order) == 100 and [s for s, _ in order[:5]] == [0, 1, 2, 3, 0]
    assert a.kitty == a.deck[100:]
    assert a.phase == "deal" and a.hand_no == 1 and a.dealer is None


def test_deal_one_and_upto():  # §1.3
    g = started()
    events = apply(g, {"type": "deal"})
    assert events == [{"type": "card_dealt", "seat": 0, "card": g.deck[0], "n": 1, "only": 0}]
    apply(g, {"type": "deal", "upto": 57})
    assert g.dealt == 57 and [len(h) for h in g.hands] == [15, 14, 14, 14]
    assert refused(g, {"type": "deal", "upto": 57}) == "bad_action"
    assert refused(g, {"type": "deal", "upto": 101}) == "bad_action"
    events = apply(g, {"type": "deal", "upto": 100})
    assert events[-1] == {"type": "deal_complete"} and g.phase == "last_chance"
    assert all(len(h) == 25 for h in g.hands)
    assert refused(g, {"type": "deal"}) == "wrong_phase"


def test_bury():  # §4
    g = to_bury()
    d = g.dealer
    other = (d + 1) % 4
    assert refused(g, {"type": "bury", "seat": other, "cards": g.hands[other][:8]}) == "not_dealer"
    assert refused(g, {"type": "bury", "seat": d, "cards": g.hands[d][:7]}) == "bury_needs_8"
    assert refused(g, {"type": "bury", "seat": d, "cards": g.hands[other][:8]}) in ("cards_not_in_hand",)
    cards = g.hands[d][:8]
    events = apply(g, {"type": "bury", "seat": d, "cards": cards})
    assert events[0] == {"type": "buried", "seat": d, "cards": cards, "only": d}
    assert g.phase == "play" and g.turn == d and g.leader == d and len(g.hands[d]) == 25
    assert g.buried == cards


def test_turn_order_and_wrong_turn():  # §5.2, §5.6
    g = to_bury()
    d = g.dealer
    apply(g, {"type": "bury", "seat": d, "cards": g.hands[d][:8]})
    nxt = (d + 1) % 4
    assert refused(g, {"type": "play", "seat": nxt, "cards": g.hands[nxt][:1]}) == "not_your_turn"
    apply(g, {"type": "play", "seat": d, "cards": g.hands[d][:1]})
    assert g.turn == nxt


def test_malformed_and_unknown_actions():
    g = started()
    assert refused(g, {"type": "fly"}) == "unknown_action"
    assert refused(g, {"type": "declare", "seat": 7, "cards": ["H2"]}) == "bad_action"
    assert refused(g, {"type": "declare", "seat": 0, "cards": ["H1"]}) == "bad_action"
    assert refused(g, {"type": "declare", "seat": 0, "cards": "H2"}) == "bad_action"
    assert refused(g, {"type": "start_hand", "seed": "again"}) == "wrong_phase"
    assert refused(g, {"type": "fix_trump"}) == "wrong_phase"
    with pytest.raises(Refusal):
        apply(g, ["deal"])


def test_full_hand_result_and_next_hand():  # §5.6, §6, §7, §8
    rng = random.Random(3)
    g = to_bury("full")
    d = g.dealer
    apply(g, {"type": "bury", "seat": d, "cards": rng.sample(g.hands[d], 8)})
    play_out(g, rng)
    assert g.phase == "scored"
    r = g.result
    assert HandResult.from_json(r).to_json() == r
    assert list(r) == [  # the stored and pushed JSON (docs/protocol.md): a change here is a protocol change
        "hand_no",
        "dealer",
        "dealer_team",
        "level",
        "trump",
        "flipped",
        "declarations",
        "kitty",
        "buried",
        "trick_points",
        "kitty_points",
        "kitty_multiplier",
        "kitty_bonus",
        "penalties",
        "defenders_score",
        "levels_before",
        "levels_after",
        "level_change",
        "next_dealer",
        "winner",
    ]
    assert r["defenders_score"] == r["trick_points"] + r["kitty_bonus"] + r["penalties"]
    assert g.result == r and g.levels == r["levels_after"]
    assert "history" not in g.to_json()  # past hands live in their events, not the state
    json.dumps(g.to_json())
    apply(g, {"type": "start_hand", "seed": "hand-2"})
    assert g.hand_no == 2 and g.dealer == r["next_dealer"] and g.deal_order()[0][0] == g.dealer
    assert g.result == r  # the last finished hand's result stays visible


def near_end(dealer, levels, trump="H", level=None):
    """A table with one card left per seat, the dealer leading."""
    g = table(level or levels[str(dealer % 2)], trump, dealer)
    g.levels = dict(levels)
    g.phase = "play"
    g.turn = g.leader = dealer
    g.kitty = ["S3"] * 8
    g.buried = ["S5", "SK", "D3", "D4", "C3", "C4", "C6", "C8"]  # 15 points
    return g


def test_kitty_bonus_and_score_at_hand_end():  # §6, §7
    g = near_end(0, {"0": "7", "1": "4"}, level="7")
    g.defender_points = 60
    g.hands = [["S3"], ["SA"], ["S4"], ["S6"]]
    apply(g, {"type": "play", "seat": 0, "cards": ["S3"]})
    apply(g, {"type": "play", "seat": 1, "cards": ["SA"]})
    apply(g, {"type": "play", "seat": 2, "cards": ["S4"]})
    events = apply(g, {"type": "play", "seat": 3, "cards": ["S6"]})
    scored = next(e for e in events if e["type"] == "hand_scored")["result"]
    assert scored["kitty_multiplier"] == 2 and scored["kitty_bonus"] == 30
    assert scored["defenders_score"] == 90 and scored["next_dealer"] == 1
    assert g.levels == {"0": "7", "1": "4"} and g.phase == "scored"


def test_match_won_event_and_finished_phase():  # §8.4
    g = near_end(2, {"0": "A", "1": "6"})
    g.hands = [["S4"], ["S3"], ["SA"], ["S6"]]
    g.turn = g.leader = 2
    for seat, card in ((2, "SA"), (3, "S6"), (0, "S4"), (1, "S3")):
        events = apply(g, {"type": "play", "seat": seat, "cards": [card]})
    assert events[-1] == {"type": "match_won", "team": 0}
    assert g.phase == "finished" and g.winner == 0 and g.result["winner"] == 0
    assert refused(g, {"type": "start_hand", "seed": "more"}) == "wrong_phase"


def test_json_round_trip_is_lossless_through_json_text():
    rng = random.Random(9)
    g = to_bury("rt")
    apply(g, {"type": "bury", "seat": g.dealer, "cards": g.hands[g.dealer][:8]})
    for _ in range(7):
        apply(g, {"type": "play", "seat": g.turn, "cards": sample_play(g, g.turn, rng)})
    data = json.loads(json.dumps(g.to_json()))
    assert Game.from_json(data).to_json() == g.to_json()
    # the copy is independent
    h = Game.from_json(data)
    h.hands[0].clear()
    assert g.hands[0]
