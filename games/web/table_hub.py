"""One subscription to a table's group per process, shared by the table's sockets here.

A group message reaches each process once (channels-redis pub/sub), but Channels then
queues, wakes, decodes and dispatches it once per socket in the group: for a table's four
readers that is four tasks woken and four messages decoded for one "changed, version N"
(docs/performance.md, sixth round). Here the hub is the table group's only member in
this process: it hears each message once, pokes the table's clock once, and hands the
message to each of its sockets in turn (`hear`), which render their own view (spectators
share one render) and send it. Moderation notices of the table group travel the same way.
A change written by this process is handed out at once (games/events.py `listen_here`),
without waiting for Redis to bring it back; Redis's copy then arrives as old news.

A socket joins its table's hub with its other groups, before it reads its first state
(STYLE pitfall 2: `LayerGroups.join_groups(..., table=...)`, games/web/layer_watch.py);
the last socket to leave ends the subscription. When the channel layer is away, joining
fails as `group_add` would, and the socket is refused like any other.
"""

import asyncio
import contextlib
import logging

from channels.layers import get_channel_layer

from games import events
from games.events import LAYER_ERRORS
from games.runtime import runner

log = logging.getLogger(__name__)


class TableHub:
    def __init__(self, table_id: int):
        self.table_id = table_id
        self.group = events.table_group(table_id)
        self.loop = asyncio.get_running_loop()
        self.sockets: dict = {}  # consumer → None: in the order they joined
        self.channel: str | None = None
        self.started: asyncio.Task | None = self.loop.create_task(self._subscribe())
        self.listening: asyncio.Task | None = None
        self.handed_out = 0  # the newest version its sockets were told of

    async def _subscribe(self) -> None:
        layer = get_channel_layer()
        self.channel = await layer.new_channel()
        # Listening first: cancelling the listener is what unsubscribes the channel.
        self.listening = self.loop.create_task(self._listen(layer, self.channel))
        await layer.group_add(self.group, self.channel)
        events.listen_here(self.group, self.hand_out)

    async def _listen(self, layer, channel: str) -> None:
        while True:
            await self.hand_out(await layer.receive(channel))

    async def hand_out(self, message: dict) -> None:
        if message.get("type") == "table.changed":
            if message["version"] <= self.handed_out:  # heard already (written here, or older)
                return
            self.handed_out = message["version"]
            runner.poke(self.table_id, message["version"])
        for consumer in list(self.sockets):
            try:
                await consumer.hear(message)
            except Exception:  # one socket's failure must not keep the news from the others
                log.exception("table %s: delivering %s to a socket failed", self.table_id, message.get("type"))

    async def stop(self) -> None:
        # Let go of the tasks first: a cancelled task keeps its CancelledError, whose frames
        # hold this hub, so a hub still holding them would be cyclic garbage, left for a full
        # collection (tests/runtime/test_refusal_garbage.py).
        events.stop_listening_here(self.group, self.hand_out)
        started, listening, self.started, self.listening = self.started, self.listening, None, None
        if started is not None:
            started.cancel()
        if listening is not None:
            listening.cancel()  # the layer unsubscribes the hub's channel as it is cancelled
        if self.channel is not None:
            with contextlib.suppress(*LAYER_ERRORS):  # Redis away: its subscriptions went with it
                await get_channel_layer().group_discard(self.group, self.channel)


_hubs: dict[int, TableHub] = {}


async def join(table_id: int, consumer) -> None:
    """Deliver the table group's messages to `consumer` (its `hear`) from now on;
    raises the layer's error (and joins nothing) when the channel layer is unreachable."""
    hub = _hubs.get(table_id)
    if hub is None or hub.loop is not asyncio.get_running_loop():  # tests run many loops, a server one
        hub = _hubs[table_id] = TableHub(table_id)
    hub.sockets[consumer] = None
    assert hub.started is not None  # a hub is stopped only once nobody is in it (`leave`)
    try:
        await asyncio.shield(hub.started)  # shared by every socket that joins meanwhile
    except BaseException:
        await leave(table_id, consumer)
        raise


async def leave(table_id: int, consumer) -> None:
    hub = _hubs.get(table_id)
    if hub is None or consumer not in hub.sockets:
        return
    del hub.sockets[consumer]
    if hub.sockets:
        return
    del _hubs[table_id]
    await hub.stop()


def members(table_id: int) -> int:
    """How many sockets of this process hear the table through its hub (tests, benches)."""
    hub = _hubs.get(table_id)
    return len(hub.sockets) if hub is not None else 0
