"""An event's changes (docs/events.md, "Pages"). Every write that changes what the event
page shows calls `event_changed_on_commit`: once the transaction commits, the event gets a
new *stamp*, then its sockets are told ("event.changed") and render from the database.

The stamp keys the page's shared regions in Django's cache (games/web/event_regions.py): a
region is served only under the stamp it was rendered after, so once the stamp is new no
reader is shown the old render. It is a random token kept in the cache (Redis in
production, shared by every process), not a counter: should the cache lose it, a fresh one
matches nothing rendered before.
"""

import uuid

from django.core.cache import cache
from django.db import transaction

from games import events

STAMP_SECONDS = 7 * 24 * 3600  # an event unchanged for a week: a fresh stamp, one render


def stamp_key(event_id: int) -> str:
    return f"event-stamp-{event_id}"


def event_changed_on_commit(event_id: int) -> None:
    """After commit (at once outside a transaction): a new stamp, then the sockets told, in
    that order (on_commit keeps it), so that a socket's render is stored under the new one."""
    transaction.on_commit(lambda: cache.set(stamp_key(event_id), uuid.uuid4().hex, STAMP_SECONDS), robust=True)
    events.send_on_commit(group=events.event_group(event_id), message={"type": "event.changed"})


def fresh_stamp(event_id: int) -> str:
    """The event's stamp when the cache has none: a new one, unless another process has just
    set one (then that one)."""
    stamp = uuid.uuid4().hex
    if cache.add(stamp_key(event_id), stamp, STAMP_SECONDS):
        return stamp
    return cache.get(stamp_key(event_id)) or stamp
