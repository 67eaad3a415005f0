"""Bots: every decision legal, honest (decides from its own view only), sound habits,
and the botmatch evaluation command (docs/bots.md)."""

import random
from types import SimpleNamespace

import pytest
from django.core.management import call_command

from games import bots, engine
from games.bots import expert, match
from games.bots.observation import observe

STRONG_FAST = {"budget": 5.0, "worlds": 6}  # deterministic: stops at 6 worlds, not by time


def expert_work(cards: int) -> float:
    """The expert budget (seconds of this machine's search) that buys `cards` simulated cards:
    tests ask for an amount of work, whatever the machine's calibration."""
    return cards / expert.CARDS_PER_SECOND


EXPERT_FAST = {"budget": expert_work(300), "wall": False}  # deterministic: effort counted, not timed
FAST = {"strong": STRONG_FAST, "expert": EXPERT_FAST}


def play_state(hands, *, trump="S", level="2", dealer=0, trick=(), leader=None, tricks=()):
    """A game in the play phase with the given hands (seat -> cards) and current trick."""
    g = engine.Game.new()
    g.phase, g.hand_no, g.dealer, g.trump, g.dealt = "play", 2, dealer, trump, 100
    g.levels = {"0": level, "1": level}
    g.hands = [list(hands.get(s, [])) for s in range(4)]
    g.areas = [[], [], [], []]
    g.declarations, g.standing = [], None
    g.kitty = g.buried = ["C3", "C3", "C4", "C4", "C6", "C6", "C7", "C7"]
    g.tricks = [dict(t) for t in tricks]
    g.trick = [[s, list(c)] for s, c in trick]
    g.leader = leader if leader is not None else (trick[0][0] if trick else dealer)
    g.turn = (g.leader + len(g.trick)) % 4
    return g


def random_game(seed, stop_after):
    """A game with random hands partway through a hand (after `stop_after` plays)."""
    rng = random.Random(seed)
    g = match.fresh_hand(seed, dealer=rng.randrange(4), level=rng.choice("2345789JQK"))
    engine.apply(g, {"type": "deal", "upto": 100})
    engine.apply(g, {"type": "fix_trump"})
    engine.apply(g, {"type": "bury", "seat": g.dealer, "cards": rng.sample(g.hands[g.dealer], 8)})
    for _ in range(stop_after):
        if g.phase != "play":
            break
        engine.apply(g, {"type": "play", "seat": g.turn, "cards": engine.sample_play(g, g.turn, rng)})
    return g


# --- legality -------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["random", "novice", "basic"])
def test_every_decision_over_whole_hands_is_legal(level):
    """Thousands of decisions: engine.apply raises Refusal on any illegal one."""
    rng = random.Random(7)
    times = {}
    for i in range(24):
        g = match.fresh_hand(f"legal{i}", dealer=i % 4, level="23456789JQK"[i % 11])
        seats = [level, "basic", level, "random"] if i % 2 else ["basic", level, "random", level]
        match.play_hand(g, seats, rng, times)
        assert g.phase == "scored"
    assert len(times[level]) >= 600


def test_strong_decisions_are_legal_in_random_states():
    checked = 0
    for i in range(30):
        g = random_game(f"strong{i}", stop_after=random.Random(i).randrange(0, 90))
        if g.phase != "play":
            continue
        action = bots.decide(observe(g, g.turn), "strong", **STRONG_FAST)
        engine.apply(g, action)  # raises if illegal
        checked += 1
    # A hand has 100 plays and every state stops before the 90th: nearly all are in play.
    assert checked >= 25


def test_choose_is_the_server_entry_point():
    table = SimpleNamespace(pk=3, version=17)
    for lvl in ("basic", "strong"):
        g = random_game(f"srv{lvl}", stop_after=5)
        engine.apply(g, bots.choose(table=table, game=g, seat=g.turn, level=lvl))
    g = match.fresh_hand("bury", dealer=1, level="5")
    engine.apply(g, {"type": "deal", "upto": 100})
    engine.apply(g, {"type": "fix_trump"})
    action = bots.choose(table=table, game=g, seat=g.dealer, level="basic")
    assert action["type"] == "bury" and len(action["cards"]) == 8
    engine.apply(g, action)


# --- honesty --------------------------------------------------------------------------
def shuffle_hidden(g, seat, rng):
    """A copy of `g` in which every card `seat` cannot see is moved between the other
    hands (and the bury, unless `seat` is the dealer), hand sizes kept."""
    h = engine.Game.from_json(g.to_json())
    slots = [s for s in range(4) if s != seat]
    pool = [c for s in slots for c in h.hands[s]]
    sizes = [len(h.hands[s]) for s in slots]
    hide_kitty = seat != h.dealer
    if hide_kitty:
        pool += h.buried
    rng.shuffle(pool)
    for s, n in zip(slots, sizes):
        h.hands[s], pool = pool[:n], pool[n:]
    if hide_kitty:
        h.buried, h.kitty = pool[:8], pool[:8] + h.kitty[8:]
    return h


@pytest.mark.parametrize("stop_after", [0, 7, 30, 61])
def test_decisions_depend_only_on_the_seats_view(stop_after):
    rng = random.Random(stop_after)
    g = random_game(f"honest{stop_after}", stop_after)
    seat = g.turn
    other = shuffle_hidden(g, seat, rng)
    assert [sorted(h) for h in other.hands] != [sorted(h) for h in g.hands]
    assert observe(g, seat) == observe(other, seat)
    assert {"random", "novice", "basic", "strong", "expert"} <= set(bots.LEVELS)
    for level in bots.LEVELS:
        opts = FAST.get(level, {})
        assert bots.decide(observe(g, seat), level, **opts) == bots.decide(observe(other, seat), level, **opts)


def test_observation_holds_no_hidden_card():
    for stop_after in (0, 13, 50):
        g = random_game(f"hidden{stop_after}", stop_after)
        for seat in range(4):
            obs = observe(g, seat)
            visible = list(g.hands[seat]) + [c for t in g.tricks for _, cs in t["plays"] for c in cs]
            visible += [c for _, cs in g.trick for c in cs]
            visible += [c for d in g.declarations for c in d["cards"]] + [g.flipped]
            if seat == g.dealer:
                visible += g.buried
            assert set(obs.cards_seen()) <= set(visible)


def test_declaration_depends_only_on_own_cards():
    g = match.fresh_hand("decl", dealer=0, level="7")
    engine.apply(g, {"type": "deal", "upto": 60})
    obs = observe(g, 2)
    h = engine.Game.from_json(g.to_json())
    h.hands[1], h.hands[3] = h.hands[3], h.hands[1]
    assert obs == observe(h, 2)


# --- habits ---------------------------------------------------------------------------
def decide(g, level="basic"):
    return bots.decide(observe(g, g.turn), level, **(STRONG_FAST if level == "strong" else {}))


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_gives_points_to_a_partner_surely_winning(level):
    # ♠ trump, level 2. Seat 1 leads ♥3, partner (2) plays ♥A, seat 3 ♥4; seat 0 is last.
    g = play_state(
        {0: ["HK", "H6", "D3", "D4"], 1: ["C5"] * 0 + ["D6", "D7", "D8"], 2: ["D9", "DJ", "DQ"], 3: ["C8", "C9", "CJ"]},
        trick=[(1, ["H3"]), (2, ["HA"]), (3, ["H4"])],
        dealer=1,
    )
    assert decide(g, level)["cards"] == ["HK"]


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_discards_points_on_partners_trick_when_void(level):
    g = play_state(
        {0: ["D10", "D3", "S6", "SA"], 1: ["D6", "D7", "D8"], 2: ["D9", "DJ", "DQ"], 3: ["C8", "C9", "CJ"]},
        trick=[(1, ["H3"]), (2, ["HA"]), (3, ["H4"])],
        dealer=1,
    )
    assert decide(g, level)["cards"] == ["D10"]  # no ruff, points to the partner


@pytest.mark.parametrize("level", ["basic", "strong"])
def test_does_not_ruff_partners_winning_highest_card(level):
    # Seat 2 (partner) leads ♥A, the highest ♥; seat 3 follows; seat 0 is void in ♥.
    g = play_state(
        {0: ["S3", "S4", "D3", "C9"], 1: ["D6", "D7", "D8", "H5"], 2: ["D9", "DJ", "DQ"], 3: ["C8", "CJ", "CQ"]},
        trick=[(2, ["HA"]), (3, ["H4"])],
        leader=2,
        dealer=2,
    )
    # seat 1, the last player, still has a heart: partner surely wins.
    g.trick = [[1, ["H6"]], [2, ["HA"]], [3, ["H4"]]]
    g.leader, g.turn = 1, 0
    cards = decide(g, level)["cards"]
    assert not engine.context("2", "S").is_trump(cards[0])


def test_wins_cheaply_as_last_player():
    g = play_state(
        {0: ["HA", "HJ", "H4", "D3"], 1: ["D6"], 2: ["D9"], 3: ["C8"]},
        trick=[(1, ["H9"]), (2, ["H3"]), (3, ["H10"])],
        dealer=1,
    )
    assert decide(g)["cards"] == ["HJ"]


def test_ruffs_a_point_trick_with_a_low_trump():
    g = play_state(
        {0: ["S3", "SA", "BJK", "D3"], 1: ["D6"], 2: ["D9"], 3: ["C8"]},
        trick=[(1, ["HK"]), (2, ["H3"]), (3, ["H10"])],
        dealer=1,
    )
    assert decide(g)["cards"] == ["S3"]


def bury_hand():
    # ♠ trump, level 2: 12 trumps, ♥ long, ♣ two low cards, ♦ medium.
    return [
        "BJK",
        "SJK",
        "S2",
        "H2",
        "SA",
        "SK",
        "SQ",
        "S9",
        "S8",
        "S7",
        "S5",
        "S3",
        "HA",
        "HA",
        "HK",
        "HQ",
        "HJ",
        "H9",
        "H8",
        "H7",
        "DA",
        "DK",
        "D10",
        "D9",
        "D7",
        "D6",
        "D4",
        "D4",
        "C3",
        "C6",
        "CQ",
        "C8",
        "C9",
    ]


def test_bury_keeps_trumps_points_and_voids_a_short_suit():
    g = play_state({0: bury_hand()}, dealer=0)
    g.phase, g.turn, g.buried = "bury", 0, None
    cards = decide(g)["cards"]
    ctx = engine.context("2", "S")
    assert len(cards) == 8 and not any(ctx.is_trump(c) for c in cards)
    assert engine.points(cards) == 0
    assert {"C3", "C6", "C8", "C9", "CQ"} <= set(cards)  # clubs voided
    engine.apply(g, {"type": "bury", "seat": 0, "cards": cards})


def test_bury_with_few_non_trumps_buries_the_lowest_trumps():
    hand = [
        "BJK",
        "SJK",
        "S2",
        "H2",
        "D2",
        "C2",
        "SA",
        "SA",
        "SK",
        "SQ",
        "SJ",
        "S10",
        "S9",
        "S8",
        "S7",
        "S6",
        "S5",
        "S4",
        "S3",
        "S3",
        "S6",
        "S4",
        "S9",
        "S8",
        "SK",
        "SQ",
        "H3",
        "H4",
        "D3",
        "C5",
        "C4",
        "HA",
        "DA",
    ]
    g = play_state({0: hand}, dealer=0)
    g.phase, g.turn, g.buried = "bury", 0, None
    cards = decide(g)["cards"]
    assert {"H3", "H4", "D3", "C4"} <= set(cards) and "BJK" not in cards


def test_throws_only_when_every_part_is_the_highest_left():
    # Seat 0 holds ♥A ♥A ♥K: with both ♥A in hand and ♥K the next, a safe throw.
    hands = {
        0: ["HA", "HA", "HK", "D3", "D5", "C4"],
        1: ["H3", "HQ", "D6", "D7", "C8", "C9"],
        2: ["H4", "H5", "D8", "D9", "CJ", "CQ"],
        3: ["H6", "H7", "DJ", "DQ", "CK", "CA"],
    }
    g = play_state(hands, dealer=0)
    cards = decide(g)["cards"]
    assert sorted(cards) == ["HA", "HA", "HK"]
    events = engine.apply(g, {"type": "play", "seat": 0, "cards": cards})
    assert not any(e["type"] == "throw_failed" for e in events)


def test_declares_a_long_suit_and_not_a_weak_one():
    level = "7"
    obs = SimpleNamespace(
        seat=1,
        hand=("H7", "HA", "HK", "H3", "H4", "H9", "BJK", "S2", "H2", "D3", "C5", "H10", "HJ", "S9"),
        standing=None,
        phase="deal",
        dealt=56,
        level=level,
        can_declare=(("H7",),),
    )
    assert bots.decide_declaration(obs, "basic") == ["H7"]
    weak = SimpleNamespace(
        **{**vars(obs), "hand": ("H7", "S3", "S4", "S5", "D9", "DJ", "DK", "C3", "C4", "C9", "CJ", "S10", "SQ", "D4")}
    )
    assert bots.decide_declaration(weak, "basic") is None
    assert bots.decide_declaration(obs, "random") is None


# --- the evaluation command -------------------------------------------------------------
def test_botmatch_reports(capsys):
    call_command("botmatch", a="basic", b="random", deals=2, seed="t", seconds=30)
    out = capsys.readouterr().out
    assert "botmatch A=basic B=random seed=t: 2 deal pairs (4 hands)" in out
    assert "levels/hand for A: " in out and "95% CI [" in out
    assert "deal-pair win rate for A: " in out
    assert "decision time basic: p50 " in out and "decision time random: p50 " in out


def test_botmatch_strong_on_a_tiny_budget(capsys):
    call_command("botmatch", a="strong", b="basic", deals=1, seed="s", seconds=30, strong_ms=2)
    out = capsys.readouterr().out
    assert "botmatch A=strong B=basic seed=s: 1 deal pairs (2 hands)" in out
    assert "decision time strong: p50 " in out


def test_strong_bury_is_legal_and_keeps_trumps():
    g = play_state({0: bury_hand()}, dealer=0)
    g.phase, g.turn, g.buried = "bury", 0, None
    cards = decide(g, "strong")["cards"]
    assert not any(engine.context("2", "S").is_trump(c) for c in cards)
    engine.apply(g, {"type": "bury", "seat": 0, "cards": cards})


def test_duplicate_deals_swap_the_teams_cards():
    r = match.run_duplicate("basic", "basic", deals=3, seed="dup")
    assert r["pairs"] == 3 and r["levels"] == [0.0, 0.0, 0.0]  # same policy: exact tie


def test_choose_falls_back_to_a_legal_play_if_a_bot_fails(monkeypatch):
    from games.bots import basic as basic_mod

    def broken(obs):
        return {"type": "play", "seat": obs.seat, "cards": ["BJK", "BJK", "BJK"]}

    monkeypatch.setattr(basic_mod, "decide", broken)
    g = random_game("fallback", stop_after=9)
    action = bots.choose(table=SimpleNamespace(pk=1, version=2), game=g, seat=g.turn, level="basic")
    assert bots.is_legal(observe(g, g.turn), action)
    engine.apply(g, action)
