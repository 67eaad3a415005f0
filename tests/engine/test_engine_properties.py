"""Property tests over random seeds and random legal play (RULES as a whole).

At every step: all 108 cards are accounted for; JSON round trip is the identity; every
view shows only what its seat may see (and stays the same when hidden cards are
swapped around); classify agrees with apply; rejected actions change nothing.
At the end of each hand: trick points + kitty points = 200.
"""

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, Refusal, apply, classify, full_deck, legal_declarations, points, sample_play, view
from tests.engine.test_engine_views import KEYS as VIEW_KEYS  # the fields a view holds, listed once

FULL = Counter(full_deck())


def all_cards(g):
    c = Counter()
    for h in g.hands:
        c.update(h)
    for a in g.areas:
        c.update(a)
    c.update(g.deck[g.dealt :])  # undealt cards, the kitty included, until fix_trump
    if g.phase not in ("deal", "last_chance"):
        c.subtract(g.kitty)  # the kitty went into the dealer's hand
    if g.buried:
        c.update(g.buried)
    for t in g.tricks:
        for _, cards in t["plays"]:
            c.update(cards)
    for _, cards in g.trick:
        c.update(cards)
    return +c


def kitty_visible(g, seat):
    if g.phase in ("scored", "finished"):
        return True
    return seat is not None and seat == g.dealer and g.phase in ("bury", "play")


def check_view(g, seat):
    v = view(g, seat)
    assert set(v) == VIEW_KEYS
    json.dumps(v)
    own = g.hands[seat] if seat is not None else []
    assert Counter(v["hand"]) == Counter(own)
    assert v["hand_counts"] == [len(h) for h in g.hands]
    assert v["declaration_areas"] == {str(s): g.areas[s] for s in range(4)}
    assert v["trick"] == g.trick
    if not kitty_visible(g, seat):
        assert v["kitty"] is None
    for d in v["can_declare"]:
        assert Counter(d) <= Counter(own)
    return v


def hide_swap(g, seat, rng):
    """A copy of g where two cards `seat` cannot see have traded places."""
    h = Game.from_json(g.to_json())
    pools = [h.hands[s] for s in range(4) if s != seat]
    if h.phase in ("deal", "last_chance"):
        pools.append(h.deck)  # only indexes >= dealt are hidden, handled below
    if h.phase == "play" and seat != h.dealer and h.buried:
        pools.append(h.buried)
    spots = []
    for i, pool in enumerate(pools):
        start = h.dealt if pool is h.deck else 0
        spots += [(i, j) for j in range(start, len(pool))]
    if len(spots) < 2:
        return h
    (a, i), (b, j) = rng.sample(spots, 2)
    pools[a][i], pools[b][j] = pools[b][j], pools[a][i]
    h.kitty = h.deck[100:108] if h.phase in ("deal", "last_chance") else h.kitty
    return h


def check_step(g, rng):
    assert all_cards(g) == FULL
    data = json.loads(json.dumps(g.to_json()))
    assert Game.from_json(data).to_json() == g.to_json()
    for seat in (None, 0, 1, 2, 3):
        v = check_view(g, seat)
        if g.hands is not None and g.phase not in ("scored", "finished"):
            assert view(hide_swap(g, seat, rng), seat) == v


def try_illegal(g, rng):
    """A random selection: classify and apply must agree; refusals change nothing."""
    seat = g.turn
    hand = g.hands[seat]
    cards = rng.sample(hand, rng.randint(1, min(len(hand), 4)))
    legal = classify(g, seat, cards)["legal"]
    before = g.to_json()
    h = Game.from_json(before)
    try:
        apply(h, {"type": "play", "seat": seat, "cards": cards})
        assert legal, cards
    except Refusal as e:
        assert not legal and h.to_json() == before, (cards, e)
    wrong = (seat + 1) % 4
    with pytest.raises(Refusal):
        apply(g, {"type": "play", "seat": wrong, "cards": g.hands[wrong][:1]})
    assert g.to_json() == before


def play_hand(g, rng, check):
    apply(g, {"type": "start_hand", "seed": f"h{rng.random()}"})
    check(g, rng)
    while g.phase == "deal":
        apply(g, {"type": "deal", "upto": min(100, g.dealt + rng.randint(1, 40))})
        for seat in range(4):
            options = legal_declarations(g, seat)
            if options and rng.random() < 0.4:
                apply(g, {"type": "declare", "seat": seat, "cards": rng.choice(options)})
        check(g, rng)
    apply(g, {"type": "fix_trump"})
    check(g, rng)
    apply(g, {"type": "bury", "seat": g.dealer, "cards": rng.sample(g.hands[g.dealer], 8)})
    while g.phase == "play":
        check(g, rng)
        if rng.random() < 0.3:
            try_illegal(g, rng)
        seat = g.turn
        apply(g, {"type": "play", "seat": seat, "cards": sample_play(g, seat, rng)})
    check(g, rng)
    assert g.phase in ("scored", "finished")
    trick_pts = sum(points(c) for t in g.tricks for _, c in t["plays"])
    assert trick_pts + points(g.buried) == 200
    r = g.result
    assert r["defenders_score"] == r["trick_points"] + r["kitty_bonus"] + r["penalties"]
    assert r["trick_points"] == sum(t["points"] for t in g.tricks if t["winner"] % 2 != r["dealer_team"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_random_hands_keep_every_invariant(seed):
    rng = random.Random(seed)
    g = Game.new()
    for _ in range(2):
        play_hand(g, rng, check_step)
        if g.phase == "finished":
            break


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_matches_progress(seed):
    """Cheaper run of several hands: hands complete, levels only rise, dealers rotate."""
    rng = random.Random(seed)
    g = Game.new()
    for _ in range(6):
        before = dict(g.levels)
        play_hand(g, rng, lambda g, rng: None)
        r = g.result
        order = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        assert all(order.index(g.levels[t]) >= order.index(before[t]) for t in "01")
        if g.phase == "finished":
            assert g.winner == r["winner"] and before[str(g.winner)] == "A"
            break
        keep = r["defenders_score"] < 80
        assert r["next_dealer"] == (r["dealer"] + (2 if keep else 1)) % 4
