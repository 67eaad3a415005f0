"""The write path (games/runtime/writer.py): a command acted on the version the table's actor
holds is applied to it and stored by one statement that writes only while the table is still
at that version; a refused or stale action writes nothing. Through the actor
(games/runtime/actor.py): one command at a time, an engine step stored from the event loop,
and the written table held."""

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, events
from games.engine import Refusal
from games.models import Seat, Table, TableEvent
from games.runtime import runner, table_rows, table_state, writer
from games.runtime.actor import TableActor
from games.web import rooms
from tests.conftest import make_table
from tests.table_driver import drive

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(players, fast_clock, django_capture_on_commit_callbacks):
    """A table of four people in the play phase, as its actor would hold it."""
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    with django_capture_on_commit_callbacks(execute=True):
        writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
        drive(table.pk, players, lambda game: game.phase == "play")
    return table_state.read(table.pk)


def _play(loaded, players, **arguments):
    seat = loaded.game.turn
    cards = engine.sample_play(loaded.game, seat, random.Random(1))
    return writer.table_act(
        table_id=loaded.table.pk,
        action={"type": "play", "cards": cards},
        expected_version=loaded.version,
        user=players[seat],
        **{"held": loaded, **arguments},
    )


def _statements(queries) -> list[str]:
    """What reached the database, less the savepoints of the test's own transaction."""
    return [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]


def test_a_play_on_the_held_version_is_one_statement(playing, players, django_capture_on_commit_callbacks):
    playing = _play(playing, players).table  # as an actor holds it: what it wrote last, its hand known
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        outcome = _play(playing, players)
    # PostgreSQL: the log and the row in one compare-and-set; SQLite: two, in one transaction.
    assert len(_statements(queries)) == (1 if connection.vendor == "postgresql" else 2)
    stored = Table.objects.get(pk=playing.table.pk)
    assert outcome.version == stored.version == playing.version + 1
    logged = TableEvent.objects.get(table=stored, seq=stored.version)
    assert logged.action["type"] == "play" and logged.source == "player" and logged.hand_id is not None
    assert logged.actor_id == players[playing.game.turn].pk and logged.events == outcome.events
    assert logged.created_at == stored.updated_at
    assert outcome.table.version == stored.version
    assert outcome.table.game.to_json() == engine.Game.from_json(stored.state).to_json()


def test_a_held_version_another_process_moved_on_is_refused_and_writes_nothing(playing, players):
    # Another process plays first; this one still holds the version before.
    moved_on = _play(playing, players, held=None).version
    logged = TableEvent.objects.filter(table=playing.table).count()

    with pytest.raises(Refusal) as refused:
        _play(playing, players)  # legal at the held version, but the table is elsewhere now
    assert refused.value.code == "stale_version" and refused.value.params["current"] == moved_on
    assert TableEvent.objects.filter(table=playing.table).count() == logged
    assert Table.objects.get(pk=playing.table.pk).version == moved_on


def test_an_action_on_an_older_version_than_held_is_refused_without_the_database(playing, players):
    with CaptureQueriesContext(connection) as queries, pytest.raises(Refusal) as refused:
        writer.table_act(
            table_id=playing.table.pk,
            action={"type": "play", "cards": []},
            expected_version=playing.version - 1,
            user=players[0],
            held=playing,
        )
    assert refused.value.code == "stale_version" and refused.value.params["current"] == playing.version
    assert len(queries) == 0


def test_a_step_that_writes_other_rows_writes_them_with_the_table(playing, players, django_capture_on_commit_callbacks):
    seat = playing.game.turn
    Seat.objects.filter(table=playing.table, position=seat).update(autoplay=True)  # timed out earlier
    held = table_state.read(playing.table.pk)
    # The player is back: the handler clears the seat's autoplay, a write of its own.
    with django_capture_on_commit_callbacks(execute=True):
        outcome = _play(held, players)
    assert not Seat.objects.get(table=playing.table, position=seat).autoplay
    assert outcome.version == Table.objects.get(pk=playing.table.pk).version == held.version + 1
    assert not outcome.table.seats[seat].autoplay
    assert held.seats[seat].autoplay  # the entry it acted on is untouched


def test_what_a_command_wrote_beside_a_table_that_moved_on_is_rolled_back(playing, players):
    seat = playing.game.turn
    Seat.objects.filter(table=playing.table, position=seat).update(autoplay=True)
    held = table_state.read(playing.table.pk)
    _play(held, players, held=None)  # another process plays first (this one still holds `held`)
    Seat.objects.filter(table=playing.table, position=seat).update(autoplay=True)  # timed out again
    logged = TableEvent.objects.filter(table=playing.table).count()

    with pytest.raises(Refusal) as refused:
        _play(held, players)  # clears autoplay, then finds the table moved on
    assert refused.value.code == "stale_version"
    assert Seat.objects.get(table=playing.table, position=seat).autoplay  # rolled back with the rest
    assert TableEvent.objects.filter(table=playing.table).count() == logged


def test_a_refusal_on_the_held_version_writes_nothing(playing, players):
    seat = playing.game.turn
    with CaptureQueriesContext(connection) as queries, pytest.raises(Refusal) as refused:
        writer.table_act(
            table_id=playing.table.pk,
            action={"type": "play", "cards": ["SA", "SA", "SA"]},
            expected_version=playing.version,
            user=players[seat],
            held=playing,
        )
    assert refused.value.code != "stale_version"
    assert _statements(queries) == []
    assert Table.objects.get(pk=playing.table.pk).version == playing.version


def test_a_command_without_a_version_is_judged_again_when_the_table_moves_meanwhile(players, monkeypatch):
    table = make_table(players[0])
    read = table_state.read
    raced = []

    def read_then_the_owner_acts_elsewhere(table_id):
        loaded = read(table_id)
        if not raced:  # between this load and its save, another process seats a bot
            raced.append(None)
            raced[0] = writer.table_act(
                table_id=table_id, action={"type": "add_bot", "seat": 2}, expected_version=None, user=players[0]
            )
        return loaded

    monkeypatch.setattr(table_state, "read", read_then_the_owner_acts_elsewhere)
    outcome = writer.table_act(
        table_id=table.pk, action={"type": "sit", "seat": 1}, expected_version=None, user=players[1]
    )
    assert outcome.version == raced[0].version + 1
    seats = Seat.objects.filter(table=table).order_by("position")
    assert seats[1].user_id == players[1].pk and seats[2].bot
    assert list(TableEvent.objects.filter(table=table).values_list("seq", "action__type")) == [
        (1, "add_bot"),
        (2, "sit"),
    ]


# --- through the table's actor (sockets and the clock) -----------------------------------


def _playing_now(players):
    """`playing`, for a transactional test (every write committed)."""
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    drive(table.pk, players, lambda game: game.phase == "play")
    return table_state.read(table.pk)


async def _actor(held):
    """An actor as a server's: storing from the loop, on the connections of the loop's rooms."""
    actor = TableActor(held.table.pk, turns=runner.BotTurns(), connections=rooms.here().connections)
    actor.keep(held)
    return actor


async def _play_through(actor, players):
    held = actor.held
    seat = held.game.turn
    cards = engine.sample_play(held.game, seat, random.Random(1))
    return await actor.act(action={"type": "play", "cards": cards}, expected_version=held.version, user=players[seat])


def _logged(table_id):
    return list(TableEvent.objects.filter(table_id=table_id).order_by("seq").values_list("seq", flat=True))


@pytest.mark.django_db(transaction=True)
async def test_an_actor_stores_its_command_holds_it_and_then_tells_the_group(players, fast_clock):
    held = await sync_to_async(_playing_now)(players)
    actor = await _actor(held)
    layer = events.get_channel_layer()
    other_process = await layer.new_channel()
    await layer.group_add(actor.group, other_process)
    outcome = await _play_through(actor, players)
    stored = await sync_to_async(Table.objects.get)(pk=held.table.pk)
    assert outcome.version == stored.version == held.version + 1 == actor.version
    assert (await sync_to_async(_logged)(stored.pk))[-1] == stored.version
    assert actor.held is outcome.table
    assert actor.held.game.to_json() == engine.Game.from_json(stored.state).to_json()
    told = await asyncio.wait_for(layer.receive(other_process), timeout=5)
    assert told["type"] == "table.changed" and told["version"] == stored.version
    await layer.group_discard(actor.group, other_process)


@pytest.mark.django_db(transaction=True)
async def test_an_actors_commands_are_written_one_at_a_time(players, fast_clock, monkeypatch):
    held = await sync_to_async(_playing_now)(players)
    actor = await _actor(held)
    stored = []

    def counted(store):
        def store_counted(*arguments):
            stored.append(arguments[-2])  # the version it writes at
            return store(*arguments)

        return store_counted

    monkeypatch.setattr(table_rows, "store_if_at", counted(table_rows.store_if_at))
    monkeypatch.setattr(table_rows.LoopConnections, "store_if_at", counted(table_rows.LoopConnections.store_if_at))
    # The same play sent twice at once (a double click): the first is written, the second finds
    # the actor holding the newer version and is refused without reaching the database.
    results = await asyncio.gather(_play_through(actor, players), _play_through(actor, players), return_exceptions=True)
    written = [r for r in results if isinstance(r, writer.Outcome)]
    refused = [r.code for r in results if isinstance(r, Refusal)]
    assert len(written) == 1 and refused == ["stale_version"]
    assert stored == [held.version]  # the second never reached the database
    assert await sync_to_async(_logged)(held.table.pk) == list(range(1, written[0].version + 1))


@pytest.mark.django_db(transaction=True)
async def test_an_engine_step_on_the_held_version_is_stored_from_the_event_loop(players, fast_clock, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("on SQLite every write goes through the database thread")
    actor = await _actor(await sync_to_async(_playing_now)(players))
    await _play_through(actor, players)  # the hand's rows, as its first write read them, held from now on

    def no_database_thread(**_arguments):
        raise AssertionError("an engine step on the held version went to the database thread")

    monkeypatch.setattr(writer, "table_act", no_database_thread)
    for _ in range(8):  # more than the loop's pool has connections
        outcome = await _play_through(actor, players)
    assert await sync_to_async(_logged)(actor.table_id) == list(range(1, outcome.version + 1))


@pytest.mark.django_db(transaction=True)
async def test_a_step_that_writes_other_rows_goes_through_the_actor_too(players, fast_clock):
    held = await sync_to_async(_playing_now)(players)
    seat = held.game.turn

    def timed_out_earlier():
        Seat.objects.filter(table=held.table, position=seat).update(autoplay=True)
        return table_state.read(held.table.pk)

    actor = await _actor(await sync_to_async(timed_out_earlier)())
    outcome = await _play_through(actor, players)  # the player is back: autoplay cleared, and the play
    stored = await sync_to_async(Seat.objects.get)(table=held.table, position=seat)
    assert not stored.autoplay and not actor.held.seats[seat].autoplay and outcome.version == held.version + 1
    assert await sync_to_async(_logged)(held.table.pk) == list(range(1, outcome.version + 1))


@pytest.mark.django_db(transaction=True)
async def test_connections_the_server_ended_do_not_fail_an_action(players, fast_clock):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's connections come from a pool")
    actor = await _actor(await sync_to_async(_playing_now)(players))
    await _play_through(actor, players)  # read the hand's rows: the next is stored from the loop
    first = await _play_through(actor, players)
    pool = [opened.info.backend_pid for opened in actor.connections.opened]
    assert pool, "the action was written through the loop's pool"

    def cut():  # the server ends the pool's connections (a restart, a proxy timing them out)
        with connection.cursor() as cursor:  # only those: the process's other sessions live on
            cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [pool])
            return [ended for (ended,) in cursor.fetchall()]

    assert await sync_to_async(cut)() == [True] * len(pool)
    outcome = await _play_through(actor, players)
    assert outcome.version == first.version + 1
    assert await sync_to_async(_logged)(actor.table_id) == list(range(1, outcome.version + 1))  # each step once


@pytest.mark.django_db(transaction=True)
async def test_a_table_moved_on_elsewhere_is_refused_through_the_actor_and_writes_nothing(players, fast_clock):
    held = await sync_to_async(_playing_now)(players)
    actor = await _actor(held)
    moved_on = (await sync_to_async(_play)(held, players, held=None)).version  # another process plays first
    logged = await sync_to_async(_logged)(held.table.pk)
    with pytest.raises(Refusal) as refused:
        await _play_through(actor, players)
    assert refused.value.code == "stale_version" and refused.value.params["current"] == moved_on
    assert await sync_to_async(_logged)(held.table.pk) == logged


def test_rows_another_writer_stored_first_make_the_action_stale_not_an_error(players, fast_clock):
    """Two processes' clocks bury for the same table at once: the second one's Bury row meets
    the first's (one per hand) before its compare-and-set could find the table moved on."""
    from games.models import Bury

    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    drive(table.pk, players, lambda game: game.phase == "bury")
    held = table_state.read(table.pk)
    dealer = held.game.dealer
    bury = {"type": "bury", "cards": engine.view(held.game, dealer)["hand"][-8:]}
    writer.table_act(table_id=table.pk, action=bury, expected_version=held.version, user=players[dealer])
    # This process did not hear of the other's bury: it acts on the version it holds.
    logged = TableEvent.objects.filter(table=table).count()

    with pytest.raises(Refusal) as refused:
        writer.table_act(table_id=table.pk, action=bury, expected_version=held.version, user=players[dealer], held=held)
    assert refused.value.code == "stale_version"
    assert Bury.objects.filter(hand__match__table=table).count() == 1
    assert TableEvent.objects.filter(table=table).count() == logged
