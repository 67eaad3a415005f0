"""The event page's socket (docs/events.md): the page's live regions (status, the reader's
table, the round's tables, standings, results, entries, the reader's own registration with
an invitation to confirm; games/web/event_regions.py), sent whenever an entry, a board
result, an adjustment or a round changes them ("event.changed", sent after commit by
games/duplicate/). It carries nothing of a board some table may still be playing:
standings are matchpoints, and results by board appear once the event is over."""

import json
import re

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.middleware.csrf import get_token
from django.utils import translation
from django.utils.translation import gettext as _

from games import events
from games.duplicate import selectors
from games.duplicate.models import Event
from games.sanctions import is_banned
from games.web import event_regions, rooms
from games.web.i18n import language_for_scope
from games.web.layer_watch import LayerGroups
from games.web.socket_dispatch import DirectDispatch
from games.web.socket_input import JsonInput


def csrf_token_of(scope) -> str | None:
    """A form token for the reader's own CSRF cookie (masked, as a page's), so that the
    registration forms the socket renders post as the page's do; None without a cookie."""
    secret = scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
    if not re.fullmatch(r"[A-Za-z0-9]{32}", secret):
        return None
    request = HttpRequest()
    request.META["CSRF_COOKIE"] = secret
    return get_token(request)


class EventConsumer(LayerGroups, DirectDispatch, JsonInput, AsyncWebsocketConsumer):
    max_message_bytes = 256
    budget_messages = 10
    budget_window_s = 10.0

    async def connect(self):
        user = self.scope["user"]
        self.event_id = self.scope["url_route"]["kwargs"]["event_id"]
        if not await database_sync_to_async(self._may_watch)(user):
            await self.close(code=4404)  # a private event does not reveal that it exists
            return
        self.language = await database_sync_to_async(language_for_scope)(self.scope, user)
        if not await self.join_groups(events.event_group(self.event_id), rooms=rooms.here()):
            await self.close()  # Redis is away: the page tries again
            return
        await self.accept()
        await self.event_changed({})  # after joining: no change falls between

    def _may_watch(self, user) -> bool:
        event = Event.objects.filter(pk=self.event_id).first()
        return event is not None and not is_banned(user) and selectors.event_access(event=event, user=user)

    async def disconnect(self, code):
        await self.leave_groups()

    async def receive(self, text_data=None, bytes_data=None):
        if await self.read_message(text_data, bytes_data) is not None:
            await self.send_error("unknown_action", _("Unknown action."))

    async def event_changed(self, event):
        message = await database_sync_to_async(self._render)()
        await self.send(text_data=json.dumps(message))

    def _render(self) -> dict:
        event = Event.objects.get(pk=self.event_id)
        with translation.override(self.language):
            html = event_regions.page_regions(event, self.scope["user"], csrf_token_of(self.scope))
        return {"type": "event", "registration": event.status == Event.Status.REGISTRATION, "html": html}
