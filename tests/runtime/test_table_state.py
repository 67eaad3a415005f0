"""The table as its actor holds it (games/runtime/table_state.py, games/runtime/actor.py) and
the write path's SQL statements (games/runtime/table_rows.py): what the write path returns is
exactly what the database holds, a held version that another process has outdated is never
written back, and a refused action leaves the held table as it was."""

import time

import pytest
from asgiref.sync import sync_to_async

from games import engine
from games.engine import Refusal
from games.models import Seat, Table, TableEvent
from games.runtime import runner, table_state, writer
from games.runtime.actor import TableActor
from games.runtime.commands import Issuer
from tests.conftest import make_table

pytestmark = pytest.mark.django_db


def _start(table, owner, capture):
    with capture(execute=True):
        return writer.table_act(
            table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=owner
        ).table


def _fields(table):
    return {
        name: getattr(table, name)
        for name in ("status", "version", "state", "deal_started_at", "deadline", "updated_at", "closed_reason")
    }


def test_what_the_write_path_returns_is_what_the_database_holds(players, django_capture_on_commit_callbacks):
    table = make_table(players[0], players=players)
    held = _start(table, players[0], django_capture_on_commit_callbacks)
    stored = Table.objects.get(pk=table.pk)
    assert held.version == stored.version == 2  # start_match, then the first hand's start
    assert _fields(held.table) == _fields(stored)
    assert held.game.to_json() == engine.Game.from_json(stored.state).to_json()
    assert [(s.position, s.user_id, s.bot, s.autoplay) for s in held.seats] == [
        (s.position, s.user_id, s.bot, s.autoplay) for s in stored.seats.order_by("position")
    ]
    # The log rows written in SQL read back through the ORM like any other.
    events = list(TableEvent.objects.filter(table=table).order_by("seq"))
    assert [(e.seq, e.action["type"], e.source, e.actor_id) for e in events] == [
        (1, "start_match", "player", players[0].pk),
        (2, "start_hand", "player", players[0].pk),
    ]
    assert events[1].hand is not None and events[1].hand.first_seq == 2
    assert events[1].created_at == stored.updated_at


def test_a_held_table_outdated_by_another_process_is_never_written_back(
    players, fast_clock, django_capture_on_commit_callbacks
):
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    stale = _start(table, players[0], django_capture_on_commit_callbacks)
    time.sleep(0.15)  # the whole deal is out (1 ms a card)
    # Another process takes a declaration (this process's actor does not hear of it).
    game = stale.game.copy()
    engine.apply(game, {"type": "deal", "upto": 100})
    seat, cards = next((s, option) for s in range(4) for option in engine.view(game, s)["can_declare"])
    writer.table_act(
        table_id=table.pk,
        action={"type": "declare", "cards": cards},
        expected_version=stale.version,
        user=players[seat],
    )

    moved_on = Table.objects.get(pk=table.pk).version
    assert moved_on > stale.version
    with django_capture_on_commit_callbacks(execute=True):
        outcome = writer.table_act(  # this process still holds the version before it
            table_id=table.pk, action={"type": "fix_trump"}, expected_version=moved_on, issuer=Issuer.CLOCK, held=stale
        )
    fixed = engine.Game.from_json(Table.objects.get(pk=table.pk).state)
    assert fixed.dealer == seat  # RULES §3.5: the declaration was not lost; its maker deals
    assert outcome.table.game.to_json() == fixed.to_json()


def test_a_refused_action_leaves_the_held_table_untouched(players, django_capture_on_commit_callbacks):
    table = make_table(players[0], players=players, pace_ms=1, window_ms=60_000)
    _start(table, players[0], django_capture_on_commit_callbacks)
    Seat.objects.filter(table=table, position=1).update(autoplay=True)  # timed out earlier
    held = table_state.read(table.pk)
    before = (held.table.state, held.game.to_json(), [s.autoplay for s in held.seats])
    # The player is back (the write path clears autoplay first), then plays a card not in hand.
    with pytest.raises(Refusal):
        writer.table_act(
            table_id=table.pk,
            action={"type": "play", "cards": ["SA", "SA", "SA"]},
            expected_version=held.version,
            user=players[1],
            held=held,
        )
    assert (held.table.state, held.game.to_json(), [s.autoplay for s in held.seats]) == before
    assert Seat.objects.get(table=table, position=1).autoplay  # rolled back too


@pytest.mark.django_db(transaction=True)
async def test_an_actor_holds_the_newest_version_and_reads_only_a_newer_one(players):
    table = await sync_to_async(make_table)(players[0], players=players)
    actor = TableActor(table.pk, turns=runner.BotTurns(), connections=None)
    held = await actor.latest(None)  # nothing held: read
    assert held.version == table.version and actor.held is held
    older = table_state.from_rows(await sync_to_async(Table.objects.get)(pk=table.pk), list(held.seats))
    older.table.version -= 1
    actor.keep(older)
    assert await actor.latest(0) is held  # an older version never replaces a newer one
    # Another process moves the table on: the group tells the actor of the version, and the
    # next who needs it has it read.
    moved = await sync_to_async(writer.table_act)(
        table_id=table.pk, action={"type": "stand"}, expected_version=None, user=players[3], notify=False
    )
    await actor.on_version(moved.version)
    assert actor.held is held and actor.version == moved.version
    now = await actor.latest(actor.version)
    assert now.version == moved.version and now.seats[3].user_id is None and actor.held is now


def test_entering_uses_the_held_table_only_while_it_is_the_database_version(players):
    table = make_table(players[0], players=players)
    held = table_state.read(table.pk)
    assert table_state.at(table.pk, held.version, held) is held
    # Another process moves the table on.
    writer.table_act(table_id=table.pk, action={"type": "stand"}, expected_version=None, user=players[3])
    entered = table_state.at(table.pk, Table.objects.get(pk=table.pk).version, held)
    assert entered.version == held.version + 1 and entered.seats[3].user_id is None
    assert table_state.at(table.pk, None, held) is None  # the table is gone
