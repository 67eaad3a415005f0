"""The live lobby socket: a list of public tables that re-renders whenever any table
changes; and, on every page, the signed-in user's invitations (docs/friends.md).

`/ws/lobby/` is the lobby page's; `/ws/lobby/?only=invitations` is every other page's: it
carries only the invitations (and marks the user online), never the table list.
"""

import json
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games import events
from games.engine import Refusal
from games.friends import service as friends
from games.friends.selectors import pending_invitations
from games.runtime import presence
from games.sanctions import is_banned
from games.web import rooms
from games.web.i18n import language_for_scope, translate_rejection
from games.web.layer_watch import LayerGroups
from games.web.lobby_cards import lobby_cards
from games.web.socket_dispatch import DirectDispatch
from games.web.socket_input import JsonInput


def lobby_rows(user=None) -> list[dict]:
    """The lobby cards: who sits where (never a card), status and options in words."""
    from games.selectors import visible_tables

    return lobby_cards(visible_tables()[:200], user)


class LobbyConsumer(LayerGroups, DirectDispatch, JsonInput, AsyncWebsocketConsumer):
    max_message_bytes = 512
    budget_messages = 20
    budget_window_s = 10.0

    async def connect(self):
        user = self.scope["user"]
        if await database_sync_to_async(is_banned)(user):
            await self.close(code=4403)
            return
        self.language = await database_sync_to_async(language_for_scope)(self.scope, user)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        self.with_tables = query.get("only") != ["invitations"]
        self.signed_in = user.is_authenticated
        groups = [events.LOBBY_GROUP] if self.with_tables else []
        if self.signed_in:
            self.user_group = events.user_group(user.pk)  # a ban closes it
            groups += [self.user_group, events.invitations_group(user.pk)]
        if not await self.join_groups(*groups, rooms=rooms.here()):
            self.signed_in = False  # nothing to undo at disconnect
            await self.close()  # Redis is away: the page tries again
            return
        await self.accept()
        if self.with_tables:
            await self.lobby_changed({})
        if self.signed_in:
            await database_sync_to_async(presence.user_seen)(
                user_id=user.pk, channel_name=self.channel_name, table_id=None
            )
            rooms.here().heartbeat.keep_online(channel_name=self.channel_name, user_id=user.pk, table_id=None)
            html = await database_sync_to_async(self._render_invitations)()
            if html.strip():  # nothing to say about no invitations on arrival
                await self._send_invitations(html)

    async def disconnect(self, code):
        await self.leave_groups()
        if getattr(self, "signed_in", False):
            rooms.here().heartbeat.stop_online(self.channel_name)
            user_id = self.scope["user"].pk
            await database_sync_to_async(presence.user_gone)(user_id=user_id, channel_name=self.channel_name)

    # --- incoming: answering an invitation -------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        message = await self.read_message(text_data, bytes_data)
        if message is None:
            return
        if not self.signed_in or message["action"] not in ("accept", "decline"):
            return await self.send_error("unknown_action", _("Unknown action."))
        user, invitation = self.scope["user"], message.get("invitation")
        try:
            if message["action"] == "decline":
                await database_sync_to_async(friends.invitation_decline)(user=user, invitation_id=invitation)
                return
            table_id = await database_sync_to_async(friends.invitation_table)(user=user, invitation_id=invitation)
            await rooms.here().act(
                table_id,
                action={"type": "accept_invitation", "invitation": invitation},
                expected_version=None,
                user=user,
            )
        except Refusal as refused:
            await self.send_error(refused.code, translate_rejection(refused, self.language))
            await self.invitations_changed({})  # show what is still open
            return
        await self.send(text_data=json.dumps({"type": "seated", "url": reverse("table", args=[table_id])}))

    # --- group messages ---------------------------------------------------------------

    async def user_removed(self, event):
        await self.close(code=4003)

    async def lobby_changed(self, event):
        html = await database_sync_to_async(self._render)()
        await self.send(text_data=json.dumps({"type": "lobby", "html": html}))

    async def invitations_changed(self, event):
        await self._send_invitations(await database_sync_to_async(self._render_invitations)())

    async def _send_invitations(self, html: str):
        await self.send(text_data=json.dumps({"type": "invitations", "html": html}))

    def _render(self):
        with translation.override(self.language):  # each reader's own "Rejoin" and language
            return render_to_string("games/partials/lobby_rows.html", {"rows": lobby_rows(self.scope["user"])})

    def _render_invitations(self):
        with translation.override(self.language):
            return render_to_string(
                "games/partials/invitations.html", {"invitations": pending_invitations(user=self.scope["user"])}
            )
