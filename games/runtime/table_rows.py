"""The write path's one statement: an action's log rows appended and its table saved, if and
only if the table is still at the version the action was judged on (the compare-and-set of
games/runtime/writer.py).

Every action runs it, so on PostgreSQL it is SQL of its own, one fixed text: the ORM would
compile an UPDATE and a bulk INSERT anew each time, which costs more CPU than the rest of
the write. The UPDATE claims the row (a concurrent writer waits for it, then finds another
version and writes nothing) and the log rows, sent as one JSON array, go in only if it
wrote. On SQLite (the embedded default) the ORM does the same in two statements.
"""

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

import orjson
from django.db import connection
from psycopg.types.json import Jsonb

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
