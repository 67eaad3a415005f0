"""Who watches and who is online (games/runtime/presence.py): one heartbeat per process keeps
all of its sockets fresh together, and a socket that left is no longer refreshed."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Spectator
from games.runtime import presence
from tests.conftest import make_table

LONG_AGO = timedelta(minutes=5)


def _watchers(table, users, seen_at):
    for i, user in enumerate(users):
        Spectator.objects.create(channel_name=f"socket-{i}", table=table, user=user)
    Spectator.objects.update(seen_at=seen_at)


def _seen():
    return dict(Spectator.objects.values_list("channel_name", "seen_at"))


@pytest.mark.django_db
def test_one_statement_refreshes_every_watching_socket_of_the_process(players):
    table = make_table(players[0])
    long_ago = timezone.now() - LONG_AGO
    _watchers(table, players[:3], long_ago)
    heartbeat = presence.Heartbeat()
    heartbeat.watching.update({"socket-0", "socket-1"})  # (kept without its task: this test has no event loop)
    with CaptureQueriesContext(connection) as queries:
        heartbeat.refresh_here()
    assert len(queries) == 1
    seen = _seen()
    assert seen["socket-0"] > long_ago and seen["socket-1"] > long_ago
    assert seen["socket-2"] == long_ago  # another process's socket: not ours to refresh


@pytest.mark.django_db(transaction=True)
async def test_the_process_task_keeps_its_sockets_fresh_until_they_leave(players, monkeypatch):
    monkeypatch.setattr(presence, "HEARTBEAT", timedelta(seconds=0.05))
    table = await sync_to_async(make_table)(players[0])
    long_ago = timezone.now() - LONG_AGO
    await sync_to_async(_watchers)(table, players[:2], long_ago)
    heartbeat = presence.Heartbeat()
    heartbeat.keep_watching("socket-0", True)
    heartbeat.keep_watching("socket-1", True)
    heartbeat.keep_online(channel_name="socket-0", user_id=players[0].pk, table_id=table.pk)
    heartbeat.keep_online(channel_name="lobby-0", user_id=players[1].pk, table_id=None)
    await asyncio.sleep(0.3)
    seen = await sync_to_async(_seen)()
    assert seen["socket-0"] > long_ago and seen["socket-1"] > long_ago
    online = await sync_to_async(presence.where_online)([players[0].pk, players[1].pk, players[2].pk])
    assert online == {players[0].pk: table.pk, players[1].pk: None}

    heartbeat.keep_watching("socket-1", False)  # it left
    await sync_to_async(Spectator.objects.update)(seen_at=long_ago)
    await asyncio.sleep(0.3)
    seen = await sync_to_async(_seen)()
    assert seen["socket-0"] > long_ago and seen["socket-1"] == long_ago
