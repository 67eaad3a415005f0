"""Who watches a table without a seat: one `Spectator` row per socket (lobby counts); and
who is online at all (friends lists), in the cache.

Rows are refreshed every HEARTBEAT while the socket lives and count only while fresh,
so a crashed server's rows fade out by themselves.
"""

import time
from datetime import timedelta

from django.core.cache import cache
from django.utils import timezone

from games.models import Spectator

HEARTBEAT = timedelta(seconds=30)
FRESH_FOR = 3 * HEARTBEAT


def spectator_watch(*, table_id: int, channel_name: str, user) -> None:
    # One INSERT: a socket starts watching only when it is not counted (games/web/table_consumer.py).
    Spectator.objects.create(channel_name=channel_name, table_id=table_id, user=user)


def spectator_leave(*, channel_name: str) -> None:
    Spectator.objects.filter(channel_name=channel_name).delete()


def spectator_touch(*, channel_name: str) -> None:
    Spectator.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def fresh_since():
    return timezone.now() - FRESH_FOR


# --- who is online, and at which table (friends lists, docs/friends.md) ------------------
#
# In the shared cache (Redis in production), not the database: every socket of a signed-in
# user (the lobby socket on any page, a table socket) is noted under its user, refreshed
# every HEARTBEAT, and forgotten on disconnect or FRESH_FOR after its last refresh (a
# crashed server's sockets fade out by themselves). One key per user: {channel: [table, at]}.


def _presence_key(user_id: int) -> str:
    return f"presence:{user_id}"


def _fresh(entries: dict, now: float) -> dict:
    return {channel: entry for channel, entry in entries.items() if now - entry[1] < FRESH_FOR.total_seconds()}


def user_seen(*, user_id: int, channel_name: str, table_id: int | None) -> None:
    """This socket of the user is open (at `table_id`, or elsewhere on the site)."""
    now = time.time()
    key = _presence_key(user_id)
    entries = _fresh(cache.get(key) or {}, now)
    entries[channel_name] = [table_id, now]
    cache.set(key, entries, int(FRESH_FOR.total_seconds()))


def user_gone(*, user_id: int, channel_name: str) -> None:
    key = _presence_key(user_id)
    entries = _fresh(cache.get(key) or {}, time.time())
    entries.pop(channel_name, None)
    if entries:
        cache.set(key, entries, int(FRESH_FOR.total_seconds()))
    else:
        cache.delete(key)


def where_online(user_ids) -> dict[int, int | None]:
    """The users with an open socket: each one's table (None: on another page)."""
    ids = list(user_ids)
    found = cache.get_many([_presence_key(user_id) for user_id in ids])
    now = time.time()
    online: dict[int, int | None] = {}
    for user_id in ids:
        entries = _fresh(found.get(_presence_key(user_id)) or {}, now)
        if entries:
            tables = [table for table, _at in entries.values() if table is not None]
            online[user_id] = max(tables) if tables else None
    return online
