"""The hand analysis (games/analysis/, games/bots/evaluate.py): queued when a hand is scored,
every person's bury and play evaluated from that seat's own view, the same every time.

A real hand is played through the one write path (tests/history/test_replay.py `drive`) and its
stored log analysed. The worker process and its restart: tests/analysis/test_analysis_worker.py.
"""

import random

import pytest
from django.conf import settings
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from games import bots, engine, selectors
from games.analysis import decisions, service, tasks
from games.analysis.models import Decision, HandAnalysis
from games.bots import coach
from games.engine import fold
from games.models import Hand, Table
from tests.bots.test_bots import expert_work
from tests.conftest import make_table, make_user
from tests.history.test_replay import FAST, drive

BUDGET = expert_work(300)  # the smallest search: 4 worlds a candidate


@pytest.fixture(scope="module")
def played(django_db_setup, django_db_blocker):
    """One finished hand of four people, committed (so its enqueue on commit ran)."""
    with django_db_blocker.unblock(), override_settings(**FAST, GAMES_ANALYSIS_BUDGET=BUDGET):
        people = [make_user(f"an-{name}") for name in ("north", "east", "south", "west")]
        table = make_table(people[0], players=people)
        drive(table, people, hands=1, seed=11)
        hand = Hand.objects.filter(match__table=table, finished_at__isnull=False).get()
        yield {"table": table, "people": people, "hand": hand}
        DBTaskResult.objects.filter(task_path=tasks.analyse_hand.module_path).delete()
        Table.objects.filter(pk=table.pk).delete()
        for user in people:
            user.delete()


def _own_log(hand):
    before, own = selectors.hand_log(hand)
    return [a for _, _, a in before], [decisions.LoggedAction(seq, source, a) for seq, source, a in own]


@pytest.mark.django_db
def test_a_scored_hand_is_queued_once_committed(played):
    analysis = HandAnalysis.objects.get(hand=played["hand"])
    assert analysis.status == HandAnalysis.Status.QUEUED
    assert (analysis.level, analysis.budget, analysis.seed) == (
        settings.GAMES_ANALYSIS_LEVEL,
        BUDGET,
        coach.hand_seed(played["hand"].pk),  # public: the deck's seed would tell the deal
    )
    waiting = DBTaskResult.objects.ready().filter(task_path=tasks.analyse_hand.module_path, queue_name="analysis")
    assert [row.args_kwargs["args"] for row in waiting] == [[played["hand"].pk]]


@pytest.mark.django_db
def test_a_match_of_bots_only_is_not_analysed(played, settings):
    hand = played["hand"]
    hand.match.seating.update(user=None, bot="basic")
    assert tasks.hand_analysis_queue(hand=hand) is None


@pytest.mark.django_db
def test_every_bury_and_play_of_the_people_is_analysed_the_same_every_time(played):
    hand = played["hand"]
    first = service.hand_analyse(hand_id=hand.pk)
    rows = list(Decision.objects.filter(analysis=first).values())
    _, own = _own_log(hand)
    made = [(i, a.action) for i, a in enumerate(own) if a.action["type"] in ("bury", "play")]
    assert [(r["index"], r["seat"], r["played"]) for r in rows] == [(i, a["seat"], a["cards"]) for i, a in made]
    assert {r["kind"] for r in rows} == {"bury", "lead", "follow"}
    for r in rows:
        assert r["lost"] == pytest.approx(max(r["suggested_points"] - r["played_points"], 0), abs=0.02)
        assert r["suggested_points"] >= r["played_points"]
    assert any(r["lost"] > 0 for r in rows)  # random plays: the bot finds better ones
    assert first.status == HandAnalysis.Status.DONE and first.seconds > 0
    assert set(first.seats) == {"0", "1", "2", "3"}
    for seat in first.seats.values():
        assert 0 <= seat["accuracy"] <= 100 and seat["decisions"] > 0
    again = service.hand_analyse(hand_id=hand.pk)
    assert list(Decision.objects.filter(analysis=again).values()) != []
    strip = [{k: v for k, v in r.items() if k != "id"} for r in rows]
    assert [
        {k: v for k, v in r.items() if k != "id"} for r in Decision.objects.filter(analysis=again).values()
    ] == strip
    assert again.seats == first.seats


@pytest.mark.django_db
def test_only_the_players_own_moves_are_analysed(played):
    """A stand-in's move (source "bot": the player had timed out) is not the player's."""
    hand = played["hand"]
    before, own = _own_log(hand)
    plays = [i for i, a in enumerate(own) if a.action["type"] == "play"]
    own[plays[3]] = decisions.LoggedAction(own[plays[3]].seq, "bot", own[plays[3]].action)
    found = decisions.hand_decisions(
        before, own, rules=hand.game_rules(), seed="s", level="strong", budget=BUDGET, evaluate=_first_option
    )
    assert plays[3] not in [d.index for d in found] and plays[4] in [d.index for d in found]


def _first_option(obs, level, *, rng, budget, include=None):
    return [(list(include), 0.0)]


def _game_before(hand, index):
    before, own = _own_log(hand)
    game = fold(before, hand.game_rules())
    for logged in own[:index]:
        engine.apply(game, logged.action)
    return game, own[index].action


def _swap_hidden(game: engine.Game, seat: int, rng: random.Random) -> engine.Game:
    """The same game for `seat`'s eyes: the other hands (and the bury, unless `seat` dealt)
    dealt again among themselves, each keeping as many cards of each suit as it had (so a
    void shown stays a void)."""
    other = game.copy()
    slots: list = [s for s in range(4) if s != seat]
    if other.dealer != seat:
        slots.append("kitty")
    held = {s: (other.buried if s == "kitty" else other.hands[s]) for s in slots}
    cls = other.play_context().cls
    new: dict = {s: [] for s in slots}
    for suit in {cls[c] for cards in held.values() for c in cards}:
        pool = [c for s in slots for c in held[s] if cls[c] == suit]
        rng.shuffle(pool)
        for s in slots:
            n = sum(cls[c] == suit for c in held[s])
            new[s], pool = new[s] + pool[:n], pool[n:]
    for s in slots:
        if s == "kitty":
            other.buried = new[s]
        else:
            other.hands[s] = engine.sort_cards(new[s], other.level, other.trump, other.rules.permanent_twos)
    return other


@pytest.mark.django_db
def test_a_decision_depends_only_on_what_the_seat_could_see(played):
    hand = played["hand"]
    _, own = _own_log(hand)
    plays = [i for i, a in enumerate(own) if a.action["type"] == "play"]
    checked = 0
    for index in (plays[1], plays[14], plays[40]):  # a follow early, mid-hand, later
        game, action = _game_before(hand, index)
        seat = action["seat"]
        swapped = _swap_hidden(game, seat, random.Random(index))
        assert swapped.hands != game.hands  # the hidden cards did move
        assert bots.observe(swapped, seat) == bots.observe(game, seat)
        kw = {"index": index, "seq": own[index].seq, "seed": "x", "level": "strong", "budget": BUDGET}
        assert decisions.evaluate_decision(swapped, action, **kw) == decisions.evaluate_decision(game, action, **kw)
        checked += 1
    assert checked == 3


@pytest.mark.django_db
def test_the_bury_depends_only_on_the_dealers_view(played):
    hand = played["hand"]
    _, own = _own_log(hand)
    index = next(i for i, a in enumerate(own) if a.action["type"] == "bury")
    game, action = _game_before(hand, index)
    swapped = _swap_hidden(game, action["seat"], random.Random(1))
    assert swapped.hands != game.hands
    kw = {"index": index, "seq": own[index].seq, "seed": "x", "level": "strong", "budget": BUDGET}
    result = decisions.evaluate_decision(game, action, **kw)
    assert result.kind == "bury" and len(result.suggested) == engine.KITTY_SIZE
    assert decisions.evaluate_decision(swapped, action, **kw) == result


@pytest.mark.django_db
def test_evaluate_options_includes_the_play_made_and_ranks_best_first(played):
    hand = played["hand"]
    _, own = _own_log(hand)
    index = next(i for i, a in enumerate(own) if a.action["type"] == "play")  # the first lead
    game, action = _game_before(hand, index)
    obs = bots.observe(game, action["seat"])
    odd = engine.legal_plays(game, action["seat"])[-1]
    options = bots.evaluate_options(obs, "strong", rng=random.Random(1), budget=BUDGET, include=odd)
    assert sorted(odd) in [sorted(cards) for cards, _ in options]
    values = [v for _, v in options]
    assert values == sorted(values, reverse=True) and len(options) >= 2
    # A side's points: the 200 card points, and a kitty bonus of at most 8 cards of 10 points
    # ×64 (RULES §6): a last trick led with a long tractor multiplies the kitty that far.
    assert all(0 <= v <= 200 + 8 * 10 * 64 for v in values)
    with pytest.raises(ValueError, match="no evaluator"):
        bots.evaluate_options(obs, "no-such-level", rng=random.Random(1), budget=BUDGET)


def test_side_points_add_up_to_the_cards_in_play():
    """A dealer-side and a defender seat of the same finished playout share all 200 card
    points when nobody is penalised and the dealer's side took the last trick."""
    from games.bots.evaluate import TOTAL_POINTS, side_points

    playout = engine.Playout(
        ctx=engine.context("2", "S", True),
        dealer=0,
        hands=[["SA"], ["H3"], ["H4"], ["H6"]],
        buried=["HK"],
        trick=[],
        turn=0,
    )
    playout.defender_points = 30
    playout.play(["SA"])
    for cards in (["H3"], ["H4"], ["H6"]):
        playout.play(cards)
    assert playout.score is not None and playout.turn == 0
    assert side_points(playout, 0) + side_points(playout, 1) == TOTAL_POINTS
    assert side_points(playout, 1) == 30
