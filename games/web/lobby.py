"""The live lobby: a list of public tables that re-renders whenever any table changes."""

import json

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation

from accounts.selectors import is_banned
from games import events
from games.web.i18n import language_for_scope
from games.web.layer_watch import LayerGroups
from games.web.lobby_cards import lobby_card
from games.web.socket_dispatch import DirectDispatch


def lobby_rows(user=None) -> list[dict]:
    """The lobby cards: who sits where (never a card), status and options in words."""
    from games.selectors import visible_tables

    return [lobby_card(table, user) for table in visible_tables()[:200]]


class LobbyConsumer(LayerGroups, DirectDispatch, AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope["user"]
        if await database_sync_to_async(is_banned)(user):
            await self.close(code=4403)
            return
        self.language = await database_sync_to_async(language_for_scope)(self.scope, user)
        self.user_group = events.user_group(user.pk) if user.is_authenticated else None  # a ban closes it
        groups = [events.LOBBY_GROUP] + ([self.user_group] if self.user_group else [])
        if not await self.join_groups(*groups):
            await self.close()  # Redis is away: the page tries again
            return
        await self.accept()
        await self.lobby_changed({})

    async def disconnect(self, code):
        await self.leave_groups()

    async def receive(self, text_data=None, bytes_data=None):
        pass  # the lobby socket only listens

    async def user_removed(self, event):
        await self.close(code=4003)

    async def lobby_changed(self, event):
        html = await database_sync_to_async(self._render)()
        await self.send(text_data=json.dumps({"type": "lobby", "html": html}))

    def _render(self):
        with translation.override(self.language):  # each reader's own "Rejoin" and language
            return render_to_string("games/partials/lobby_rows.html", {"rows": lobby_rows(self.scope["user"])})
