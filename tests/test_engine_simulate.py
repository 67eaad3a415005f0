"""The playout fast path (games/engine/simulate.py) follows the rules of `apply` exactly:
the same plays give the same tricks, failed-throw penalties and end-of-hand score."""

import random

import pytest

from games.engine import Game, Playout, apply, context, sample_play


def _to_play(seed):
    g = Game.new()
    apply(g, {"type": "start_hand", "seed": seed})
    apply(g, {"type": "deal", "upto": 100})
    apply(g, {"type": "fix_trump"})
    apply(g, {"type": "bury", "seat": g.dealer, "cards": g.hands[g.dealer][-8:]})
    return g


def _playout_of(g):
    return Playout(
        ctx=context(g.level, g.trump),
        dealer=g.dealer,
        hands=[list(h) for h in g.hands],
        buried=list(g.buried),
        trick=[(s, list(c)) for s, c in g.trick],
        turn=g.turn,
        defender_points=g.defender_points,
        penalties=g.penalties,
    )


@pytest.mark.parametrize("seed", range(60))
def test_playout_matches_apply(seed):
    rng = random.Random(seed)
    g = _to_play(f"sim-{seed}")
    start = rng.randrange(0, 60)  # also start in the middle of a hand (and of a trick)
    plays = []
    while g.phase == "play":
        if len(plays) == start:
            po = _playout_of(g)
            attempted_from = len(plays)
        cards = sample_play(g, g.turn, rng)  # throw attempts included (some fail, §5.3)
        plays.append((g.turn, cards))
        apply(g, {"type": "play", "seat": g.turn, "cards": cards})
    played = []
    for seat, cards in plays[attempted_from:]:
        assert po.turn == seat and po.score is None
        played.append((seat, po.play(cards)))
    applied = [(s, c) for t in g.tricks for s, c in t["plays"]][attempted_from:]
    assert played == applied
    assert po.turn == g.tricks[-1]["winner"]
    assert (po.defender_points, po.penalties) == (g.result["trick_points"], g.result["penalties"])
    assert po.score == g.result["defenders_score"]
    assert all(h == [] for h in po.hands)


def test_a_failed_throw_is_penalised_in_a_playout():
    for seed in range(200):  # find a hand whose first lead, a whole suit, is beatable
        g = _to_play(f"throw-{seed}")
        ctx = context(g.level, g.trump)
        suit = [c for c in g.hands[g.turn] if ctx.cls[c] == "S"]
        if len(suit) < 3:
            continue
        po = _playout_of(g)
        before = g.penalties
        apply(g, {"type": "play", "seat": g.turn, "cards": suit})
        if g.last_failed_throw is None:
            continue
        assert po.play(suit) == g.trick[0][1] != suit
        assert po.penalties - before == g.last_failed_throw["defenders_delta"] != 0
        return
    pytest.fail("no failed throw found")
