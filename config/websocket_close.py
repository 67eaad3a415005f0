"""Websocket failures answered with a close frame, not a dropped connection.

Daphne's websocket layer (autobahn) fails a connection whose message or frame is over
daphne's size limit (1 MiB) by dropping the TCP connection: the client sees 1006 and
cannot tell abuse from a network fault. With autobahn's `failByDrop` off, it sends the
close frame 1009 ("message too big") first. Daphne offers no option for it, so its
factory is replaced before the server starts (config/asgi.py imports this module, and
both `daphne` and `runserver` import the application before they build their factory).
Messages under the limit but over a socket's own (4 KB) get a `too_large` error reply
(games/web/socket_input.py).
"""

import daphne.server
from daphne.ws_protocol import WebSocketFactory


class ClosingWebSocketFactory(WebSocketFactory):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.setProtocolOptions(failByDrop=False)


def install() -> None:
    daphne.server.WebSocketFactory = ClosingWebSocketFactory
