"""The event page's regions (docs/events.md, "Pages"), rendered for the page and for its
socket with the same partials.

Every region but the reader's own table is the same for every reader of a language between
two changes of the event, and a hundred tables' standings, tables and entries are the
page's whole cost: those *shared* regions are rendered once per change and language and kept
in Django's cache (Redis in production, shared by every process) with the event's stamp at
the time (games/duplicate/changes.py). A reader is served the kept render only while the
stamp is the same, so a change is shown at once. Only what the page shows is kept: results
by board, the one region with cards, exist once the event is over (selectors).
"""

from decimal import ROUND_HALF_UP, Decimal

from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games import jinja_env
from games import selectors as table_selectors
from games.boards.scoring import Standing
from games.duplicate import changes, selectors
from games.duplicate.models import Event
from games.words.faces import faces
from games.words.seats import SEAT_NAMES

# Region (its element's id is "event-<region>") -> its template: the long lists in Jinja2
# (games/jinja2/, games/jinja_env.py), rendered again after every change.
DJANGO_REGIONS = {"status": "games/partials/event_status.html", "results": "games/partials/event_results.html"}
JINJA_REGIONS = {
    "tables": "games/event/tables.html",
    "standings": "games/event/standings.html",
    "entries": "games/event/entries.html",
}
# The reader's own regions, rendered for each request and push.
MY_TABLE = "games/partials/event_my_table.html"
REGISTRATION = "games/partials/event_registration.html"
# A kept render lives at most this long: the stamp decides what is shown, this only bounds
# a render kept past a change whose new stamp the cache failed to store.
KEPT_SECONDS = 60


def page_regions(event: Event, user, csrf_token: str | None = None) -> dict[str, str]:
    """Every region of the page, in the active language: the shared ones as kept, and the
    reader's own."""
    return {**shared_regions(event), **reader_regions(event, user, csrf_token)}


def shared_regions(event: Event) -> dict[str, str]:
    """The shared regions in the active language: the kept render if the event has not
    changed since, else a fresh one, kept."""
    stamp_key = changes.stamp_key(event.pk)
    kept_key = f"event-regions-{event.pk}-{translation.get_language()}"
    found = cache.get_many([stamp_key, kept_key])
    stamp = found.get(stamp_key) or changes.fresh_stamp(event.pk)  # read before the database
    kept_stamp, html = found.get(kept_key, (None, None))
    if kept_stamp != stamp:
        html = render_shared(Event.objects.get(pk=event.pk))  # the row as of after the stamp, too
        cache.set(kept_key, (stamp, html), KEPT_SECONDS)
    return html


def render_shared(event: Event) -> dict[str, str]:
    context = shared_context(event)
    html: dict[str, str] = {region: render_to_string(template, context) for region, template in DJANGO_REGIONS.items()}
    html.update(zip(JINJA_REGIONS, jinja_env.render_each(list(JINJA_REGIONS.values()), context), strict=True))
    return html


def shared_context(event: Event) -> dict:
    entries = selectors.entry_list(event)
    names = {pk: name for pk, name, *_ in entries}
    # A table's watch page is .../tables/<id>/: one reverse, not one per table.
    watch_head = reverse("event_watch", args=[event.pk, 0]).removesuffix("0/")
    return {
        "event": event,
        "entries": [(name, checked_in, confirmed) for _, name, checked_in, confirmed in entries],
        "standings": standings_rows(event, names),
        "tables": [{**t, "watch_url": f"{watch_head}{t['id']}/"} for t in selectors.current_tables(event, names)],
        "boards": [with_faces(b) for b in selectors.finished_results(event, names)],
    }


def reader_regions(event: Event, user, csrf_token: str | None = None) -> dict[str, str]:
    """The reader's own regions: a link to their table in the current round, and their part
    in the registration (an invitation to confirm, check-in, withdraw), whose forms carry
    `csrf_token`."""
    table = selectors.user_table(event, user)
    registration = {
        "event": event,
        "signed_in": user.is_authenticated,
        "registration": selectors.registration_of(event, user),
        "csrf_token": csrf_token,
    }
    return {
        "my-table": render_to_string(MY_TABLE, {"my_table_url": table_selectors.table_url(table) if table else None}),
        "registration": render_to_string(REGISTRATION, registration),
    }


def standings_rows(event: Event, names: dict) -> list[dict]:
    """The standings as the page shows them (entry names, matchpoints, percentage)."""
    return [
        {
            "rank": rank,
            "name": names.get(s.entrant, "?"),
            "matchpoints": s.matchpoints,
            "top": s.top,
            "percent": percent_shown(s),
        }
        for rank, s in enumerate(selectors.event_standings(event), start=1)
    ]


def percent_shown(standing: Standing) -> str:
    """The percentage to one decimal, halves rounded up (as Django's floatformat), from the
    exact fraction: a standings page rounds 62.25 % to 62.3 %."""
    if not standing.top:
        return "–"
    exact = Decimal(100 * standing.matchpoints) / standing.top
    return str(exact.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def with_faces(board: dict) -> dict:
    """A released board's holdings as faces, each seat's with its place's name."""
    held = [{"place": SEAT_NAMES[seat], "cards": faces(cards, None)} for seat, cards in enumerate(board["held"])]
    return {**board, "dealer_name": SEAT_NAMES[board["dealer"]], "held": held, "kitty": faces(board["kitty"], None)}
