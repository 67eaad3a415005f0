"""Two adaptations of daphne's websockets, installed before the server starts (config/asgi.py
imports this module, and both `daphne` and `runserver` import the application before
they build their factory). Daphne offers no option for either, so its factory is replaced.

A close frame, not a dropped connection: daphne's websocket layer (autobahn) fails a
connection whose message or frame is over daphne's size limit (1 MiB) by dropping the TCP
connection: the client sees 1006 and cannot tell abuse from a network fault. With
autobahn's `failByDrop` off, it sends the close frame 1009 ("message too big") first.
Messages under the limit but over a socket's own (4 KB) get a `too_large` error reply
(games/web/socket_input.py).

Frames written at once: Twisted's transports buffer every write and send it on the next
turn of the reactor, once the socket has been reported writable: per frame, two epoll
registrations and a turn of the loop through Twisted's callbacks, and a table's every
push waits for that turn. An idle socket almost always takes the whole frame at once, so
a frame with nothing queued before it is sent here; whatever the socket does not take
(a full send buffer, a lost connection) goes Twisted's usual way after it, in order
(docs/performance.md, ninth round).
"""

import daphne.server
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol


def send_now(transport, data: bytes) -> bytes:
    """Send what an idle TCP `transport` takes of `data` now; return the rest, for the
    transport's own buffered write (everything when it is busy, closing or not plain TCP)."""
    if (
        getattr(transport, "writeSomeData", None) is None
        or getattr(transport, "TLS", True)
        or not transport.connected
        or transport.disconnecting
        or getattr(transport, "_aborting", False)  # aborted: Twisted drops what is written
        # Twisted's buffer (its own names, Twisted pinned in pyproject.toml): anything
        # queued goes first, so this frame waits behind it.
        or transport._tempDataLen
        or transport.offset < len(transport.dataBuffer)
    ):
        return data
    sent = transport.writeSomeData(data)
    if not isinstance(sent, int):  # the connection is lost: Twisted's write path finds out and reports it
        return data
    return data[sent:]


class EagerWebSocketProtocol(WebSocketProtocol):
    def sendData(self, data, sync=False, chopsize=None):
        # A frame sent here skips autobahn's traffic statistics, which daphne never reads.
        if not (sync or chopsize or self.send_queue):
            data = send_now(self.transport, data)
            if not data:
                return
        super().sendData(data, sync, chopsize)


class AdaptedWebSocketFactory(WebSocketFactory):
    protocol = EagerWebSocketProtocol

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setProtocolOptions(failByDrop=False)


def install() -> None:
    daphne.server.WebSocketFactory = AdaptedWebSocketFactory
