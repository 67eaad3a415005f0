"""The latest committed version of each table this process has read or written.

A table's row, its seats and the parsed engine state are a pure function of the
table's version: every change of any of them goes through the one write path
(games/runtime/writer.py), which bumps the version. So an entry stored for version N is
exactly what the database holds at version N, and whoever needs "version N or
later" (the sockets told "changed, version N", the clock runner, the bot deciding
a move, the write path itself) may use it instead of reading the database again.
A version this process has not seen (another process wrote it) is simply read.

Entries are shared between threads and must never be changed: callers that want
to change one take `LoadedTable.rows_for_writing()`.
"""

from dataclasses import dataclass

from channels.db import database_sync_to_async
from django.db.models.base import ModelState

from games import engine
from games.models import Table

MAX_TABLES = 5000

_latest: dict[int, "LoadedTable"] = {}


@dataclass(frozen=True)
class LoadedTable:
    table: Table
    seats: list  # Seat rows by position, with their users
    game: engine.Game | None  # the stored snapshot, parsed (not advanced by the clock)

    @property
    def version(self) -> int:
        return self.table.version

    def rows_for_writing(self) -> tuple[Table, list]:
        """Private copies of the table row and seats for the write path to change (it makes
        a private game over the snapshot itself: `game` here is shared)."""
        return _copied(self.table), [_copied(seat) for seat in self.seats]


def _copied(row):
    """A shallow copy of a model instance, as `copy.copy` makes it (Django's `__getstate__`: the
    instance's fields and a state of its own with its own cache of related rows) without its
    detour through the pickling protocol, which costs more than the rest of the copy."""
    clone = row.__class__.__new__(row.__class__)
    clone.__dict__.update(row.__dict__)
    state = clone._state = ModelState.__new__(ModelState)
    state.__dict__.update(row._state.__dict__)
    state.__dict__.pop("peers", None)  # weak references to the rows read with it, as pickling drops them
    state.fields_cache = dict(row._state.fields_cache)
    return clone


def remember(loaded: LoadedTable) -> None:
    """Keep `loaded` if it is newer than what we hold (it must be committed)."""
    held = _latest.get(loaded.table.pk)
    if held is not None and held.version > loaded.version:
        return
    if held is None and len(_latest) >= MAX_TABLES:
        _latest.clear()
    _latest[loaded.table.pk] = loaded


def cached(table_id: int, at_least: int) -> LoadedTable | None:
    """The held entry when it is version `at_least` or later."""
    held = _latest.get(table_id)
    return held if held is not None and held.version >= at_least else None


def read(table_id: int, *, keep: bool = True) -> LoadedTable | None:
    """Read the table from the database (and remember it, unless `keep` is false: the write
    path reads inside its caller's transaction, which may yet roll back); None if it does
    not exist."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        if keep:
            forget(table_id)
        return None
    loaded = from_rows(table, list(table.seats.select_related("user").order_by("position")))
    if keep:
        remember(loaded)
    return loaded


def current(table_id: int, version: int | None) -> LoadedTable | None:
    """The table at `version`, the database's committed version just read (None: no such
    table): from memory when it holds that version, else read. A restart's storm of sockets
    enters many times per table; only the first reads and parses it."""
    if version is None:
        forget(table_id)
        return None
    return cached(table_id, version) or read(table_id)


async def latest(table_id: int, at_least: int | None) -> LoadedTable | None:
    """Version `at_least` or later from memory, else the database's current row, read in
    the process's database thread (`at_least` None: always read)."""
    held = cached(table_id, at_least) if at_least is not None else None
    return held or await database_sync_to_async(read)(table_id)


def from_rows(table: Table, seats: list) -> LoadedTable:
    """The entry of these committed rows. Its game reads the stored snapshot in place: the
    snapshot is never changed (a write stores a new one), so it is held once, not twice."""
    game = engine.Game.sharing(table.state) if table.state is not None else None
    return LoadedTable(table=table, seats=seats, game=game)


def forget(table_id: int) -> None:
    _latest.pop(table_id, None)


def forget_all() -> None:
    _latest.clear()
