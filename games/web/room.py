"""A table's room in this process: its actor (games/runtime/actor.py, lila's
RoundAsyncActor) with the sockets it serves.

Beyond the actor's held table, mailbox and clock, the room owns the one subscription to the
table's group (a group message reaches each process once, and Channels would otherwise
queue, wake and decode it once per socket: docs/performance.md), the sockets here (seated
and watching, each a `Reader`), the spectators' shared render and their presence.
`on_version` is the one way it hears "there is a new version": from its own mailbox (before
the group is told) and from the group (another process wrote; its own publications come
back as old news and stop there). It renders each reader's own view from the held table and
sends only the regions that reader does not show yet; group messages carry only "changed,
version N", so no private data ever travels through Redis (RULES §9).
"""

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone, translation

from games import engine, events, selectors
from games.events import LAYER_ERRORS
from games.models import Table
from games.runtime import clock, lifecycle, presence, runner, table_rows, table_state
from games.runtime.actor import TableActor
from games.web import rendering
from games.web.i18n import language_for_scope, translate_notice

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Reader:
    """One socket at the table, as its room serves it."""

    socket: Any  # the consumer (games/web/table_consumer.py): its send and close
    user: Any
    language: str
    autoplayed: bool = False  # its seat was played by a bot when it entered
    version: int = -1  # the version its page shows
    shown: dict[str, bytes] = field(default_factory=dict)  # region → its HTML (JSON), as its page has it now
    early: list | None = field(default_factory=list)  # news that came before its first state
    watching: bool = False  # counted as a spectator (games/runtime/presence.py)
    refreshed: bool = False  # its spectator row kept fresh
    present: bool = False  # counted by the clock and the table's lifecycle
    dealing: asyncio.Task | None = None  # pushes its seat's cards as the clock deals them
    online: asyncio.Task | None = None  # notes it online for friends


class TableRoom(TableActor):
    def __init__(
        self,
        table_id: int,
        *,
        turns: runner.BotTurns,
        connections: table_rows.LoopConnections,
        heartbeat: presence.Heartbeat,
        someone_present: Callable[[], None],
        emptied: Callable[["TableRoom"], None],
    ) -> None:
        super().__init__(table_id, turns=turns, connections=connections)
        self.heartbeat = heartbeat
        self.someone_present = someone_present
        self.emptied = emptied
        self.readers: dict[Any, Reader] = {}  # socket → reader, in the order they joined
        self.present = 0
        # Spectators see the same thing (the view has no hand, RULES §9): one render per
        # (language, owner of a waiting table or not) serves them all; only the latest version's.
        self.spectator_renders: dict[tuple, tuple] = {}  # key → ((version, cards dealt), regions)
        self.channel: str | None = None
        self.elsewhere: set[str] = set()  # the channels of this table's rooms in other processes
        self.listening: asyncio.Task | None = None
        self.started: asyncio.Task | None = asyncio.get_running_loop().create_task(self._subscribe())

    # --- the subscription and its sockets -----------------------------------------------

    async def _subscribe(self) -> None:
        layer = get_channel_layer()
        self.channel = await layer.new_channel()
        # Listening first: cancelling the listener is what unsubscribes the channel.
        self.listening = asyncio.get_running_loop().create_task(self._listen(layer, self.channel))
        await layer.group_add(self.group, self.channel)
        await layer.group_send(self.group, events.room_opened(self.channel))

    async def _listen(self, layer, channel: str) -> None:
        while True:
            message = await layer.receive(channel)
            kind = message.get("type")
            if kind == "table.changed":
                await self.on_version(message["version"])
            elif kind in ("room.opened", "room.here", "room.closed"):
                await self._heard_room(kind, message, channel)
            else:  # a moderation notice
                for reader in list(self.readers.values()):
                    await self.tell(reader, message)

    async def _heard_room(self, kind: str, message: dict, channel: str) -> None:
        """Rooms of one table in several processes know each other's channels, so that a room
        alone publishes nothing: a room that opens says so, each one there answers with the
        version it knows (which the newcomer may not have read yet), and one that closes says
        so. A process that dies says nothing: the others go on telling it, which is only waste."""
        other = message["channel"]
        if other == channel:  # its own
            return
        if kind == "room.closed":
            self.elsewhere.discard(other)
            return
        self.elsewhere.add(other)
        if kind == "room.opened":
            await events.send(group=self.group, message=events.room_here(channel, self.version))
        else:
            await self.on_version(message["version"])

    async def publish(self, version: int) -> None:
        """Only where a room of the table listens in another process: this process's sockets
        have been told, and nobody else listens to the table's group (a table's sockets share
        one process, docs/deployment.md)."""
        if self.elsewhere:
            await super().publish(version)

    async def join(self, socket) -> None:
        """Hand the table's news to `socket` (its `reader`) from now on; raises the layer's
        error (and joins nothing) when the channel layer is unreachable. Before the socket
        reads its first state, as a group join would be (STYLE pitfall 2)."""
        self.readers[socket] = socket.reader
        assert self.started is not None  # a room is stopped only once nobody is in it (`leave`)
        try:
            await asyncio.shield(self.started)  # shared by every socket that joins meanwhile
        except BaseException:
            await self.leave(socket)
            raise

    async def leave(self, socket) -> None:
        if self.readers.pop(socket, None) is None or self.readers:
            return
        self.emptied(self)
        # Let go of the tasks first: a cancelled task keeps its CancelledError, whose frames
        # hold this room, so a room still holding them would be cyclic garbage, left for a
        # full collection (tests/runtime/test_refusal_garbage.py).
        started, listening, self.started, self.listening = self.started, self.listening, None, None
        if started is not None:
            started.cancel()
        if listening is not None:
            listening.cancel()  # the layer unsubscribes the room's channel as it is cancelled
        if self.channel is not None:
            with contextlib.suppress(*LAYER_ERRORS):  # Redis away: its subscriptions went with it
                await get_channel_layer().group_discard(self.group, self.channel)
                if self.elsewhere:
                    await get_channel_layer().group_send(self.group, events.room_closed(self.channel))

    def members(self) -> int:
        """How many sockets of this process hear the table here."""
        return len(self.readers)

    # --- news ------------------------------------------------------------------------

    async def on_version(self, version: int) -> bool:
        """A new version of the table exists: tell the clock once, then each reader in turn
        (each renders its own view). A version heard before is old news (the group's copy of
        a change written here, or an older one): a table's versions only go up."""
        if not await super().on_version(version):
            return False
        for reader in list(self.readers.values()):
            await self.tell(reader, version)
        return True

    async def tell(self, reader: Reader, news: int | dict) -> None:
        """Held until the reader has been sent its first state, then handled in order."""
        if reader.early is not None:
            reader.early.append(news)
            return
        try:
            if isinstance(news, int):
                if news > reader.version:
                    await self.push_state(reader, at_least=news)
            elif news.get("user_id") in (None, reader.user.pk):  # the table closed, or this user removed
                message = translate_notice(news, reader.language)
                await reader.socket.send(text_data=json.dumps({"type": "closed", "message": message}))
                await reader.socket.close(code=4003)
        except Exception:  # one socket's failure must not keep the news from the others
            log.exception("table %s: delivering news to a socket failed", self.table_id)

    # --- a socket's stay ----------------------------------------------------------------

    async def welcome(self, reader: Reader, read_version: int) -> None:
        """The accepted socket's first state (`read_version` or newer), then the news that came
        meanwhile; from now on the clock and the table's lifecycle count it."""
        await self.push_state(reader, at_least=read_version)
        early, reader.early = reader.early or [], None
        for news in early:  # in the order they came, as a group's queue would have kept them
            await self.tell(reader, news)
        if reader.watching and not reader.refreshed:  # counted by `admit`
            await self._watching_changed(reader)
        self.clock.start(read_version)
        reader.present = True
        self.present += 1
        self.someone_present()
        # Friends see where they are; in a task of its own, so that entering a table waits
        # for nothing more (a reconnect storm enters hundreds at once, docs/performance.md).
        reader.online = asyncio.create_task(self._note_online(reader))

    def detach(self, reader: Reader) -> None:
        """The socket is going: first, before anything that can fail (the channel layer, the
        database), so that a lost Redis never leaves a clock running for sockets that are gone."""
        if reader.dealing:
            reader.dealing.cancel()
            reader.dealing = None
        if reader.present:
            reader.present = False
            self.present -= 1
            if self.present <= 0:
                self.clock.stop()

    async def depart(self, reader: Reader) -> None:
        """After `detach` and `leave`: no longer a spectator, nor online, nor at the table."""
        channel = reader.socket.channel_name
        if reader.watching:
            await self._set_watching(reader, False)
        if reader.online:
            reader.online.cancel()
            reader.online = None  # else its CancelledError holds this socket in a cycle
            self.heartbeat.stop_online(channel)
            await lifecycle.stamp_left(self.table_id)
            await database_sync_to_async(presence.user_gone)(user_id=reader.user.pk, channel_name=channel)

    # --- what a reader is sent ----------------------------------------------------------

    async def push_state(self, reader: Reader, force: bool = False, at_least: int | None = None) -> None:
        """The table as `reader` sees it, version `at_least` or newer (`force`: every region,
        even when its page shows this version already: a resync)."""
        loaded = await self.latest(at_least)
        ratings = []
        if loaded is not None and loaded.table.status == Table.Status.FINISHED:
            ratings = await database_sync_to_async(rendering.finished_rating_changes)(loaded.table)
        if loaded is None or loaded.table.status == Table.Status.CLOSED:
            await reader.socket.close(code=4404)
            return
        regions, deal_plan, seat = self._render(reader, loaded, ratings)
        if (seat is None) != reader.watching:
            await self._set_watching(reader, seat is None)
        version = loaded.version
        if version < reader.version and not force:
            return
        if force or version < reader.version:
            reader.shown = {}  # a resync (or an older state after a newer one): every region
        reader.version = version
        # Only the regions that differ from what this page shows: the page keeps the others
        # (static/js/table.js patches the regions a state carries). "now" (the server's clock,
        # ms) lets the page count down to the deadlines the regions carry.
        changed = {name: orjson.Fragment(html) for name, html in regions.items() if reader.shown.get(name) != html}
        reader.shown = regions
        state = {"type": "state", "version": version, "now": int(time.time() * 1000), "html": changed}
        await reader.socket.send(text_data=orjson.dumps(state).decode())
        if reader.dealing:
            reader.dealing.cancel()
            reader.dealing = None
        if deal_plan:
            reader.dealing = asyncio.create_task(self._deal(reader, version, *deal_plan))

    def _render(self, reader: Reader, loaded, rating_changes) -> tuple[dict, tuple | None, int | None]:
        """(Regions → HTML, what its seat is yet to be dealt, its seat) as `reader` sees `loaded`."""
        table, seats, user = loaded.table, loaded.seats, reader.user
        seat = selectors.position_of(seats, user.pk)
        game = clock.live(table, loaded.game, timezone.now()) if loaded.game else None
        # The owner's controls (seat bots, start) exist only while the table waits: after
        # that an owner who watches sees what every spectator sees, and shares their render.
        key = (reader.language, table.status == Table.Status.WAITING and user.pk == table.owner_id)
        stamp = (table.version, game.dealt if game else 0)
        shared = self.spectator_renders.get(key) if seat is None else None
        if shared and shared[0] == stamp:
            return shared[1], None, None
        view = engine.view(game, seat) if game else None
        with translation.override(reader.language):
            rendered = rendering.render_view(
                view=view, table=table, seats=seats, viewer_seat=seat, user=user, rating_changes=rating_changes
            )
        # Each region JSON-encoded once, for whoever is shown it (spectators share it). orjson:
        # a tenth of json.dumps's cost, and Chinese is sent as it is, not escaped.
        regions = {name: orjson.dumps(html) for name, html in rendered.items()}
        if seat is None:
            self.spectator_renders[key] = (stamp, regions)
            return regions, None, None
        deal_plan = None
        if game is not None and view is not None and game.phase == "deal":
            upcoming = [
                (index, clock.card_due_at(table, index))
                for index, (receiver, _card) in enumerate(game.deal_order())
                if receiver == seat and index >= game.dealt
            ]
            # _deal steps on from this game without changing it (engine.step), from the
            # declarations this view offered (a seat's render is never shared).
            deal_plan = (game, seat, upcoming, view["can_declare"])
        return regions, deal_plan, seat

    async def _deal(self, reader: Reader, version: int, game, seat: int, upcoming, shown) -> None:
        """Push this seat its own cards as the clock deals them: no database, no group
        message. `shown`: the declarations the state just sent offered."""
        for index, due in upcoming:
            delay = (due - timezone.now()).total_seconds()
            if delay > 0:
                await asyncio.sleep(delay)
            game, _events = engine.step(game, {"type": "deal", "upto": index + 1})
            view = engine.view(game, seat)
            with translation.override(reader.language):
                push = rendering.card_arrival(view, game.deck[index], shown)
            shown = view["can_declare"]
            card = {"type": "card", "version": version, "dealt": index + 1, **push}
            await reader.socket.send(text_data=json.dumps(card))

    # --- presence ----------------------------------------------------------------------

    async def _set_watching(self, reader: Reader, watching: bool) -> None:
        """Count this socket as a spectator (or stop)."""
        reader.watching = watching
        channel = reader.socket.channel_name
        if watching:
            await database_sync_to_async(presence.spectator_watch)(
                table_id=self.table_id, channel_name=channel, user=reader.user
            )
        else:
            await database_sync_to_async(presence.spectator_leave)(channel_name=channel)
        await self._watching_changed(reader)

    async def _watching_changed(self, reader: Reader) -> None:
        """The spectator row was just written or deleted: keep it fresh while watching, and
        tell the lobby."""
        self.heartbeat.keep_watching(reader.socket.channel_name, reader.watching)
        reader.refreshed = reader.watching
        await events.send(group=events.LOBBY_GROUP, message=events.lobby_changed())

    async def _note_online(self, reader: Reader) -> None:
        """Friends see this user here from now on (refreshed with this process's other sockets)."""
        user_id, channel = reader.user.pk, reader.socket.channel_name
        await database_sync_to_async(presence.user_seen)(user_id=user_id, channel_name=channel, table_id=self.table_id)
        self.heartbeat.keep_online(channel_name=channel, user_id=user_id, table_id=self.table_id)


def admit(
    socket, *, table_id: int, invite: str | None, held: table_state.LoadedTable | None
) -> tuple[Reader, table_state.LoadedTable] | None:
    """(The socket's reader, the table as it is now) if its user may enter, else None (sync:
    the database thread). `held`: the table as its room here holds it, if it has one. A
    spectator is counted in the same trip to the database: after a restart every socket
    enters at once, one after another there."""
    user = socket.scope["user"]
    entry = selectors.socket_entry(user=user, table_id=table_id)
    loaded = table_state.at(table_id, entry.version, held)
    if (
        loaded is None
        or entry.banned
        or not selectors.table_access(
            table=loaded.table, user=user, invite_code=invite, seats=loaded.seats, kicked=entry.kicked
        )
    ):
        return None
    lifecycle.people_seen([table_id])  # before the socket is accepted
    seat = selectors.seat_for(loaded.seats, user)
    language = language_for_scope(socket.scope, user, saved=entry.language)
    reader = Reader(socket, user, language, autoplayed=seat is not None and seat.autoplay, watching=seat is None)
    if reader.watching:
        presence.spectator_watch(table_id=table_id, channel_name=socket.channel_name, user=user)
    return reader, loaded
