"""Sockets notice when their process loses the channel layer (Redis), and come back.

Group messages ("changed, version N") travel through Redis pub/sub. While Redis is away
they are lost (games/events.py drops them), and channels-redis reconnects on its own
without telling anyone, so a socket would show a stale table until the next change.
So each process, while it has sockets, sends one probe a second through its layer (a
PUBLISH to a group nobody joins); when that fails it closes all its sockets with 1000.
The pages reconnect (static/js/table.js backs off), their handshakes
are refused while Redis is still away, and once it answers every socket joins its groups
again and reads its fresh state from the database: nothing is lost, because the database
holds every accepted action and the clock reads it (docs/deployment.md).
"""

import asyncio
import contextlib
import logging
import weakref
from typing import TYPE_CHECKING, Any

from channels.layers import get_channel_layer

from games.events import LAYER_ERRORS

log = logging.getLogger(__name__)
PROBE_EVERY_S = 1.0
PROBE_TIMEOUT_S = 2.0
PROBE_GROUP = "layer-probe"
# The close code: the pages reconnect on it (and resync). Not 1012 ("service restart"):
# daphne sends no application close code but 1000 and 3000-4999, and turns any other into
# 1011; and the pages treat every 4xxx as final (docs/protocol.md).
RECONNECT = 1000


class LayerProbe:
    """The probe of one event loop's layer (games/web/rooms.py) and the sockets it closes
    when the layer is lost."""

    def __init__(self) -> None:
        self.sockets: weakref.WeakSet = weakref.WeakSet()
        self.task: asyncio.Task | None = None

    def watch(self, consumer) -> None:
        self.sockets.add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._probe())

    def forget(self, consumer) -> None:
        self.sockets.discard(consumer)

    async def _probe(self) -> None:
        while self.sockets:
            await asyncio.sleep(PROBE_EVERY_S)
            try:
                await asyncio.wait_for(
                    get_channel_layer().group_send(PROBE_GROUP, {"type": "layer.probe"}), PROBE_TIMEOUT_S
                )
            except (TimeoutError, *LAYER_ERRORS) as error:
                sockets = list(self.sockets)
                log.warning(
                    "channel layer unreachable: closing %d sockets so that they resync: %s", len(sockets), error
                )
                for consumer in sockets:
                    self.sockets.discard(consumer)
                    with contextlib.suppress(Exception):  # one already gone must not spare the rest
                        await consumer.close(code=RECONNECT)


class LayerGroups:
    """For consumers: join and leave the socket's groups; closed (RECONNECT) when the layer is lost."""

    if TYPE_CHECKING:  # what the consumer this is mixed into provides (channels ships no types)
        channel_layer: Any
        channel_name: str

    room: Any = None  # the table's room (games/web/room.py), for a table's socket that joined it

    async def join_groups(self, *groups: str, rooms: Any, table: int | None = None) -> bool:
        """Join `groups`, and the room of `table` among `rooms` (games/web/rooms.py: its room
        is the table group's one member in this process; `self.room` from then on); False
        (and none joined) when the layer is unreachable. The rooms' probe closes the socket
        when the layer is lost."""
        self._groups: list[str] = []
        self.room: Any = None
        self._probe = rooms.probe
        try:
            for group in groups:
                await self.channel_layer.group_add(group, self.channel_name)
                self._groups.append(group)
            if table is not None:
                room = rooms.room(table)  # now: a room whose last socket left meanwhile is closed
                await room.join(self)
                self.room = room
        except LAYER_ERRORS as error:
            log.warning("channel layer unreachable, socket refused: %s", error)
            await self.leave_groups()
            return False
        self._probe.watch(self)
        return True

    async def leave_groups(self) -> None:
        if probe := getattr(self, "_probe", None):
            probe.forget(self)
        for group in getattr(self, "_groups", ()):
            with contextlib.suppress(*LAYER_ERRORS):  # Redis away: its subscriptions went with it
                await self.channel_layer.group_discard(group, self.channel_name)
        self._groups = []
        room, self.room = getattr(self, "room", None), None
        if room is not None:
            await room.leave(self)
