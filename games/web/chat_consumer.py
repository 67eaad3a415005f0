"""The table chat's websocket (`ws/table/<id>/chat/`): parse → games.chat → render.

Separate from the table socket so chat never delays the game's pushes. Same access
rule as the table (`selectors.table_access`, re-checked on every post). On connect it
sends the recent lines, so a reconnect also repairs any line a dropped group message
lost (STYLE pitfall 1). Every line is rendered by the escaped partial the page uses.
"""

import json
from datetime import datetime
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import chat, events, selectors
from games.engine import Refusal
from games.friends.selectors import blocked_ids
from games.models import Table
from games.sanctions import is_banned
from games.web import rooms
from games.web.i18n import language_for_scope, translate_notice, translate_rejection
from games.web.layer_watch import LayerGroups
from games.web.socket_dispatch import DirectDispatch
from games.web.socket_input import JsonInput


class ChatConsumer(LayerGroups, DirectDispatch, JsonInput, AsyncWebsocketConsumer):
    max_message_bytes = 2048
    budget_messages = 20  # per socket and window: beyond that the socket is closed (FLOODED)
    budget_window_s = 10.0

    async def connect(self):
        self.user = self.scope["user"]
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        invite = parse_qs(self.scope.get("query_string", b"").decode()).get("invite")
        self.invite = invite[0] if invite else None
        if not self.user.is_authenticated:
            await self.close(code=4401)
            return
        if await database_sync_to_async(self._table)() is None:
            await self.close(code=4403)
            return
        # Reading the profile is a DB query: never from the event loop itself.
        self.language = await database_sync_to_async(language_for_scope)(self.scope, self.user)
        # Lines of players this reader blocked are never shown to them (read on connect).
        self.blocked = await database_sync_to_async(blocked_ids)(user=self.user)
        self.group = events.chat_group(self.table_id)
        # Before the history (no line slips between); the user's group: a ban closes it.
        if not await self.join_groups(self.group, events.user_group(self.user.pk), rooms=rooms.here()):
            await self.close()  # Redis is away: the page tries again
            return
        await self.accept()
        html = await database_sync_to_async(self._history)()
        await self.send(text_data=json.dumps({"type": "history", "html": html}))

    async def disconnect(self, code):
        await self.leave_groups()

    async def receive(self, text_data=None, bytes_data=None):
        message = await self.read_message(text_data, bytes_data)
        if message is None:
            return
        if message["action"] != "post":
            return await self.send_error("unknown_action", _("Unknown action."))
        try:
            await database_sync_to_async(self._post)(message.get("text"))
        except Refusal as refused:
            return await self.send_error(refused.code, translate_rejection(refused, self.language))
        await self.send(text_data=json.dumps({"type": "sent"}))

    # --- group messages -----------------------------------------------------------

    async def chat_message(self, event):
        if event.get("user_id") in self.blocked:
            return
        line = dict(event, created_at=datetime.fromisoformat(event["created_at"]))
        await self.send(text_data=json.dumps({"type": "message", "id": line["id"], "html": self._render(line)}))

    async def chat_deleted(self, event):
        await self.send(text_data=json.dumps({"type": "deleted", "id": event["id"]}))

    async def chat_closed(self, event):
        """Moderation: the table closed, or this user was removed from its chat."""
        if event.get("user_id") not in (None, self.user.pk):
            return
        await self.send(text_data=json.dumps({"type": "closed", "message": translate_notice(event, self.language)}))
        await self.close(code=4003)

    user_removed = chat_closed  # a ban, sent to the group user-<id>

    # --- database and rendering (short sync calls) ----------------------------------

    def _table(self):
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None or not selectors.table_access(table=table, user=self.user, invite_code=self.invite):
            return None
        if is_banned(self.user):
            return None
        return table

    def _post(self, text):
        table = self._table()
        if table is None:
            raise Refusal("no_access", gettext_noop("You cannot chat at this table."))
        chat.chat_post(table=table, user=self.user, text=text)

    def _history(self):
        table = Table.objects.get(pk=self.table_id)
        lines = chat.chat_recent(table=table)
        return "".join(self._render(line) for line in lines if line["user_id"] not in self.blocked)

    def _render(self, line) -> str:
        with translation.override(self.language):
            return render_to_string("games/partials/chat_message.html", {"message": line})
