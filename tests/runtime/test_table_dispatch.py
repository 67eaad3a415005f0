"""A change made through the table's room is written in its writer threads and pushed from the
table it holds: it does not wait for the process's one database thread
(games/web/socket_dispatch.py, games/runtime/actor.py):
at 100 busy tables that thread's queue of writes delayed every push."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import connection

from games.web import rooms
from tests.conftest import make_table, ws_client

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_change_reaches_the_socket_while_the_database_thread_is_busy(players):
    if connection.vendor != "postgresql":
        pytest.skip("on SQLite the tables' writes go through the database thread")
    table = await sync_to_async(make_table)(players[0], players=players[:3])
    client = await ws_client(f"/ws/table/{table.pk}/", players[0])
    first = await client.receive()
    assert first["type"] == "state"

    released = threading.Event()
    busy = database_sync_to_async(lambda: released.wait(10))()  # holds the database thread
    busy_task = asyncio.ensure_future(busy)

    try:
        # The fourth player sits down (from the lobby's socket, say: through the table's room).
        action = {"type": "sit", "seat": 3}
        await rooms.here().act(table.pk, action=action, expected_version=first["version"], user=players[3])
        pushed = await client.receive(timeout=5)
        assert not released.is_set() and not busy_task.done()  # it came while the thread was held
    finally:
        released.set()
        await busy_task
    assert pushed["type"] == "state" and pushed["version"] == first["version"] + 1
    assert "west" in pushed["html"]["players"]  # the new player's seat, rendered from the held table
    await client.close()
