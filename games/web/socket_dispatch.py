"""How this site's sockets hand a message to its handler.

Channels' `AsyncConsumer.dispatch` first runs `close_old_connections` on the process's one
database thread, for every message of every socket. These sockets reach the database only
through `database_sync_to_async`, which closes old connections around each call already.
Skipping that trip lowers the server's CPU per action and keeps pushes from queuing behind
the database thread's writes (bench/RESULTS.md).

A push can also meet a socket whose client has just hung up: daphne (autobahn underneath)
raises `Disconnected` from `send`, before the consumer has read the disconnect that is on
its way. That push has nobody to go to, so it is dropped, not logged as a crash of the
socket (the soak counts tracebacks as errors: bench/soak.py).
"""

import contextlib

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name


class DirectDispatch:
    async def dispatch(self, message):
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def send(self, *args, **kwargs):
        with contextlib.suppress(Disconnected):  # the client hung up; its disconnect follows
            await super().send(*args, **kwargs)  # type: ignore[misc]
