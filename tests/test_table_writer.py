"""The write path's two ways (games/runtime/writer.py): an engine command acted on the version
this process holds is applied from memory and stored by one statement that writes only while
the table is still at that version; anything else takes the row lock. Either way a refused
or stale action writes nothing."""

import random

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import engine
from games.engine import Refusal
from games.models import Seat, Table, TableEvent
from games.runtime import table_cache, table_rows, writer
from tests.conftest import make_table
from tests.table_driver import drive

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(players, fast_clock, django_capture_on_commit_callbacks):
    """A table of four people in the play phase, as this process remembers it."""
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    with django_capture_on_commit_callbacks(execute=True):
        writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
        drive(table.pk, players, lambda game: game.phase == "play")
    held = table_cache.cached(table.pk, Table.objects.get(pk=table.pk).version)
    assert held is not None
    return held


def _play(held, players, **arguments):
    seat = held.game.turn
    cards = engine.sample_play(held.game, seat, random.Random(1))
    return writer.table_act(
        table_id=held.table.pk,
        action={"type": "play", "cards": cards},
        expected_version=held.version,
        user=players[seat],
        **arguments,
    )


def test_a_play_on_the_held_version_is_one_statement(playing, players, django_capture_on_commit_callbacks):
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        outcome = _play(playing, players)
    statements = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    if connection.vendor == "postgresql":
        assert len(statements) == 1 and statements[0].startswith("WITH saved AS (UPDATE")
    else:  # the UPDATE that checks the version, then the log, in one transaction
        assert [s.split(" ", 1)[0] for s in statements] == ["UPDATE", "INSERT"]
    stored = Table.objects.get(pk=playing.table.pk)
    assert outcome.version == stored.version == playing.version + 1
    logged = TableEvent.objects.get(table=stored, seq=stored.version)
    assert logged.action["type"] == "play" and logged.source == "player" and logged.hand_id is not None
    assert logged.created_at == stored.updated_at
    remembered = table_cache.cached(stored.pk, stored.version)
    assert remembered.game.to_json() == engine.Game.from_json(stored.state).to_json()


def test_a_held_version_another_process_moved_on_is_refused_and_writes_nothing(playing, players):
    # Another process plays first; this process does not hear of it (no commit callbacks run).
    table_cache.forget_all()
    moved_on = _play(playing, players).version
    table_cache.remember(playing)  # ...and still holds the version before
    logged = TableEvent.objects.filter(table=playing.table).count()

    with pytest.raises(Refusal) as refused:
        _play(playing, players)  # legal at the held version, but the table is elsewhere now
    assert refused.value.code == "stale_version" and refused.value.params["current"] == moved_on
    assert TableEvent.objects.filter(table=playing.table).count() == logged
    assert Table.objects.get(pk=playing.table.pk).version == moved_on
    assert table_cache.cached(playing.table.pk, 0) is playing


def test_an_action_on_an_older_version_than_held_is_refused_without_the_database(playing, players):
    with CaptureQueriesContext(connection) as queries, pytest.raises(Refusal) as refused:
        writer.table_act(
            table_id=playing.table.pk,
            action={"type": "play", "cards": []},
            expected_version=playing.version - 1,
            user=players[0],
        )
    assert refused.value.code == "stale_version" and refused.value.params["current"] == playing.version
    assert len(queries) == 0


def test_a_step_that_writes_other_rows_takes_the_locked_path(playing, players, django_capture_on_commit_callbacks):
    seat = playing.game.turn
    Seat.objects.filter(table=playing.table, position=seat).update(autoplay=True)  # timed out earlier
    table_cache.forget_all()
    held = table_cache.read(playing.table.pk)
    # The player is back: the handler clears the seat's autoplay, a write of its own.
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        outcome = _play(held, players)
    statements = [q["sql"] for q in queries]
    assert any(s.startswith('SELECT version, status FROM "games_table"') for s in statements)  # the lock
    assert not any('AND "version" = ' in s for s in statements)  # no compare-and-set from memory
    assert not Seat.objects.get(table=playing.table, position=seat).autoplay
    assert outcome.version == Table.objects.get(pk=playing.table.pk).version == held.version + 1
    assert not table_cache.cached(playing.table.pk, outcome.version).seats[seat].autoplay
    assert held.seats[seat].autoplay  # the entry it acted on is untouched


def test_a_refusal_from_memory_writes_nothing_and_keeps_the_memory(playing, players):
    seat = playing.game.turn
    with CaptureQueriesContext(connection) as queries, pytest.raises(Refusal) as refused:
        writer.table_act(
            table_id=playing.table.pk,
            action={"type": "play", "cards": ["SA", "SA", "SA"]},
            expected_version=playing.version,
            user=players[seat],
        )
    assert refused.value.code != "stale_version"
    assert len(queries) == 0
    assert Table.objects.get(pk=playing.table.pk).version == playing.version
    assert table_cache.cached(playing.table.pk, 0) is playing


def test_no_statements_leaves_a_callers_transaction_usable(players):
    table = make_table(players[0])
    with transaction.atomic():
        with pytest.raises(table_rows.NeedsDatabase), table_rows.no_statements():
            Table.objects.filter(pk=table.pk).update(name="renamed")
        # Nothing reached the database, and the transaction goes on.
        assert Table.objects.get(pk=table.pk).name != "renamed"


# --- from the event loop (sockets and the clock) --------------------------------------------


def _playing_now(players):
    """`playing`, for a transactional test (every write committed, so remembered at once)."""
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    drive(table.pk, players, lambda game: game.phase == "play")
    return table_cache.cached(table.pk, Table.objects.get(pk=table.pk).version)


async def _play_async(held, players):
    seat = held.game.turn
    cards = engine.sample_play(held.game, seat, random.Random(1))
    return await writer.table_act_async(
        table_id=held.table.pk,
        action={"type": "play", "cards": cards},
        expected_version=held.version,
        user=players[seat],
    )


def _logged(table_id):
    return list(TableEvent.objects.filter(table_id=table_id).order_by("seq").values_list("seq", flat=True))


@pytest.mark.django_db(transaction=True)
async def test_an_action_from_memory_is_stored_on_the_event_loops_own_connection(players, fast_clock):
    held = await sync_to_async(_playing_now)(players)
    outcome = await _play_async(held, players)
    stored = await sync_to_async(Table.objects.get)(pk=held.table.pk)
    assert outcome.version == stored.version == held.version + 1
    assert (await sync_to_async(_logged)(stored.pk))[-1] == stored.version
    assert table_cache.cached(stored.pk, stored.version).game.to_json() == engine.Game.from_json(stored.state).to_json()
    if connection.vendor == "postgresql":  # elsewhere the database thread writes everything
        loop_connection = await table_rows._LoopConnections.of_running_loop().for_table(stored.pk)
        assert loop_connection is not None and not loop_connection.closed


@pytest.mark.django_db(transaction=True)
async def test_a_failed_loop_connection_hands_the_action_to_the_database_thread(players, fast_clock):
    if connection.vendor != "postgresql":
        pytest.skip("the event loop has connections of its own on PostgreSQL only")
    held = await sync_to_async(_playing_now)(players)
    first = await _play_async(held, players)  # opens the loop's connection for this table
    loop_connection = await table_rows._LoopConnections.of_running_loop().for_table(held.table.pk)

    def cut():  # the server ends that connection (a restart, a proxy timing it out)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [loop_connection.info.backend_pid])

    await sync_to_async(cut)()
    after = table_cache.cached(held.table.pk, first.version)
    outcome = await _play_async(after, players)
    assert outcome.version == first.version + 1
    assert await sync_to_async(_logged)(held.table.pk) == list(range(1, outcome.version + 1))  # each step once
    assert loop_connection.closed  # and the next action from memory opens a new one
    again = await _play_async(table_cache.cached(held.table.pk, outcome.version), players)
    assert again.version == outcome.version + 1
    assert not (await table_rows._LoopConnections.of_running_loop().for_table(held.table.pk)).closed


@pytest.mark.django_db(transaction=True)
async def test_a_table_moved_on_elsewhere_is_refused_from_the_loop_and_writes_nothing(players, fast_clock):
    held = await sync_to_async(_playing_now)(players)

    def another_process_plays():
        table_cache.forget_all()
        version = _play(held, players).version
        table_cache.forget_all()
        table_cache.remember(held)  # this process still holds the version before
        return version

    moved_on = await sync_to_async(another_process_plays)()
    logged = await sync_to_async(_logged)(held.table.pk)
    with pytest.raises(Refusal) as refused:
        await _play_async(held, players)
    assert refused.value.code == "stale_version" and refused.value.params["current"] == moved_on
    assert await sync_to_async(_logged)(held.table.pk) == logged
