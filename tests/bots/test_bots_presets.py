"""Bots under every house-rules preset and a random custom set (docs/house-rules.md):
every decision legal (judged by the engine and by `bots.is_legal`), and the
honest-information guarantee unchanged (a decision depends on the seat's view alone).

Kept small for CI: one hand per ruleset for legality, one bury and one play state per
ruleset for honesty, at the deterministic test budgets of tests/bots/test_bots.py.
"""

import random

import pytest

from games import bots, engine
from games.bots import match
from games.bots.observation import observe
from tests.bots.test_bots import FAST, expert_work, shuffle_hidden
from tests.engine.test_engine_simulate import random_rules

RULESETS = {name: engine.preset_rules(name) for name in engine.PRESETS} | {"custom": random_rules("bots")}
SMART = ("basic", "strong", "expert")
# Whole hands: the searches still play their first worlds (enough to reach every rule).
LEGAL_FAST = {"strong": {"budget": 5.0, "worlds": 2}, "expert": {"budget": expert_work(120), "wall": False}}


def test_the_rulesets_cover_every_preset_and_a_custom_set():
    assert set(RULESETS) == {"standard", "qq", "classic", "casual", "custom"}
    assert engine.preset_of(RULESETS["custom"]) == engine.CUSTOM


def dealt(seed, rules, *, dealer, level):
    """A hand of `rules` at `level` dealt with the basic bot declaring, at the bury."""
    g = match.fresh_hand(seed, dealer=dealer, level=level, rules=rules)
    match.deal_and_fix(g, ["basic"] * 4)
    assert g.rules == rules and g.phase == "bury"
    return g


@pytest.mark.parametrize("name", RULESETS)
def test_every_level_plays_a_whole_hand_legally(name):
    """Seats basic/strong/expert/novice: the bury and every play of each level are legal
    under the ruleset (a bot reading RULES.md's trumps under `classic` would fail)."""
    rules, i = RULESETS[name], list(RULESETS).index(name)
    seats = ["basic", "strong", "expert", "novice"]
    g = dealt(f"preset-legal-{name}", rules, dealer=0, level="3579K"[i])  # not 2: the 2s matter
    rng = random.Random(i)
    made = dict.fromkeys(seats, 0)
    while g.phase in ("bury", "play"):
        level = seats[g.turn]
        obs = observe(g, g.turn)
        assert obs.rules == rules
        action = bots.decide(obs, level, rng, **LEGAL_FAST.get(level, {}))
        assert bots.is_legal(obs, action), (level, action)
        engine.apply(g, action)  # raises Refusal if illegal
        made[level] += 1
    assert g.phase in ("scored", "finished")
    assert made["strong"] >= 12 and made["expert"] >= 12 and made["novice"] >= 12


@pytest.mark.parametrize("name", RULESETS)
def test_decisions_depend_only_on_the_seats_view(name):
    """The hidden-card swap of tests/bots/test_bots.py under each ruleset: the dealer's bury,
    then a play in the middle of the hand, for every level that searches or reasons, and
    the novice (its habits and slips)."""
    rules, i = RULESETS[name], list(RULESETS).index(name)
    rng = random.Random(f"honest-{name}")
    g = dealt(f"preset-honest-{name}", rules, dealer=i % 4, level=["4", "6", "8", "10", "Q"][i])
    _same_decisions(g, g.dealer, rng)  # the bury: the other three hands trade cards
    engine.apply(g, bots.decide(observe(g, g.dealer), "basic"))
    for _ in range(13 + 7 * i):  # a few tricks in, sometimes mid-trick
        engine.apply(g, {"type": "play", "seat": g.turn, "cards": engine.sample_play(g, g.turn, rng)})
    assert g.phase == "play"
    _same_decisions(g, g.turn, rng)


def _same_decisions(g, seat, rng):
    other = shuffle_hidden(g, seat, rng)
    assert [sorted(h) for h in other.hands] != [sorted(h) for h in g.hands]
    assert observe(g, seat) == observe(other, seat)
    for level in ("novice", *SMART):
        opts = FAST.get(level, {})
        mine = bots.decide(observe(g, seat), level, random.Random(1), **opts)
        assert mine == bots.decide(observe(other, seat), level, random.Random(1), **opts), level


@pytest.mark.parametrize("name", ["qq", "custom"])
def test_declarations_depend_only_on_own_cards(name):
    """Mid-deal, the two other hands trade places: same view, same declaration (qq lets
    the partner reinforce, so `can_declare` reads the standing declaration too)."""
    g = match.fresh_hand(f"preset-decl-{name}", dealer=0, level="7", rules=RULESETS[name])
    engine.apply(g, {"type": "deal", "upto": 72})
    h = engine.Game.from_json(g.to_json())
    h.hands[1], h.hands[3] = h.hands[3], h.hands[1]
    assert h.hands[1] != g.hands[1]
    for seat in (0, 2):
        assert observe(g, seat) == observe(h, seat)
        assert bots.decide_declaration(observe(g, seat)) == bots.decide_declaration(observe(h, seat))
