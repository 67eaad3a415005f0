"""The expert bot (docs/bots.md): legal, honest, repeatable from its seed; its exact
endgame search agrees with plain minimax; evaluate_options; botmatch --workers."""

import json
import random
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import bots, engine
from games.bots import endgame, expert, match
from games.bots.inference import history_bias
from games.bots.observation import observe
from tests.bots.test_bots import EXPERT_FAST, expert_work, play_state, random_game, shuffle_hidden


def bury_game(seed):
    g = match.fresh_hand(seed, dealer=2, level="6")
    engine.apply(g, {"type": "deal", "upto": 100})
    engine.apply(g, {"type": "fix_trump"})
    return g


# --- legal, honest, repeatable ----------------------------------------------------------
def test_expert_decisions_are_legal_in_random_states():
    checked = 0
    for i in range(16):
        g = random_game(f"expert{i}", stop_after=random.Random(i).randrange(0, 95))
        if g.phase != "play":
            continue
        engine.apply(g, bots.decide(observe(g, g.turn), "expert", **EXPERT_FAST))  # raises if illegal
        checked += 1
    assert checked >= 12


def test_expert_buries_and_plays_through_the_server_entry_point():
    table = SimpleNamespace(pk=9, version=1)
    g = bury_game("srv-expert")
    for _ in range(9):  # the bury and two tricks at the live budget
        action = bots.choose(table=table, game=g, seat=g.turn, level="expert")
        assert bots.is_legal(observe(g, g.turn), action)
        engine.apply(g, action)
        table.version += 1
    assert g.phase == "play" and len(g.tricks) == 2


def test_expert_bury_depends_only_on_the_dealers_view():
    g = bury_game("bury-honest")
    other = engine.Game.from_json(g.to_json())
    hidden = other.hands[0] + other.hands[1] + other.hands[3]
    random.Random(3).shuffle(hidden)
    other.hands[0], other.hands[1], other.hands[3] = hidden[:25], hidden[25:50], hidden[50:]
    assert other.hands[1] != g.hands[1]
    obs = observe(g, g.dealer)
    assert obs == observe(other, other.dealer)
    first = bots.decide(obs, "expert", random.Random(1), **EXPERT_FAST)
    assert first == bots.decide(observe(other, other.dealer), "expert", random.Random(1), **EXPERT_FAST)
    assert first["type"] == "bury" and len(first["cards"]) == 8
    engine.apply(g, first)


def test_expert_search_is_repeatable_from_its_seed():
    g = random_game("repeat", stop_after=20)
    obs = observe(g, g.turn)
    a = expert.play_search(obs, random.Random(5))
    b = expert.play_search(obs, random.Random(5))
    a.run(expert.Effort.of(0.1, wall=False), prune=True)
    b.run(expert.Effort.of(0.1, wall=False), prune=True)
    assert a.values == b.values and a.worlds == b.worlds >= expert.FIRST_WORLDS
    assert a.best() == b.best()


# --- the exact endgame ------------------------------------------------------------------
def minimax(p):
    """Plain minimax over the same moves (no pruning): the defenders' best score."""
    if p.score is not None:
        return p.score
    results = []
    for cards in endgame.moves(p):
        child = endgame.copy(p)
        child.play(cards)
        results.append(minimax(child))
    return max(results) if engine.is_defender(p.turn, p.dealer) else min(results)


@pytest.mark.parametrize("seed", range(6))
def test_endgame_alpha_beta_equals_minimax(seed):
    rng = random.Random(seed)
    g = random_game(f"end{seed}", stop_after=0)
    while g.phase == "play" and max(len(h) for h in g.hands) > 3:
        engine.apply(g, {"type": "play", "seat": g.turn, "cards": engine.sample_play(g, g.turn, rng)})
    assert g.phase == "play"
    p = engine.Playout(
        ctx=g.play_context(),
        dealer=g.dealer,
        hands=[list(h) for h in g.hands],
        buried=g.buried,
        trick=[(s, list(c)) for s, c in g.trick],
        turn=g.turn,
        defender_points=g.defender_points,
        penalties=g.penalties,
        rules=g.rules,
    )
    hands_before = [list(h) for h in p.hands]
    score, trick_points, _ = endgame.solve(p, [endgame.NODE_CAP])
    assert p.hands == hands_before  # the position is left as it was
    assert score == minimax(p)
    assert trick_points >= g.defender_points


def test_endgame_gives_up_past_its_node_cap():
    g = random_game("big", stop_after=0)
    p = engine.Playout(
        ctx=g.play_context(),
        dealer=g.dealer,
        hands=[list(h) for h in g.hands],
        buried=g.buried,
        trick=[],
        turn=g.turn,
        rules=g.rules,
    )
    with pytest.raises(endgame.TooBig):
        endgame.solve(p, [50])


# --- inference --------------------------------------------------------------------------
def test_history_bias_reads_overridden_declarations_and_early_trump_leads():
    g = play_state({0: ["D3", "D4"], 1: ["S3", "S4"], 2: ["C5", "C6"], 3: ["H7", "H8"]}, trump="S", dealer=0)
    g.declarations = [
        {"seat": 3, "cards": ["H2"], "strength": 1, "trump": "H", "reinforce": False},
        {"seat": 0, "cards": ["S2", "S2"], "strength": 2, "trump": "S", "reinforce": False},
    ]
    g.tricks = [{"leader": 1, "plays": [[1, ["SA"]], [2, ["S5"]], [3, ["S6"]], [0, ["S7"]]], "winner": 1, "points": 5}]
    g.leader = g.turn = 1
    bias = history_bias(observe(g, 2))
    assert bias[3, "H"] > 1  # seat 3 declared hearts before it was overridden
    assert bias[1, engine.TRUMP_CLASS] > 1  # a defender led trumps at once
    assert all(seat != 2 for seat, _ in bias)  # nothing about the seat's own hand


# --- evaluate_options -----------------------------------------------------------------
def test_evaluate_options_is_deterministic_and_covers_basic_and_the_play_made():
    g = random_game("evaluate", stop_after=12)
    obs = observe(g, g.turn)
    basic_top = expert.strong.candidate_plays(expert.Knowledge.from_observation(obs), 3)
    made = engine.sample_play(g, g.turn, random.Random(4))
    first = bots.evaluate_options(obs, rng=random.Random(11), budget=expert_work(600), include=made)
    again = bots.evaluate_options(obs, "expert", rng=random.Random(11), budget=expert_work(600), include=made)
    assert first == again
    played = [sorted(cards) for cards, _ in first]
    assert sorted(made) in played
    assert all(sorted(c) in played for c in basic_top)
    values = [v for _, v in first]
    assert values == sorted(values, reverse=True)
    assert all(0 <= v <= 200 * 64 for v in values)
    other = shuffle_hidden(g, g.turn, random.Random(2))  # what the seat cannot see changes nothing
    assert (
        bots.evaluate_options(observe(other, g.turn), rng=random.Random(11), budget=expert_work(600), include=made)
        == first
    )


def test_evaluate_options_of_a_bury_prefers_keeping_points_out_of_it():
    g = bury_game("evaluate-bury")
    obs = observe(g, g.dealer)
    hand = list(obs.hand)
    ctx = obs.ctx
    pointy = sorted(hand, key=lambda c: (-engine.points([c]), ctx.is_trump(c)))[:8]
    options = bots.evaluate_options(obs, rng=random.Random(3), budget=expert_work(1200), include=pointy)
    assert len(options) >= 2 and all(len(cards) == 8 for cards, _ in options)
    value = dict((tuple(sorted(c)), v) for c, v in options)
    assert value[tuple(sorted(pointy))] < options[0][1]  # burying its points costs the dealer


def test_evaluate_options_refuses_other_phases_and_levels():
    g = match.fresh_hand("phase", dealer=0, level="2")
    with pytest.raises(ValueError):
        bots.evaluate_options(observe(g, 0), rng=random.Random(1), budget=expert_work(600))
    g = random_game("level", stop_after=3)
    with pytest.raises(ValueError):
        bots.evaluate_options(observe(g, g.turn), "random", rng=random.Random(1), budget=expert_work(600))


# --- botmatch --workers -------------------------------------------------------------------
def test_workers_give_the_same_pairs_as_one_process():
    one = match.run_duplicate("basic", "random", deals=4, seed="w", workers=1)
    two = match.run_duplicate("basic", "random", deals=4, seed="w", workers=2)
    assert one["pairs"] == two["pairs"] == 4
    for key in ("levels", "scores", "points"):
        assert one[key] == two[key]
    opts = {"expert": {"budget": expert_work(120), "wall": False}}
    one = match.run_duplicate("expert", "basic", deals=2, seed="we", workers=1, options=opts)
    two = match.run_duplicate("expert", "basic", deals=2, seed="we", workers=2, options=opts)
    assert (one["levels"], one["points"]) == (two["levels"], two["points"])
    assert len(one["times"]["expert"]) == len(two["times"]["expert"])


def test_a_match_cut_short_is_finished_from_its_next_deal(capsys):
    whole = match.run_duplicate("basic", "random", deals=6, seed="f")
    tail = match.run_duplicate("basic", "random", deals=6, seed="f", from_deal=4)
    assert tail["pairs"] == 2
    assert (tail["levels"], tail["points"]) == (whole["levels"][4:], whole["points"][4:])
    call_command("botmatch", a="basic", b="random", deals=6, seed="f", from_deal=4)
    out = capsys.readouterr().out
    assert "seed f, deals 4-5 of its plan, 1 worker(s)" in out
    assert "botmatch A=basic B=random seed=f: 2 deal pairs (4 hands)" in out
    with pytest.raises(CommandError, match="more than --from-deal"):
        call_command("botmatch", a="basic", b="random", deals=4, seed="f", from_deal=4)
    with pytest.raises(CommandError, match="--from-deal must be 0 or more"):
        call_command("botmatch", a="basic", b="random", deals=4, seed="f", from_deal=-1)


def test_botmatch_prints_its_seed_budget_and_workers(capsys):
    call_command("botmatch", a="expert", b="random", deals=2, seed="p", seconds=60, expert_ms=5, workers=2)
    out = capsys.readouterr().out
    assert "seed p, 2 worker(s), time budget: expert 5 ms a lead or bury as work, 120 simulated cards" in out
    assert "(repeatable)" in out
    assert "botmatch A=expert B=random seed=p: 2 deal pairs (4 hands)" in out
    assert "decision time expert: p50 " in out and " p99 " in out


def test_botmatch_compares_two_runs_of_one_plan_pair_by_pair(capsys, tmp_path):
    first = tmp_path / "basic.json"
    call_command("botmatch", a="basic", b="random", deals=6, seed="c", pairs_out=str(first))
    kept = json.loads(first.read_text())
    whole = match.run_duplicate("basic", "random", deals=6, seed="c")
    assert kept["levels"] == whole["levels"] and kept["seed"] == "c" and kept["from_deal"] == 0
    capsys.readouterr()
    call_command("botmatch", a="random", b="random", deals=6, seed="c", from_deal=2, compare=str(first))
    out = capsys.readouterr().out
    later = match.run_duplicate("random", "random", deals=6, seed="c", from_deal=2)
    diffs = [x - y for x, y in zip(later["levels"], whole["levels"][2:])]
    mean, lo, hi = match.mean_ci(diffs)
    assert f"this run minus {first}: {mean:+.3f}  95% CI [{lo:+.3f}, {hi:+.3f}]" in out
    assert "(deals 2-5: 4 pairs" in out
    with pytest.raises(CommandError, match="its seed is 'c', this run's 'd': not the same deals"):
        call_command("botmatch", a="basic", b="random", deals=2, seed="d", compare=str(first))
    (tmp_path / "junk.json").write_text("[1, 2]")
    with pytest.raises(CommandError, match="not a --pairs-out file"):
        call_command("botmatch", a="basic", b="random", deals=2, seed="c", compare=str(tmp_path / "junk.json"))
