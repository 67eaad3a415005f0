"""The write path's statements that run on every action, in SQL.

An engine command acted on the version the process holds is stored by one statement,
`store_if_at`: its events appended and the table saved only if the table is still at that
version (on PostgreSQL one data-modifying WITH, in autocommit: one round trip, no lock).
Every other action locks the table row, then appends its events and saves the table
(`append_and_save`, one statement on PostgreSQL, in the lock's transaction). The ORM compiles every statement anew, which costs about 1 ms of CPU per statement on the
reference machine — more than everything else in the write path — and a busy server
runs hundreds of actions a second (docs/performance.md): here each statement's text is
made once per database and number of rows. Values still go through the model fields' own
adapters, so PostgreSQL and SQLite store exactly what the ORM would. Everything else (the
rare writes of records.py, every read) uses the ORM.
"""

import asyncio
import logging
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

import orjson
import psycopg
from django.conf import settings
from django.core.exceptions import SynchronousOnlyOperation
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from psycopg.types.json import set_json_dumps

from games.models import Table, TableEvent

# What writer.table_act and its handlers may change on a table row.
SAVED_FIELDS = ("status", "closed_reason", "version", "state", "deal_started_at", "deadline", "updated_at")
EVENT_FIELDS = ("table", "seq", "hand", "actor", "source", "action", "events", "created_at")


def _fields(model, names):
    return [model._meta.get_field(name) for name in names]


_SAVED = _fields(Table, SAVED_FIELDS)
_EVENT = _fields(TableEvent, EVENT_FIELDS)
_texts: dict[tuple, str] = {}  # (database vendor, statement, rows) → its SQL
log = logging.getLogger(__name__)


def _db():
    """This thread's connection, looked up once per statement (the `django.db.connection`
    proxy looks it up again on every attribute: dozens of times a statement)."""
    return connections[DEFAULT_DB_ALIAS]


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of the append-only log (`TableEvent`: unique per table and seq), not yet written;
    its attributes are the model fields' attnames. (A model instance costs more to make than
    the row costs to write.)"""

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


class NeedsDatabase(Exception):
    """Raised instead of running a statement inside `no_statements`."""


@contextmanager
def no_statements():
    """Run without the database: the first statement attempted raises `NeedsDatabase` (and is
    not run). The write path applies a command from memory this way, and falls back to the
    locked path when the command turns out to read or write other rows. (On the event loop
    Django refuses the statement itself, before it is made: the same answer.)"""

    def refuse(execute, sql, params, many, context):
        raise NeedsDatabase(sql)

    db = _db()
    broken = db.needs_rollback, db.rollback_exc
    try:
        with db.execute_wrapper(refuse):
            try:
                yield
            except SynchronousOnlyOperation as refused:
                raise NeedsDatabase(str(refused)) from None
    except NeedsDatabase:
        # Inside a caller's transaction the ORM marks it for rollback as the exception passes
        # (`mark_for_rollback_on_error`); nothing reached the database, so it is as it was.
        db.needs_rollback, db.rollback_exc = broken
        raise


def _run(db, text: str, values: list) -> tuple[int, tuple | None]:
    """(rows written, the first row returned) of one statement."""
    with db.cursor() as cursor:
        cursor.execute(text, values)
        return cursor.rowcount, cursor.fetchone() if cursor.description else None


def _text(db, statement: str, rows: int = 0) -> str:
    key = (db.vendor, statement, rows)
    text = _texts.get(key)
    if text is None:
        text = _texts[key] = _write_text(db, statement, rows)
    return text


def _write_text(db, statement: str, rows: int) -> str:
    quote = db.ops.quote_name
    table, log = quote(Table._meta.db_table), quote(TableEvent._meta.db_table)
    if statement == "lock":
        return f"SELECT version, status FROM {table} WHERE id = %s" + (
            " FOR UPDATE" if db.features.has_select_for_update else ""
        )
    if statement in ("update", "update_at"):
        assignments = ", ".join(f"{quote(field.column)} = %s" for field in _SAVED)
        at = f" AND {quote('version')} = %s" if statement == "update_at" else ""
        return f"UPDATE {table} SET {assignments} WHERE id = %s{at}"
    columns = ", ".join(quote(field.column) for field in _EVENT)
    if statement == "insert":
        row = "(" + ", ".join(["%s"] * len(_EVENT)) + ")"
        return f"INSERT INTO {log} ({columns}) VALUES " + ", ".join([row] * rows)
    if statement == "append_and_save":  # PostgreSQL: both or neither, in the caller's transaction
        return f"WITH appended AS ({_text(db, 'insert', rows)}) {_text(db, 'update')}"
    # "store_if_at", PostgreSQL: the UPDATE claims the row (a concurrent writer waits for it,
    # then finds another version) and the INSERT takes its rows only if the UPDATE wrote.
    # VALUES apart from an INSERT types its parameters itself: each is cast to its column's.
    row = "(" + ", ".join(f"%s::{field.db_type(db)}" for field in _EVENT) + ")"
    return (
        f"WITH saved AS ({_text(db, 'update_at')} RETURNING 1) INSERT INTO {log} ({columns}) "
        f"SELECT * FROM (VALUES {', '.join([row] * rows)}) AS logged WHERE EXISTS (SELECT FROM saved)"
    )


def _prepared(db, instance, fields) -> list:
    """The values the ORM would send for these fields of `instance`."""
    return [field.get_db_prep_save(getattr(instance, field.attname), db) for field in fields]


def _saved_values(db, table: Table, now) -> list:
    table.updated_at = now  # as auto_now
    return [*_prepared(db, table, _SAVED), table.pk]


def _log_values(db, rows: list[LogRow]) -> list:
    return [value for row in rows for value in _prepared(db, row, _EVENT)]


def lock(table_id: int) -> tuple[int, str] | None:
    """Lock the table's row until the transaction ends; (version, status), None if missing."""
    db = _db()
    return _run(db, _text(db, "lock"), [table_id])[1]


def save(table: Table, now) -> None:
    """UPDATE the fields the write path changes; `updated_at` becomes `now` (as auto_now)."""
    db = _db()
    _run(db, _text(db, "update"), _saved_values(db, table, now))


def append_and_save(table: Table, rows: list[LogRow], now) -> None:
    """INSERT the log rows and UPDATE the table (`save`): on PostgreSQL in one statement
    (a data-modifying WITH: both or neither, in the caller's transaction), elsewhere in two."""
    if not rows:
        return save(table, now)
    db = _db()
    if db.vendor != "postgresql":
        _run(db, _text(db, "insert", len(rows)), _log_values(db, rows))
        return save(table, now)
    _run(db, _text(db, "append_and_save", len(rows)), [*_log_values(db, rows), *_saved_values(db, table, now)])


def store_if_at(table: Table, rows: list[LogRow], version: int, now) -> bool:
    """Append the log rows and save the table if, and only if, the table is still at
    `version` (the compare-and-set of the write path); False, and nothing written, if it
    has moved on. On PostgreSQL one statement in autocommit, elsewhere two in a transaction."""
    db = _db()
    update = [*_saved_values(db, table, now), version]
    if not rows:
        return _run(db, _text(db, "update_at"), update)[0] == 1
    if db.vendor != "postgresql":
        with transaction.atomic():
            if _run(db, _text(db, "update_at"), update)[0] != 1:
                return False
            _run(db, _text(db, "insert", len(rows)), _log_values(db, rows))
        return True
    return _run(db, _text(db, "store_if_at", len(rows)), [*update, *_log_values(db, rows)])[0] == len(rows)


# --- the event loop's own connections ----------------------------------------------------
# One thread and one connection commit one statement at a time, and a commit waits for the
# write-ahead log's flush (≈ 3.4 ms on the reference machine's disk): the process's database
# thread alone stops near 290 actions a second, and every other call of the process (a socket
# entering, a heartbeat) queues behind it. So an action from memory is stored from the event
# loop, on a few connections of the loop's own — no hand-off to a thread and back, commits in
# flight side by side — and a table's statements always take the same one, in order. Each
# loop has its own (a server runs one; tests run one each).


def stores_from_loop() -> bool:
    """Whether actions from memory are stored on the event loop's own connections."""
    return settings.GAMES_WRITE_CONNECTIONS > 0 and _db().vendor == "postgresql"


async def store_if_at_async(table: Table, rows: list[LogRow], version: int, now) -> bool | None:
    """`store_if_at` from the event loop (PostgreSQL): True if stored, False if the table has
    moved on, None if the connection failed — whether the statement was committed is then
    unknown, and the caller asks the locked path, which reads what is true."""
    db = _db()
    statement = "store_if_at" if rows else "update_at"
    values = [*_saved_values(db, table, now), version, *_log_values(db, rows)]
    text = _text(db, statement, len(rows))
    try:
        connection = await _LoopConnections.of_running_loop().for_table(table.pk)
        cursor = await connection.execute(text, values)
    except psycopg.Error as error:
        log.warning(
            "table %s: the event loop's connection failed (%s); the database thread takes over", table.pk, error
        )
        return None
    return cursor.rowcount == max(len(rows), 1)


def close_loop_connections() -> None:
    """Close every event loop's own connections (tests: before their database is dropped)."""
    for held in _LoopConnections._of.values():
        held.close()
    _LoopConnections._of = {}


def _dumps(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


class _LoopConnections:
    _of: dict[asyncio.AbstractEventLoop, "_LoopConnections"] = {}

    def __init__(self, count: int):
        self.connections: list[psycopg.AsyncConnection | None] = [None] * count
        self.opening = [asyncio.Lock() for _ in range(count)]

    @classmethod
    def of_running_loop(cls) -> "_LoopConnections":
        loop = asyncio.get_running_loop()
        held = cls._of.get(loop)
        if held is None:
            for other in cls._of.values():  # an earlier loop's (tests): it has ended
                other.close()
            cls._of = {loop: (held := cls(settings.GAMES_WRITE_CONNECTIONS))}
        return held

    async def for_table(self, table_id: int) -> psycopg.AsyncConnection:
        index = table_id % len(self.connections)
        async with self.opening[index]:
            connection = self.connections[index]
            if connection is None or connection.closed:  # first use, or it failed (a new one)
                params = _db().get_connection_params()
                params["cursor_factory"] = psycopg.AsyncCursor  # values bound by the server: nothing quoted here
                connection = await psycopg.AsyncConnection.connect(**params, autocommit=True)
                # The snapshot is dumped by orjson (int keys as strings, as json.dumps does): a
                # tenth of json.dumps's cost, on every action.
                set_json_dumps(_dumps, context=connection)
                self.connections[index] = connection
            return connection

    def close(self) -> None:
        for connection in self.connections:
            if connection is not None and not connection.closed:
                connection.pgconn.finish()  # its loop may be gone: closed without it
