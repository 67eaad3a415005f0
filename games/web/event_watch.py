"""Watching an event's table (docs/events.md, "Spectators"): its page and its socket, which
re-renders the delayed view from the database whenever the event changes. What it shows is
games/duplicate/watching.py's decision: nothing of a board some table may still be playing."""

from django.template.loader import render_to_string
from django.utils import translation

from games.duplicate import selectors, watching
from games.duplicate.models import EventTable
from games.web.event_regions import with_faces
from games.web.event_socket import EventConsumer
from games.words.seats import SEAT_NAMES


def watch_context(event_table: EventTable) -> dict:
    view = watching.table_watch(event_table, selectors.entry_names(event_table.round.event))
    view["boards"] = [with_faces(b) if b["state"] == "released" else b for b in view["boards"]]
    view["seats"] = [{"place": SEAT_NAMES[seat], "name": name} for seat, name in enumerate(view["seats"])]
    return view


def render_watch(event_table: EventTable) -> str:
    return render_to_string("games/partials/event_watch.html", {"watch": watch_context(event_table)})


class WatchConsumer(EventConsumer):
    """The event's socket, showing one table's delayed view instead of the standings."""

    def _may_watch(self, user) -> bool:
        table_id = self.scope["url_route"]["kwargs"]["event_table_id"]
        return super()._may_watch(user) and EventTable.objects.filter(pk=table_id, round__event=self.event_id).exists()

    def _render(self) -> dict:
        table_id = self.scope["url_route"]["kwargs"]["event_table_id"]
        with translation.override(self.language):
            html = render_watch(EventTable.objects.select_related("round__event").get(pk=table_id))
        return {"type": "watch", "html": html}
