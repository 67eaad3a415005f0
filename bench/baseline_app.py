"""The side-by-side baseline of `bench/live.py --baseline`: a minimal Channels application
written the usual way, served by its own daphne process like the real one.

    python -m daphne bench.baseline_app:application

A room is a group of sockets (`/ws/room/<id>/`). While a room has sockets, the process
makes one update per `GAMES_BOT_DELAY_MS` after the previous one (the pace of the real
site's bots, which also move on the server without a client message): one database
write (an ORM `create` in `database_sync_to_async`, autocommit) and one `group_send`;
every socket of the room sends the update on to its client as JSON. Nothing else: no
game, no rendering, no per-seat view. Its CPU per update is what the stack itself costs
(Django, Channels, channels-redis, daphne, PostgreSQL's driver), the yardstick the
project's CPU per action is divided by (docs/performance.md).

The table it writes is created by the bench (`bench_baseline_update`), not by a
migration: the model is unmanaged and lives only in this process.
"""

import asyncio
import json
import os
import time

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.db import models  # noqa: E402
from django.urls import path  # noqa: E402

TABLE = "bench_baseline_update"
DELAY_S = int(os.environ.get("GAMES_BOT_DELAY_MS", "1000")) / 1000


class BaselineUpdate(models.Model):
    room = models.IntegerField()
    n = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "games"  # a registered app is needed; unmanaged, so no migration knows it
        db_table = TABLE
        managed = False

    def __str__(self) -> str:
        return f"room {self.room} update {self.n}"


_sockets: dict[int, int] = {}
_tickers: dict[int, asyncio.Task] = {}


def _write(room: int, n: int) -> None:
    BaselineUpdate.objects.create(room=room, n=n)


async def _tick(room: int) -> None:
    """One update per DELAY_S while the room has sockets: a write, then a group send."""
    from channels.layers import get_channel_layer

    layer, n = get_channel_layer(), 0
    while _sockets.get(room, 0) > 0:
        await asyncio.sleep(DELAY_S)
        n += 1
        await database_sync_to_async(_write)(room, n)
        await layer.group_send(f"room-{room}", {"type": "room.update", "room": room, "n": n, "at": time.time()})
    _tickers.pop(room, None)


class RoomConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.room = int(self.scope["url_route"]["kwargs"]["room"])
        await self.channel_layer.group_add(f"room-{self.room}", self.channel_name)
        await self.accept()
        await self.send(text_data=json.dumps({"type": "hello", "room": self.room}))
        _sockets[self.room] = _sockets.get(self.room, 0) + 1
        if self.room not in _tickers:
            _tickers[self.room] = asyncio.create_task(_tick(self.room))

    async def disconnect(self, code):
        _sockets[self.room] = _sockets.get(self.room, 1) - 1
        await self.channel_layer.group_discard(f"room-{self.room}", self.channel_name)

    async def room_update(self, event):
        await self.send(text_data=json.dumps({"type": "update", "n": event["n"], "at": event["at"]}))


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter([path("ws/room/<int:room>/", RoomConsumer.as_asgi())]))
        ),
    }
)
