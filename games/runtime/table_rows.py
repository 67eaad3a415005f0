"""The write path's one statement: an action's log rows appended and its table saved, if and
only if the table is still at the version the action was judged on (the compare-and-set of
games/runtime/writer.py).

Every action runs it, so on PostgreSQL it is SQL of its own, one fixed text: the ORM would
compile an UPDATE and a bulk INSERT anew each time, which costs more CPU than the rest of
the write. The UPDATE claims the row (a concurrent writer waits for it, then finds another
version and writes nothing) and the log rows, sent as one JSON array, go in only if it
wrote. On SQLite (the embedded default) the ORM does the same in two statements.
"""

import logging
import os
import weakref
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

import orjson
import psycopg
from django.conf import settings
from django.db import connection
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from games.models import Table, TableEvent

# What the write path and its handlers may change on a table row.
SAVED_FIELDS = ("status", "closed_reason", "version", "state", "deal_started_at", "deadline", "updated_at")


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of the append-only log (`TableEvent`: unique per table and seq), not yet
    written; its attributes are the model fields' attnames."""

    table_id: int
    seq: int
    hand_id: int | None
    actor_id: int | None
    source: str
    action: dict
    events: list
    created_at: datetime


def event_row(*, table: Table, seq: int, hand, actor, source: str, action: dict, events: list, now) -> LogRow:
    return LogRow(
        table_id=table.pk,
        seq=seq,
        hand_id=hand.pk if hand is not None else None,
        actor_id=actor.pk if actor is not None else None,
        source=source,
        action=action,
        events=events,
        created_at=now,
    )


def _dumps(value) -> bytes:
    """orjson, a tenth of json.dumps's cost on the snapshot; int keys become strings, as
    json.dumps makes them."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


_ASSIGNED = ", ".join(f"{name} = %s" for name in SAVED_FIELDS)
_STORE = f"""
WITH saved AS (
    UPDATE {Table._meta.db_table} SET {_ASSIGNED} WHERE id = %s AND version = %s RETURNING id
), logged AS (
    INSERT INTO {TableEvent._meta.db_table} (table_id, seq, hand_id, actor_id, source, action, events, created_at)
    SELECT saved.id, r.seq, r.hand_id, r.actor_id, r.source, r.action, r.events, %s
    FROM saved, jsonb_to_recordset(%s) AS r(
        seq integer, hand_id bigint, actor_id integer, source text, action jsonb, events jsonb
    )
)
SELECT count(*) FROM saved
"""


def store_if_at(table: Table, rows: list[LogRow], version: int, now: datetime) -> bool:
    """Append the log rows and save the table (`updated_at` becomes `now`, as auto_now) if
    the table is still at `version`; False, and nothing written, if it has moved on. Runs in
    the caller's transaction, with whatever else the action wrote."""
    if connection.vendor != "postgresql":
        table.updated_at = now
        saved = {name: getattr(table, name) for name in SAVED_FIELDS}
        if not Table.objects.filter(pk=table.pk, version=version).update(**saved):
            return False
        TableEvent.objects.bulk_create(TableEvent(**asdict(row)) for row in rows)
        return True
    with connection.cursor() as cursor:
        cursor.execute(_STORE, _values(table, rows, version, now))
        return cursor.fetchone()[0] == 1


def _values(table: Table, rows: list[LogRow], version: int, now: datetime) -> list[Any]:
    table.updated_at = now  # as auto_now
    saved = [getattr(table, name) for name in SAVED_FIELDS]
    if table.state is not None:
        saved[SAVED_FIELDS.index("state")] = Jsonb(table.state, dumps=_dumps)
    logged = [
        {
            "seq": r.seq,
            "hand_id": r.hand_id,
            "actor_id": r.actor_id,
            "source": r.source,
            "action": r.action,
            "events": r.events,
        }
        for r in rows
    ]
    return [*saved, table.pk, version, now, Jsonb(logged, dumps=_dumps)]


# --- from the event loop ------------------------------------------------------------------
# Sockets and the clock store an engine step on the version this process holds from the
# event loop itself (games/runtime/writer.py): no hand-off to the process's one database
# thread, whose one connection would commit one action at a time (each commit waits for the
# disk) with every other database call of the process queued behind. The loop borrows a
# connection from the pool of its actors' keeper (`LoopConnections`), in autocommit: the
# statement is its own transaction. Its values are bound by the server, and psycopg prepares
# the statement once it has run a few times, so PostgreSQL does not parse and plan it again
# on every action.

_PREPARE_AFTER = 5  # runs of the statement before psycopg prepares it (psycopg's default)
log = logging.getLogger(__name__)


def stores_from_loop() -> bool:
    """Whether the event loop stores engine steps itself. Django refusing every query on the
    loop is what stops a step that needs other rows there; where that refusal is switched
    off (DJANGO_ALLOW_ASYNC_UNSAFE), everything goes through the database thread."""
    return (
        settings.GAMES_WRITE_CONNECTIONS > 0
        and connection.vendor == "postgresql"
        and not os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    )


class LoopConnections:
    """The connections one event loop stores engine steps on: a pool (psycopg_pool), opened on
    first use. Whoever keeps a loop's table actors owns one and hands it to each (the web's
    registry of rooms, games/web/rooms.py; `manage.py runtables`), and closes it with them."""

    def __init__(self) -> None:
        self.pool: AsyncConnectionPool | None = None
        self.opened: weakref.WeakSet[psycopg.AsyncConnection] = weakref.WeakSet()

    async def store_if_at(self, table: Table, rows: list[LogRow], version: int, now: datetime) -> bool:
        """`store_if_at` from the event loop, in a transaction of its own: True if stored;
        False if the table has moved on, or if the connection failed — whether the statement
        was committed is then unknown, and the caller asks the database thread, which reads
        what is true."""
        values = _values(table, rows, version, now)
        try:
            pool = await self._open()
            async with pool.connection() as borrowed:
                cursor = await borrowed.execute(_STORE, values)
                found = await cursor.fetchone()
        except psycopg.Error as error:
            log.warning("table %s: the loop's connection failed (%s); the database thread takes over", table.pk, error)
            return False
        return found is not None and found[0] == 1

    async def _open(self) -> AsyncConnectionPool:
        if self.pool is None:
            params = connection.get_connection_params()  # Django's own: database, user, adapters
            params.update(cursor_factory=psycopg.AsyncCursor, prepare_threshold=_PREPARE_AFTER, autocommit=True)
            self.pool = AsyncConnectionPool(
                kwargs=params,
                min_size=1,
                max_size=settings.GAMES_WRITE_CONNECTIONS,
                timeout=2,  # lent within milliseconds, unless the database is away: then fail soon
                configure=self._opened_here,
                open=False,
            )
        if self.pool.closed:
            await self.pool.open()
        return self.pool

    async def _opened_here(self, opened: psycopg.AsyncConnection) -> None:
        self.opened.add(opened)

    async def aclose(self) -> None:
        """Close the pool in its own loop (its tasks end with it)."""
        if self.pool is not None:
            await self.pool.close()

    def close(self) -> None:
        """End every connection, from any thread, also once the pool's loop has ended (its own
        `close()` must run in that loop): tests end theirs before their database is dropped,
        and after the database restarted."""
        for opened in list(self.opened):
            opened.pgconn.finish()
        self.opened.clear()
        self.pool = None
