"""Who watches a table without a seat: one `Spectator` row per socket (lobby counts); and
who is online at all (friends lists), in the cache.

Rows are refreshed every HEARTBEAT while the socket lives and count only while fresh,
so a crashed server's rows fade out by themselves. One task per process refreshes all of
its sockets together (`Heartbeat`): one UPDATE and one round trip to the cache, not a
task, a statement and a round trip per socket — 400 sockets made 27 of each a second, a
fixed cost that a quiet server's every action paid for (docs/performance.md).
"""

import asyncio
import logging
import time
from datetime import timedelta

from channels.db import database_sync_to_async
from django.core.cache import cache
from django.utils import timezone

from games.models import Spectator

log = logging.getLogger(__name__)

HEARTBEAT = timedelta(seconds=30)
FRESH_FOR = 3 * HEARTBEAT


def spectator_watch(*, table_id: int, channel_name: str, user) -> None:
    # One INSERT: a socket starts watching only when it is not counted (games/web/room.py).
    Spectator.objects.create(channel_name=channel_name, table_id=table_id, user=user)


def spectator_leave(*, channel_name: str) -> None:
    Spectator.objects.filter(channel_name=channel_name).delete()


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


# --- this process's sockets, refreshed together -------------------------------------------


class Heartbeat:
    """Keeps this process's sockets fresh: their spectator rows and who is online. One per
    event loop (games/web/rooms.py), with one task that refreshes them all together."""

    def __init__(self) -> None:
        self.watching: set[str] = set()  # channel names of the sockets counted as spectators
        self.online: dict[str, tuple[int, int | None]] = {}  # channel name → (user, table or None)
        self.task: asyncio.Task | None = None

    def keep_watching(self, channel_name: str, watching: bool) -> None:
        """Keep this socket's spectator row fresh (or stop)."""
        if watching:
            self.watching.add(channel_name)
            self._refresh_from_now_on()
        else:
            self.watching.discard(channel_name)

    def keep_online(self, *, channel_name: str, user_id: int, table_id: int | None) -> None:
        """Keep this socket of the user noted online (`user_seen` noted it first)."""
        self.online[channel_name] = (user_id, table_id)
        self._refresh_from_now_on()

    def stop_online(self, channel_name: str) -> None:
        self.online.pop(channel_name, None)

    def refresh_here(self) -> None:
        """Refresh every socket kept: the spectator rows, and who is online (sync: the database thread)."""
        if self.watching:
            Spectator.objects.filter(channel_name__in=list(self.watching)).update(seen_at=timezone.now())
        if self.online:
            now = time.time()
            by_user: dict[int, dict] = {}
            for channel, (user_id, table_id) in list(self.online.items()):
                by_user.setdefault(user_id, {})[channel] = [table_id, now]
            keys = {_presence_key(user_id): user_id for user_id in by_user}
            found = cache.get_many(list(keys))
            fresh = {key: {**_fresh(found.get(key) or {}, now), **by_user[user_id]} for key, user_id in keys.items()}
            cache.set_many(fresh, int(FRESH_FOR.total_seconds()))

    def _refresh_from_now_on(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._refreshing())

    async def _refreshing(self) -> None:
        while self.watching or self.online:
            await asyncio.sleep(HEARTBEAT.total_seconds())
            try:
                await database_sync_to_async(self.refresh_here)()
            except Exception:  # the database or Redis away: rows fade if it lasts, and are refreshed after
                log.exception(
                    "refreshing this process's %d spectators and %d online sockets failed",
                    len(self.watching),
                    len(self.online),
                )
