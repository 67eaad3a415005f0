"""Tables nobody visits end by themselves (games/runtime/lifecycle.py); a person's socket
keeps its table open."""

import os
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import Client
from django.utils import timezone

from games.engine import Refusal
from games.models import Match, Seat, Table
from games.runtime import lifecycle, writer
from games.runtime.commands import Issuer
from tests import servers
from tests.conftest import make_table, make_user, ws_client

pytestmark = pytest.mark.django_db(transaction=True)
HOURS_AGO = timezone.timedelta(hours=2)


def started(owner, seats):
    table = make_table(owner, players=seats, turn_limit_s=30)
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=owner)
    return Table.objects.get(pk=table.pk)


def seen(table, when):
    Table.objects.filter(pk=table.pk).update(people_seen_at=when)


def test_an_hour_without_anyone_closes_a_table_and_its_match_is_kept_as_abandoned(players):
    north = players[0]
    table = started(north, players)
    seen(table, timezone.now() - HOURS_AGO)
    assert lifecycle.abandon_idle() == [table.pk]
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED and table.closed_reason == "abandoned"
    match = Match.objects.get(table=table)
    assert match.aborted and match.abort_reason == "abandoned" and match.finished_at is not None
    assert table.events.order_by("-seq").first().action == {"type": "abandon"}
    client = Client()
    client.force_login(north)
    assert f'data-table="{table.pk}"' not in client.get("/").content.decode()  # out of the lobby
    assert lifecycle.abandon_idle() == []  # nothing more to do


def test_tables_with_someone_recently_and_bot_only_tables_stay(players):
    north = players[0]
    recent = started(north, players)
    seen(recent, timezone.now() - timedelta(minutes=59))
    bots_only = make_table(north, players=[None] * 4, allow_bots=True)
    Seat.objects.filter(table=bots_only).update(bot=Seat.Bot.BASIC)
    writer.table_act(table_id=bots_only.pk, action={"type": "start_match"}, expected_version=None, user=north)
    seen(bots_only, timezone.now() - HOURS_AGO)
    assert lifecycle.abandon_idle() == []
    assert set(Table.objects.values_list("status", flat=True)) == {Table.Status.PLAYING}


def test_only_the_system_abandons_and_only_an_idle_table(players):
    north = players[0]
    table = started(north, players)
    with pytest.raises(Refusal) as refused:
        writer.table_act(table_id=table.pk, action={"type": "abandon"}, expected_version=None, user=north)
    assert refused.value.code == "not_allowed"
    seen(table, timezone.now())
    with pytest.raises(Refusal) as refused:
        writer.table_act(table_id=table.pk, action={"type": "abandon"}, expected_version=None, issuer=Issuer.SYSTEM)
    assert refused.value.code == "not_abandoned"
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


async def test_a_persons_socket_marks_the_table_as_visited(players):
    north = players[0]
    table = await sync_to_async(make_table)(north, players=[north])
    await sync_to_async(seen)(table, timezone.now() - HOURS_AGO)
    client = await ws_client(f"/ws/table/{table.pk}/", north)
    stamp = await sync_to_async(lambda: Table.objects.get(pk=table.pk).people_seen_at)()
    assert stamp > timezone.now() - timedelta(minutes=1)
    assert await sync_to_async(lifecycle.abandon_idle)() == []
    await client.close()
    watcher = await sync_to_async(make_user)("watcher")
    await sync_to_async(seen)(table, timezone.now() - HOURS_AGO)
    client = await ws_client(f"/ws/table/{table.pk}/", watcher)  # a spectator is a person too
    assert await sync_to_async(lifecycle.abandon_idle)() == []
    await client.close()


def test_the_analysis_worker_closes_an_idle_table_with_no_socket_ever_connected(players):
    """The sweep's own loop, in the process every deployment starts (`manage.py
    analysis_worker`), not abandon_idle() called by hand: after a restart nobody need open
    a table (or any socket) for its idle tables to go."""
    if connection.vendor != "postgresql":
        pytest.skip("the worker process reaches the test database by DATABASE_URL (PostgreSQL)")
    table = started(players[0], players)
    seen(table, timezone.now())  # a person was here just now: idle only once 2 s have passed
    env = {**os.environ, "DATABASE_URL": servers.test_database_url(), "DEBUG": "1", "GAMES_ABANDON_AFTER_S": "2"}
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "analysis_worker", "--verbosity", "0"],
        cwd=servers.ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while Table.objects.get(pk=table.pk).status != Table.Status.CLOSED:
            assert worker.poll() is None, worker.stdout.read().decode()[-3000:] if worker.stdout else ""
            assert time.monotonic() < deadline, "the worker did not close the idle table"
            time.sleep(0.2)
    finally:
        worker.kill()
        worker.wait(10)
    table.refresh_from_db()
    assert table.closed_reason == "abandoned"
    assert table.events.order_by("-seq").first().action == {"type": "abandon"}  # the write path's log
    match = Match.objects.get(table=table)
    assert match.aborted and match.abort_reason == "abandoned"
