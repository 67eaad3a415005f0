"""classify, legal_declarations, legal_plays and sample_play."""

import random
from collections import Counter

from games.engine import classify, forced_play, is_legal_follow, legal_plays, sample_play
from games.engine.casebook import table


def play_table(hands, turn=0, trick=(), dealer=0, level="7", trump="H"):
    g = table(level, trump, dealer)
    g.phase = "play"
    g.hands = [list(h) for h in hands]
    g.turn = turn
    g.leader = trick[0][0] if trick else turn
    g.trick = [[s, list(c)] for s, c in trick]
    return g


def test_classify_lead_never_judges_a_throw():
    g = play_table([["SA", "SQ", "D3"], ["SK"], ["S3"], ["C3"]])
    c = classify(g, 0, ["SA", "SQ"])
    assert c == {
        "shape": "throw",
        "length": None,
        "lead": True,
        "legal": True,
        "code": None,
        "reason": None,
        "reason_template": None,
        "reason_plural": None,
        "rule": None,
        "params": {},
    }
    assert classify(g, 0, ["SA", "D3"])["code"] == "mixed_lead"
    assert classify(g, 0, [])["shape"] == "empty" and not classify(g, 0, [])["legal"]
    assert classify(g, 1, ["SK"])["code"] == "not_your_turn"


def test_classify_follow_and_reason():
    g = play_table([["SK"], ["S3", "HA", "D4"], ["S4"], ["S5"]], turn=1, trick=[(0, ["SK"])])
    c = classify(g, 1, ["HA"])
    assert not c["legal"] and c["code"] == "must_follow_suit" and "♠" in c["reason"]
    assert c["rule"] == "5.4" and "§" not in c["reason"]  # the rule is a reference, not part of the sentence
    assert classify(g, 1, ["S3"])["legal"]


def test_classify_tractor_shape():
    g = play_table([["S9", "S9", "S8", "S8"], [], [], []])
    assert classify(g, 0, ["S9", "S9", "S8", "S8"])["length"] == 2


def test_classify_bury():
    g = play_table([["S3"] * 2 + ["S4"] * 2 + ["S5"] * 2 + ["S6"] * 2 + ["S8"], [], [], []])
    g.phase = "bury"
    assert classify(g, 0, g.hands[0][:8])["legal"]
    assert classify(g, 0, g.hands[0][:7])["code"] == "bury_needs_8"
    assert classify(g, 1, g.hands[0][:8])["code"] == "not_dealer"


def test_legal_plays_follow_is_exactly_the_legal_set():
    hand = ["SQ", "SQ", "SJ", "SJ", "S3", "S3", "S5", "D5", "H2"]
    g = play_table([["S9", "S9", "S8", "S8"], hand, [], []], turn=1, trick=[(0, ["S9", "S9", "S8", "S8"])])
    plays = legal_plays(g, 1)
    assert plays == [["SQ", "SQ", "SJ", "SJ"]]


def test_legal_plays_follow_brute_force_agreement():
    from itertools import combinations

    lead = ["S5", "S4", "S4"]
    hand = ["SA", "SK", "SK", "S9", "S3", "S3", "HA", "D4"]
    g = play_table([lead, hand, [], []], turn=1, trick=[(0, lead)])
    ctx = g.ctx
    brute = {tuple(sorted(c)) for c in combinations(hand, 3) if is_legal_follow(lead, hand, list(c), ctx)[0]}
    assert {tuple(sorted(p)) for p in legal_plays(g, 1)} == brute


def test_legal_plays_lead_contains_components_and_throws():
    g = play_table([["SA", "SK", "SK", "SQ", "SQ", "D3"], [], [], []])
    plays = {tuple(p) for p in legal_plays(g, 0)}
    for p in (("SA",), ("SK", "SK"), ("SK", "SK", "SQ", "SQ"), ("D3",), ("SA", "SK", "SK")):
        assert p in plays
    assert ("SA", "D3") not in plays


def test_sample_play_is_legal_and_applies():
    rng = random.Random(5)
    lead = ["S9", "S9", "S8", "S8"]
    hand = ["SQ", "SQ", "SJ", "SJ", "S3", "S3", "S5", "D5", "H2", "H3"]
    g = play_table([lead, hand, [], []], turn=1, trick=[(0, lead)])
    for _ in range(50):
        p = sample_play(g, 1, rng)
        assert Counter(p) <= Counter(hand) and is_legal_follow(lead, hand, p, g.ctx)[0]


def test_sample_play_lead_is_one_suit_class():
    rng = random.Random(6)
    hand = ["SA", "SK", "SK", "SQ", "SQ", "D3", "H3", "H2", "BJK"]
    g = play_table([hand, ["S3"], ["S4"], ["S5"]])
    shapes = set()
    for _ in range(200):
        p = sample_play(g, 0, rng)
        c = classify(g, 0, p)
        assert c["legal"], (p, c)
        shapes.add(c["shape"])
    assert {"single", "pair", "tractor", "throw"} <= shapes


def test_forced_play_only_when_one_legal_play_exists():  # §5.4
    lead = ["S9", "S9", "S8", "S8"]
    # Holding one tractor in the led suit and other spades, the tractor must be played.
    forced = ["SQ", "SQ", "SJ", "SJ", "S3", "S3", "S5", "D5", "H2"]
    g = play_table([lead, forced, [], []], turn=1, trick=[(0, lead)])
    assert forced_play(g, 1) == ["SQ", "SQ", "SJ", "SJ"]
    # Two spades for a four-card lead: both spades, and a choice of the other two cards.
    g = play_table([lead, ["S3", "S4", "D5", "D6", "C7"], [], []], turn=1, trick=[(0, lead)])
    assert forced_play(g, 1) is None
    # Exactly the spades needed: forced.
    g = play_table([lead, ["S3", "S4", "S6", "SK", "D6"], [], []], turn=1, trick=[(0, lead)])
    assert forced_play(g, 1) == g.ctx.sort(["S3", "S4", "S6", "SK"])
    # A lead from a last card is forced; from a pair (single or pair?) it is not.
    assert forced_play(play_table([["D6"], [], [], []], turn=0), 0) == ["D6"]
    assert forced_play(play_table([["D6", "D6"], [], [], []], turn=0), 0) is None
    # Not this seat's turn: nothing is forced on it.
    assert forced_play(play_table([["D6"], ["D7"], [], []], turn=0), 1) is None
