"""A "changed" push is rendered from the process's memory of the table and does not wait
for the process's one database thread (games/web/socket_dispatch.py, games/runtime/table_cache.py):
at 100 busy tables that thread's queue of writes delayed every push."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.db import connections

from games.runtime import writer
from tests.conftest import make_table, ws_client

pytestmark = pytest.mark.django_db(transaction=True)


async def test_a_change_reaches_the_socket_while_the_database_thread_is_busy(players):
    table = await sync_to_async(make_table)(players[0], players=players[:3])
    client = await ws_client(f"/ws/table/{table.pk}/", players[0])
    first = await client.receive()
    assert first["type"] == "state"

    released = threading.Event()
    busy = database_sync_to_async(lambda: released.wait(10))()  # holds the database thread
    busy_task = asyncio.ensure_future(busy)

    def seat_the_fourth():
        try:
            writer.table_act(
                table_id=table.pk, action={"type": "sit", "seat": 3}, expected_version=first["version"], user=players[3]
            )
        finally:
            connections.close_all()  # this thread's own: else it still holds the test database at the end

    try:
        # Another thread (as another process would) seats the fourth player.
        await sync_to_async(seat_the_fourth, thread_sensitive=False)()
        pushed = await client.receive(timeout=5)
        assert not released.is_set() and not busy_task.done()  # it came while the thread was held
    finally:
        released.set()
        await busy_task
    assert pushed["type"] == "state" and pushed["version"] == first["version"] + 1
    assert "west" in pushed["html"]["players"]  # the new player's seat, rendered from memory
    await client.close()
