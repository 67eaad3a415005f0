"""A socket's limits through a real server process (daphne), as a client meets them:
a flood is told why and closed with 4008, a message over daphne's 1 MiB limit gets the
close frame 1009, one under it but over the socket's own 4 KB a `too_large` reply — never
a dropped connection (1006) or a server error (1011)."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.conftest import make_table, session_cookie
from tests.servers import Server

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture
def server():
    running = Server().start()
    yield running
    running.kill()


async def open_socket(server, path, user):
    cookie = await sync_to_async(session_cookie)(user)
    return await connect(
        server.url(path),
        origin=f"http://127.0.0.1:{server.port}",
        additional_headers={"Cookie": cookie.decode()},
        open_timeout=10,
        max_size=None,
    )


async def replies_until_closed(socket, timeout=10.0) -> list[dict]:
    replies = []
    try:
        async with asyncio.timeout(timeout):
            async for raw in socket:
                replies.append(json.loads(raw))
    except ConnectionClosed:
        pass
    return replies


@pytest.mark.parametrize("path", ["/ws/table/{id}/", "/ws/table/{id}/chat/"])
async def test_a_flood_is_told_why_and_closed_with_4008(server, players, path):
    table = await sync_to_async(make_table)(players[0], players=players)
    socket = await open_socket(server, path.format(id=table.pk), players[1])
    await asyncio.gather(*(socket.send(json.dumps({"action": "classify", "cards": []})) for _ in range(100)))
    replies = await replies_until_closed(socket)
    assert socket.close_code == 4008
    assert [r.get("code") for r in replies].count("flooded") == 1


async def test_an_oversized_message_gets_a_close_frame_not_a_dropped_connection(server, players):
    table = await sync_to_async(make_table)(players[0], players=players)
    socket = await open_socket(server, f"/ws/table/{table.pk}/", players[1])
    await socket.send(json.dumps({"action": "classify", "pad": "x" * 65_536}))
    # The reply comes before the next message is sent: once daphne has read the header of
    # a frame over its limit it is closing, and autobahn drops whatever the app sends after.
    async with asyncio.timeout(10):
        while json.loads(await socket.recv()).get("code") != "too_large":
            pass
    await socket.send(json.dumps({"action": "classify", "pad": "x" * 2_000_000}))
    await replies_until_closed(socket)
    assert socket.close_code == 1009
