"""The playout fast path (games/engine/simulate.py) follows the rules of `apply` exactly:
the same plays give the same tricks, failed-throw penalties and end-of-hand score, under
RULES.md, every preset and random custom rules (docs/house-rules.md)."""

import random

import pytest

from games.engine import (
    DEFAULT_RULES,
    OPTIONS,
    PRESETS,
    Game,
    Playout,
    Rules,
    apply,
    conflicts,
    preset_rules,
    sample_play,
)


def random_rules(seed):
    """A custom combination of option values that makes sense together, from `seed`."""
    rng = random.Random(seed)
    while True:
        rules = Rules(**{o.name: rng.choice(o.values) for o in OPTIONS})
        if not conflicts(rules):
            return rules


# The presets, and custom sets that vary the options a playout scores by (§5.3, §6.1).
CUSTOM = [
    random_rules("sim-a"),
    random_rules("sim-b"),
    Rules(permanent_twos=False, throw_penalty="per_card_back", kitty_bonus="by_pairs"),
    Rules(throw_penalty="none", kitty_bonus="double", no_declaration="no_trump"),
]
RULESETS = {name: preset_rules(name) for name in PRESETS} | {f"custom{i}": r for i, r in enumerate(CUSTOM)}


def _to_play(seed, rules=DEFAULT_RULES, level=None):
    g = Game.new(rules)
    if level is not None:  # a later hand at `level` (at 2, permanent_twos changes nothing)
        g.phase, g.hand_no, g.levels, g.result = "scored", 1, {"0": level, "1": level}, {"next_dealer": 1}
    apply(g, {"type": "start_hand", "seed": seed})
    while g.phase == "deal":  # again after a redeal (no_declaration=redeal): nobody declares here
        apply(g, {"type": "deal", "upto": 100})
        apply(g, {"type": "fix_trump"})
    apply(g, {"type": "bury", "seat": g.dealer, "cards": g.hands[g.dealer][-8:]})
    return g


def _playout_of(g):
    return Playout(
        ctx=g.play_context(),
        dealer=g.dealer,
        hands=[list(h) for h in g.hands],
        buried=list(g.buried),
        trick=[(s, list(c)) for s, c in g.trick],
        turn=g.turn,
        defender_points=g.defender_points,
        penalties=g.penalties,
        rules=g.rules,
    )


@pytest.mark.parametrize("seed", range(60))
def test_playout_matches_apply(seed):
    _check_playout_matches_apply(seed, DEFAULT_RULES)


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("seed", range(6))
def test_playout_matches_apply_under_house_rules(name, seed):
    _check_playout_matches_apply(seed, RULESETS[name], level="3579JK"[seed])


def _check_playout_matches_apply(seed, rules, level=None):
    rng = random.Random(seed)
    g = _to_play(f"sim-{seed}", rules, level)
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


@pytest.mark.parametrize("penalty", ["components", "per_card_back", "none"])
def test_a_failed_throw_is_penalised_in_a_playout(penalty):
    for seed in range(200):  # find a hand whose first lead, a whole suit, is beatable
        g = _to_play(f"throw-{seed}", Rules(throw_penalty=penalty))
        ctx = g.play_context()
        suit = [c for c in g.hands[g.turn] if ctx.cls[c] == "S"]
        if len(suit) < 3:
            continue
        po = _playout_of(g)
        before = g.penalties
        apply(g, {"type": "play", "seat": g.turn, "cards": suit})
        if g.last_failed_throw is None:
            continue
        assert po.play(suit) == g.trick[0][1] != suit
        delta = g.last_failed_throw["defenders_delta"]
        assert po.penalties - before == delta
        assert (delta == 0) == (penalty == "none")
        # §5.3: 10 a card of every beatable component, or (house rule) a card taken back
        back = len(suit) - len(g.trick[0][1])
        assert penalty != "per_card_back" or abs(delta) == 10 * back
        return
    pytest.fail("no failed throw found")
