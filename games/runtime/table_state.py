"""A table as read at one version: its row, its seats and its parsed game.

A table's row, its seats and the parsed engine state are a pure function of the table's
version: every change of any of them goes through the one write path
(games/runtime/writer.py), which bumps the version. So what was read or written at version N
is exactly what the database holds at version N for as long as the table stays there, and
the table's actor (games/runtime/actor.py) holds it instead of reading it again.

A `LoadedTable` is shared between the actor, its clock and its readers and must never be
changed: the write path changes private copies (`LoadedTable.rows_for_writing()`).
"""

from dataclasses import dataclass

from django.db.models.base import ModelState

from games import engine
from games.models import Table


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


def read(table_id: int) -> LoadedTable | None:
    """The table as the database holds it now; None if it does not exist."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    return from_rows(table, list(table.seats.select_related("user").order_by("position")))


def held_at_least(held: LoadedTable | None, version: int | None) -> LoadedTable | None:
    """`held` when it is version `version` or newer (it is committed, so the table is there
    or beyond), else None: the caller reads. `version` None: nothing is known, so None."""
    return held if held is not None and version is not None and held.version >= version else None


def at(table_id: int, version: int | None, held: LoadedTable | None) -> LoadedTable | None:
    """The table at `version`, the database's committed version just read (None: no such
    table), or newer: `held` when it is, else read. A restart's storm of sockets enters many
    times per table; only the first reads and parses it."""
    if version is None:
        return None
    return held_at_least(held, version) or read(table_id)


def from_rows(table: Table, seats: list) -> LoadedTable:
    """The table of these committed rows. Its game reads the stored snapshot in place: the
    snapshot is never changed (a write stores a new one), so it is held once, not twice."""
    game = engine.Game.sharing(table.state) if table.state is not None else None
    return LoadedTable(table=table, seats=seats, game=game)
