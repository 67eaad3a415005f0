"""The worlds the search bots sample (strong.sample_world) respect what a follow shows
of a hand's pairs (RULES §5.4), and that reading is never wrong about the real hands."""

import random
from collections import Counter
from collections.abc import Iterator

from games import engine
from games.bots import basic, strong
from games.bots.knowledge import Knowledge, nothing_shown
from games.bots.match import deal_and_fix, fresh_hand
from games.bots.observation import Observation, observe
from tests.bots.test_bots import play_state

# Seat 1 led the pair of heart kings; seat 2 followed with two single hearts, so it held
# no heart pair (it would have had to play it) and no twin of H5 or H9. Seat 3 looks on.
HANDS = {
    0: ["HQ", "HQ", "H5", "D3", "D4", "D5"],
    1: ["H9", "H7", "H7", "D8"],
    2: ["H6", "H8", "D9", "DJ"],
    3: ["C8", "C9", "CJ", "CQ", "DK", "DA"],
}
TRICK = [(1, ["HK", "HK"]), (2, ["H5", "H9"])]


def onlooker() -> tuple[Observation, Knowledge]:
    g = play_state(HANDS, trick=TRICK)
    obs = observe(g, 3)
    k = Knowledge.from_observation(obs)
    return obs, k


def breaks_pairs_shown(world, k: Knowledge) -> bool:
    """Does `world` give a seat a card or a pair that `k` says it showed it lacks?"""
    cls = k.ctx.cls
    for s in (s for s in world if s != "kitty"):
        held = Counter(world[s])
        if any(held[c] for c in k.lacks[s]):
            return True
        if any(n >= 2 and cls[c] in k.pairless[s] for c, n in held.items()):
            return True
    return False


def test_a_follow_short_of_pairs_shows_the_hand_holds_none():
    obs, k = onlooker()
    hearts = obs.ctx.cls["H5"]
    assert k.pairless == [set(), set(), {hearts}, set()]
    assert k.lacks[2] == {"H5", "H9"}
    assert not k.lacks[0] and not k.lacks[1]


def basic_hand(seed: str, dealer: int) -> Iterator[engine.Game]:
    """A hand played by basic bots, the game before each play."""
    g = fresh_hand(seed, dealer=dealer, level="23456789JQK"[dealer])
    deal_and_fix(g, ["basic"] * 4)
    while g.phase in ("bury", "play"):
        if g.phase == "play":
            yield g
        assert g.turn is not None
        engine.apply(g, basic.decide(observe(g, g.turn)))


def test_sampled_worlds_respect_the_pairs_shown():
    """In real positions where a seat showed it lacks pairs, worlds sampled without that
    fact do give it pairs (so the check bites); with it, never."""
    positions = 0
    for i in range(6):
        for g in basic_hand(f"worlds{i}", dealer=i % 4):
            obs = observe(g, g.turn)
            k = Knowledge.from_observation(obs)
            if not any(k.pairless):
                continue
            blind = Knowledge.from_observation(obs)
            blind.pairless, blind.lacks = nothing_shown(), nothing_shown()
            unaware = [strong.sample_world(obs, blind, random.Random(j)) for j in range(20)]
            if not any(w and breaks_pairs_shown(w, k) for w in unaware):
                continue
            worlds = [strong.sample_world(obs, k, random.Random(j)) for j in range(100)]
            assert sum(w is not None for w in worlds) >= 60  # a stuck fill is retried (Search.world)
            assert not any(w and breaks_pairs_shown(w, k) for w in worlds)
            positions += 1
    assert positions >= 20


def test_the_pairs_shown_are_never_wrong_about_the_real_hands():
    """Basic bots play whole hands; at every play, each seat's reading of the others'
    pairs holds for their real hands."""
    facts = 0
    for i in range(12):
        for g in basic_hand(f"pairs{i}", dealer=i % 4):
            for me in range(4):
                obs = observe(g, me)
                k = Knowledge.from_observation(obs)
                truth = {s: g.hands[s] for s in range(4) if s != me}
                facts += sum(len(k.pairless[s]) + len(k.lacks[s]) for s in truth)
                assert not breaks_pairs_shown(truth, k)
    assert facts > 1000  # the hands did show pairs missing, so the check was exercised
