"""The coach at casual tables (games/bots/coach.py, docs/analysis.md): Hint and the hand
analysis ask the same evaluator with the same budget and seed, so a player who plays what
Hint gives is never told afterwards that it was a mistake; the hint reads only what the
seat may see (RULES §9); its "Why?" comes with it, in the reader's language."""

import asyncio
import itertools
import random

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from games import bots, engine
from games.analysis import decisions, service, why
from games.analysis.models import HandAnalysis
from games.bots import coach, match
from games.models import Hand, Table
from games.runtime import thinking
from tests.analysis.test_analysis import _swap_hidden
from tests.bots.test_bots import expert_work, random_game
from tests.conftest import make_table, ws_client

BUDGET = expert_work(1200)  # a real search, small enough for whole hands in a test
HUMAN = 0


@pytest.fixture
def coach_settings(settings):
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    settings.GAMES_DECK_SEED = "coach82"  # the same deals every run: North is dealt a 2 first, nobody a pair
    settings.GAMES_ANALYSIS_BUDGET = BUDGET
    settings.GAMES_BOT_THINKERS = 1  # the hint thinks in the pool, as on a server
    yield settings
    thinking.shutdown()


# --- following Hint for whole hands --------------------------------------------------------


@sync_to_async
def _table_and_game(table_id):
    table = Table.objects.get(pk=table_id)
    return table, engine.Game.from_json(table.state) if table.state else None


@sync_to_async
def _declaration(table):
    """The human's strongest declaration while another's stands (to deal the first hand, and bury)."""
    from games import selectors

    live = selectors.live_game(table)
    if live.phase != "deal" or (live.standing and live.standing["seat"] == HUMAN):
        return None
    options = engine.legal_declarations(live, HUMAN)
    return max(options, key=len) if options else None


@sync_to_async
def _finished_hands(table_id):
    return list(Hand.objects.filter(match__table_id=table_id, finished_at__isnull=False).order_by("number"))


async def _follow_hints(client, table_id, hands: int, timeout=240.0):
    """Play the human's seat by Hint alone until `hands` hands are scored: [(version, phase, hint)]."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    followed, done_at = [], None
    while loop.time() < deadline:
        table, game = await _table_and_game(table_id)
        if len(await _finished_hands(table_id)) >= hands:
            return followed
        if game and game.phase == "deal" and (cards := await _declaration(table)):
            await client.send({"action": "declare", "cards": cards, "version": table.version})
            await asyncio.sleep(0.05)
        elif game and game.phase in ("bury", "play") and game.turn == HUMAN and done_at != table.version:
            await _until_shown(client, table.version)  # as a page asks: about the version it shows
            await client.send({"action": "hint"})
            hint = await client.receive_until(lambda m: m["type"] in ("hint", "error"), timeout=10)
            assert hint["type"] == "hint", hint
            assert hint["version"] == table.version and hint["why"]
            followed.append((table.version, game.phase, hint))
            await client.send({"action": game.phase, "cards": hint["cards"], "version": table.version})
            done_at = table.version
        await asyncio.sleep(0.01)
    raise AssertionError(f"the hands were not finished in {timeout}s")


async def _until_shown(client, version):
    """Wait until the socket has pushed `version` (this test reads the database directly)."""
    shown = max((m["version"] for m in client.received if m["type"] == "state"), default=-1)
    if shown < version:
        await client.receive_until(lambda m: m["type"] == "state" and m["version"] >= version)


@pytest.mark.django_db(transaction=True)
async def test_a_player_who_follows_hint_for_whole_hands_makes_no_mistake(players, coach_settings):
    owner = players[HUMAN]
    table = await sync_to_async(make_table)(owner, players=[owner], pace_ms=20)
    client = await ws_client(f"/ws/table/{table.pk}/", owner)
    version = (await client.receive())["version"]
    for seat in (1, 2, 3):
        await client.send({"action": "add_bot", "seat": seat, "level": "basic", "version": version})
        state = await client.receive_until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
        version = state["version"]
    await client.send({"action": "start_match", "version": version})
    followed = await _follow_hints(client, table.pk, hands=2)
    await client.close()

    hands = await _finished_hands(table.pk)
    assert len(hands) >= 2
    rows = []
    for hand in hands[:2]:
        analysis = await sync_to_async(service.hand_analyse)(hand_id=hand.pk)
        assert analysis.status == HandAnalysis.Status.DONE and analysis.seed == coach.hand_seed(hand.pk)
        assert (analysis.level, analysis.budget) == (coach_settings.GAMES_ANALYSIS_LEVEL, BUDGET)
        mine = await sync_to_async(list)(analysis.decisions.filter(seat=HUMAN))
        assert mine and {d.seat for d in await sync_to_async(list)(analysis.decisions.all())} == {HUMAN}
        # Every hinted play is the analysis's own suggestion, valued as the best: nothing lost.
        wrong = [(d.played, d.suggested, d.lost) for d in mine if d.lost or sorted(d.played) != sorted(d.suggested)]
        assert wrong == []
        assert analysis.seats[str(HUMAN)]["accuracy"] == 100.0 and analysis.seats[str(HUMAN)]["lost"] == 0
        rows += mine
    # The analysed decisions are exactly the hinted plays, in order (seq = the version they made).
    hinted = [(at, sorted(hint["cards"])) for at, _, hint in followed]
    assert [(d.seq - 1, sorted(d.played)) for d in rows] == hinted
    assert {d.kind for d in rows} >= {"lead", "follow"}
    assert "bury" in {d.kind for d in rows}  # the human declared first, dealt, and buried by Hint


# --- the same answer, position by position -------------------------------------------------


def _positions():
    """A bury and plays early, mid-hand and late of a few random hands: (game, seat)."""
    out = []
    for n in range(3):
        g = match.fresh_hand(f"coach-{n}", dealer=n, level="5")
        engine.apply(g, {"type": "deal", "upto": 100})
        engine.apply(g, {"type": "fix_trump"})
        out.append((g.copy(), g.turn))
        for stop in (3, 41, 70):
            game = random_game(f"coach-{n}-{stop}", stop_after=stop)
            if game.phase == "play":
                out.append((game, game.turn))
    return out


@pytest.mark.parametrize("level", ["expert", "strong"])
def test_the_analysis_suggests_what_hint_gave_and_counts_nothing_lost(level):
    for game, seat in _positions():
        question = coach.CoachQuestion(bots.observe(game, seat), level, BUDGET, coach.hand_seed(17))
        advice = coach.advise(question)
        action = {"type": "bury" if game.phase == "bury" else "play", "seat": seat, "cards": advice.cards}
        result = decisions.evaluate_decision(
            game, action, index=0, seq=1, seed=coach.hand_seed(17), level=level, budget=BUDGET
        )
        assert sorted(result.suggested) == sorted(advice.cards) and result.lost == 0
        assert result.played_points == result.suggested_points


def test_the_hint_never_depends_on_hidden_cards():
    """Other seats' cards (and the bury, to a non-dealer) dealt again: the same hint, facts, why."""
    checked = 0
    for index, (game, seat) in enumerate(_positions()):
        swapped = _swap_hidden(game, seat, random.Random(index))
        assert swapped.hands != game.hands
        questions = [coach.CoachQuestion(bots.observe(g, seat), "expert", BUDGET, "hand:5") for g in (game, swapped)]
        assert questions[0] == questions[1]
        first, second = (coach.advise(q) for q in questions)
        assert first == second
        with translation.override("en"):
            assert why.explain(first.facts) == why.explain(second.facts)
        checked += 1
    assert checked >= 9


@pytest.mark.django_db(transaction=True)
async def test_the_socket_asks_the_coach_only_what_the_seat_sees(players, coach_settings, monkeypatch):
    """The question the consumer sends to the thinkers is the seat's Observation, the
    analysis's level and budget, and the hand's public seed."""
    asked = []
    real = thinking.coach

    async def spy(question):
        asked.append(question)
        return await real(question)

    monkeypatch.setattr(thinking, "coach", spy)
    table, game = await _stored_position(players)
    client = await ws_client(f"/ws/table/{table.pk}/", players[game.turn])
    await client.receive()
    await client.send({"action": "hint"})
    hint = await client.receive_until(lambda m: m["type"] in ("hint", "error"))
    await client.send({"action": "hint"})  # the same version: the same answer, not thought again
    again = await client.receive_until(lambda m: m["type"] in ("hint", "error"))
    await client.close()
    assert hint == again and hint["version"] == table.version and len(asked) == 1
    (question,) = asked
    assert question.obs == bots.observe(game, game.turn)
    assert (question.level, question.budget) == (coach_settings.GAMES_ANALYSIS_LEVEL, BUDGET)
    assert question.seed == f"table:{table.pk}:{game.hand_no}"  # no hand record: the table's own
    assert hint["cards"] == coach.advise(question).cards
    assert engine.classify(game, game.turn, hint["cards"])["legal"]


@sync_to_async
def _stored_position(players, language=""):
    from tests.engine.test_engine_views import game_at

    table = make_table(players[0], players=players, rated=False)
    game = game_at("play")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING, state=game.to_json())
    if language:
        from accounts.models import Profile

        Profile.objects.update_or_create(user=players[game.turn], defaults={"language": language})
    return Table.objects.get(pk=table.pk), game


# --- Why? in both languages ----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_the_why_comes_with_the_hint_in_the_players_language(players, coach_settings):
    table, game = await _stored_position(players, language="zh-hans")
    client = await ws_client(f"/ws/table/{table.pk}/", players[game.turn])
    await client.receive()
    await client.send({"action": "hint"})
    hint = await client.receive_until(lambda m: m["type"] in ("hint", "error"))
    await client.close()
    assert hint["type"] == "hint" and _chinese(hint["why"])
    obs = bots.observe(game, game.turn)
    advice = coach.advise(coach.CoachQuestion(obs, coach_settings.GAMES_ANALYSIS_LEVEL, BUDGET, "x"))
    with translation.override("en"):
        english = why.explain(advice.facts)
    assert english.isascii() or "♠" in english or "♥" in english or "♦" in english or "♣" in english
    assert not _chinese(english)


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _every_kind_of_facts():
    """Facts covering every sentence `why.explain` can say."""
    base = {"cards": ["SA", "BJK"], "points": 10, "options": 3, "expected": 101.4, "margin": 3.2, "forced": False}
    base |= {"last_trick": False, "keeps_pairs": False, "trick_points": 15, "trump": False, "shape": "single"}
    yield base | {"kind": "lead", "forced": True}
    for shape, safe, trump, points in itertools.product(("single", "throw"), (True, False), (True, False), (0, 10)):
        yield base | {"kind": "lead", "shape": shape, "safe": safe, "trump": trump, "points": points}
    flags = itertools.product(("follow", "ruff", "discard"), (True, False), (True, False), (True, False), (0, 10))
    for kind, wins, ours, safe, points in flags:
        for trick_points, keeps in ((0, True), (0, False), (20, False)):
            yield base | {
                "kind": kind,
                "wins": wins,
                "ours": ours or wins,
                "safe": safe,
                "points": points,
                "trick_points": trick_points,
                "keeps_pairs": keeps,
            }
    for margin, last in ((None, False), (0.4, False), (7.0, False), (2.0, True)):
        yield base | {"kind": "follow", "wins": True, "ours": True, "safe": True, "margin": margin, "last_trick": last}
    for voids, trumps, pair, points in itertools.product(([], ["C"], ["C", "D"]), (0, 2), (True, False), (0, 25)):
        yield base | {"kind": "bury", "voids": voids, "trumps": trumps, "breaks_pair": pair, "points": points}


def test_every_why_reads_in_both_languages():
    seen = set()
    for facts in _every_kind_of_facts():
        with translation.override("en"):
            english = why.explain(facts)
        with translation.override("zh-hans"):
            chinese = why.explain(facts)
        assert english and not _chinese(english), english
        assert _chinese(chinese) and chinese != english, (english, chinese)
        assert "%(" not in english + chinese
        assert 1 <= english.count(". ") + 1 <= 2  # one or two sentences
        seen.add(english)
    assert len(seen) >= 25  # the sentences are built from the facts, not one canned text
