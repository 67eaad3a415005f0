"""The table's websocket: parse → command through the table's room → answer this socket.

Thin by design (STYLE): rules live in games/engine, writes in games/runtime/writer.py, the
order of the table's commands in its actor (games/runtime/actor.py), and what the socket is
sent when the table changes (its own seat's view, RULES §9) is its table's room's work
(games/web/room.py), which it joins on entering.
"""

import json
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.db import Error as DatabaseError
from django.utils.translation import gettext as _

from games import events
from games.engine import Refusal
from games.runtime import presence
from games.runtime.commands import Issuer, is_card_list
from games.web import room, rooms
from games.web.i18n import translate_rejection
from games.web.layer_watch import LayerGroups
from games.web.socket_dispatch import DirectDispatch
from games.web.socket_input import JsonInput
from games.web.table_questions import Hints, selection

log = logging.getLogger(__name__)
CLIENT_ACTIONS = {
    "declare",
    "bury",
    "play",
    "play_forced",
    "sit",
    "stand",
    "add_bot",
    "bot_level",
    "remove_bot",
    "start_match",
}


class TableConsumer(LayerGroups, DirectDispatch, JsonInput, AsyncWebsocketConsumer):
    reader: room.Reader | None = None  # how its room serves it, once it may enter

    async def connect(self):
        self.user = self.scope["user"]
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.hints = Hints()
        if not self.user.is_authenticated:
            return await self.close(code=4401)
        invite = parse_qs(self.scope.get("query_string", b"").decode()).get("invite", [None])[0]
        here = rooms.here().find(self.table_id)
        held = here.held if here is not None else None
        entered = await database_sync_to_async(room.admit)(self, table_id=self.table_id, invite=invite, held=held)
        if entered is None:
            return await self.close(code=4403)
        self.reader, loaded = entered
        self.language = self.reader.language
        # Join the table's room before the first state, so no change can slip between (STYLE pitfall 2).
        if not await self.join_groups(events.user_group(self.user.pk), rooms=rooms.here(), table=self.table_id):
            if self.reader.watching:  # refused: Redis is away; the page tries again
                await database_sync_to_async(presence.spectator_leave)(channel_name=self.channel_name)
            self.reader = None
            return await self.close()
        self.room.keep(loaded)
        await self.accept()
        await self.room.welcome(self.reader, loaded.version)
        if self.reader.autoplayed:
            await self._act({"type": "resume"}, None)

    async def disconnect(self, code):
        reader, table_room = self.reader, self.room
        if reader is None or table_room is None:
            return
        table_room.detach(reader)  # first: nothing that fails below may leave the clock counting it
        try:
            await self.leave_groups()  # and the room
            await table_room.depart(reader)
        finally:
            self.reader = None  # the reader holds this socket: no cycle left for the collector

    async def user_removed(self, event):
        """A ban (this user's group): say why and hang up."""
        if self.reader is not None and self.room is not None:
            await self.room.tell(self.reader, event)

    # --- incoming -------------------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        try:
            await self._receive(text_data, bytes_data)
        except DatabaseError as error:
            # The database is away (restarting): the write's transaction never committed,
            # so nothing changed; say so, keep the socket, and let the player try again.
            log.warning("table %s: database error, answered 'unavailable': %r", self.table_id, error)
            await self.send_error(
                "unavailable",
                _("The server cannot reach its database just now, so nothing changed. Please try again in a moment."),
            )

    async def _receive(self, text_data, bytes_data):
        message = await self.read_message(text_data, bytes_data)
        if message is None or self.reader is None or self.room is None:
            return
        kind = message["action"]
        if kind == "sync":
            return await self.room.push_state(self.reader, force=True)
        if kind in ("classify", "hint"):
            return await self._question(kind, message.get("cards"))
        if kind == "ready":  # carries the hand it is for, not a version (games/runtime/readiness.py)
            return await self._act({"type": "ready", "hand": message.get("hand")}, None)
        if kind not in CLIENT_ACTIONS:
            return await self.send_error("unknown_action", _("Unknown action."))
        version = message.get("version")
        if not isinstance(version, int):
            return await self.send_error("bad_version", _("An action must carry the version it was made against."))
        action = {key: message[key] for key in ("cards", "seat", "level") if key in message}
        action["type"] = kind
        await self._act(action, version)

    async def _act(self, action, version):
        assert self.reader is not None and self.room is not None
        try:
            await self.room.act(action=action, expected_version=version, user=self.user, issuer=Issuer.PLAYER)
        except Refusal as rejected:
            await self.send_error(rejected.code, translate_rejection(rejected, self.language), rejected.rule)
            if rejected.code == "stale_version":
                await self.room.push_state(self.reader, force=True)

    async def _question(self, kind, cards):
        """The selection's legality, or the coach's hint: answers that change nothing."""
        assert self.reader is not None
        if kind == "classify" and not is_card_list(cards):
            return await self.send_error("bad_action", _("An action needs a list of cards."))
        loaded = await self.room.latest(self.reader.version)
        if kind == "classify":
            return await self.send(text_data=json.dumps(selection(loaded, self.user, cards, self.language)))
        try:
            hint = await self.hints.ask(loaded, self.user, self.language)
        except Refusal as refused:
            return await self.send_error(refused.code, translate_rejection(refused, self.language))
        if hint is not None:
            await self.send(text_data=hint)
