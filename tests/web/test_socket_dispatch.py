"""games/web/socket_dispatch.py, through Channels' own websocket consumer: a message reaches
its handler without waiting for the process's database thread, and a push to a client that
has just hung up is dropped (daphne raises autobahn's Disconnected from send before the
consumer has read the disconnect), while any other failure of a send still surfaces."""

import asyncio
import threading

import pytest
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games.web.socket_dispatch import DirectDispatch


class Echo(DirectDispatch, AsyncWebsocketConsumer):
    """A socket that forwards each `table.changed` message to its client."""

    def __init__(self, failure: Exception | None = None):
        super().__init__()
        self.failure = failure
        self.sent: list[dict] = []  # what reached the transport (daphne's send)
        self.base_send = self._transport

    async def _transport(self, message):
        self.sent.append(message)
        if self.failure is not None:
            raise self.failure

    async def table_changed(self, message):
        await self.send(text_data=message["text"])


PUSH = {"type": "table.changed", "text": "version 7"}


async def test_a_message_reaches_its_handler_while_the_database_thread_is_busy():
    holding, released = threading.Event(), threading.Event()

    def hold_the_database_thread():
        holding.set()
        released.wait(10)

    busy = asyncio.ensure_future(database_sync_to_async(hold_the_database_thread)())
    try:
        while not holding.is_set():
            await asyncio.sleep(0.01)
        socket = Echo()
        # Channels' own dispatch would first queue close_old_connections behind `busy`.
        await asyncio.wait_for(socket.dispatch(PUSH), timeout=2)
        assert socket.sent == [{"type": "websocket.send", "text": "version 7"}]
        assert not busy.done()
    finally:
        released.set()
        await busy


async def test_a_push_to_a_client_that_just_hung_up_is_dropped():
    socket = Echo(Disconnected("Attempt to send on a closed protocol"))
    await socket.dispatch(PUSH)  # no exception: nobody is there to receive it
    assert socket.sent == [{"type": "websocket.send", "text": "version 7"}]


async def test_any_other_failure_of_a_send_still_surfaces():
    with pytest.raises(ValueError, match="a bug"):
        await Echo(ValueError("a bug")).dispatch(PUSH)


async def test_a_message_without_a_handler_is_refused():
    with pytest.raises(ValueError, match=r"No handler for message type table\.gone"):
        await Echo().dispatch({"type": "table.gone"})
