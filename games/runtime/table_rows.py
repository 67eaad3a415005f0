"""The write path's statements that run on every action, in SQL.

Each accepted action locks the table row, appends its events and saves the table (on
PostgreSQL the events and the save are one statement: one round trip fewer per action,
in the same transaction). The ORM compiles every statement anew, which costs about 1 ms of CPU per statement on the
reference machine — more than everything else in the write path — and a busy server
runs about 100 actions a second (docs/performance.md). Values still go through the
model fields' own adapters, so PostgreSQL and SQLite store exactly what the ORM would.
Everything else (the rare writes of records.py, every read) uses the ORM.
"""

from django.db import connection

from games.models import Table, TableEvent

# What writer.table_act and its handlers may change on a table row.
SAVED_FIELDS = ("status", "closed_reason", "version", "state", "deal_started_at", "deadline", "updated_at")
EVENT_FIELDS = ("table", "seq", "hand", "actor", "source", "action", "events", "created_at")


def _fields(model, names):
    return [model._meta.get_field(name) for name in names]


def _sql(text: str, values: list):
    with connection.cursor() as cursor:
        cursor.execute(text, values)
        return cursor.fetchone() if cursor.description else None


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


def _prepared(instance, fields) -> list:
    """The values the ORM would send for these fields of `instance`."""
    return [field.get_db_prep_save(getattr(instance, field.attname), connection) for field in fields]


def lock(table_id: int) -> tuple[int, str] | None:
    """Lock the table's row until the transaction ends; (version, status), None if missing."""
    text = f"SELECT version, status FROM {_quote(Table._meta.db_table)} WHERE id = %s"
    if connection.features.has_select_for_update:
        text += " FOR UPDATE"
    return _sql(text, [table_id])


def save(table: Table, now) -> None:
    """UPDATE the fields the write path changes; `updated_at` becomes `now` (as auto_now)."""
    _sql(*_update(table, now))


def _update(table: Table, now) -> tuple[str, list]:
    table.updated_at = now
    fields = _fields(Table, SAVED_FIELDS)
    assignments = ", ".join(f"{_quote(field.column)} = %s" for field in fields)
    text = f"UPDATE {_quote(Table._meta.db_table)} SET {assignments} WHERE id = %s"
    return text, [*_prepared(table, fields), table.pk]


def event_row(*, table: Table, seq: int, hand, actor, source: str, action: dict, events: list, now) -> TableEvent:
    """One row of the append-only log (unique per table and seq), not yet written."""
    return TableEvent(
        table=table, seq=seq, hand=hand, actor=actor, source=source, action=action, events=events, created_at=now
    )


def append_and_save(table: Table, rows: list[TableEvent], now) -> None:
    """INSERT the log rows and UPDATE the table (`save`): on PostgreSQL in one statement
    (a data-modifying WITH: both or neither, in the caller's transaction), elsewhere in two."""
    if not rows:
        return save(table, now)
    fields = _fields(TableEvent, EVENT_FIELDS)
    columns = ", ".join(_quote(field.column) for field in fields)
    placeholders = ", ".join(["(" + ", ".join(["%s"] * len(fields)) + ")"] * len(rows))
    values = [value for row in rows for value in _prepared(row, fields)]
    insert = f"INSERT INTO {_quote(TableEvent._meta.db_table)} ({columns}) VALUES {placeholders}"
    if connection.vendor != "postgresql":
        _sql(insert, values)
        return save(table, now)
    update, update_values = _update(table, now)
    _sql(f"WITH appended AS ({insert}) {update}", [*values, *update_values])
