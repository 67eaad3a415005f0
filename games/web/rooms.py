"""This process's rooms (games/web/room.py), one per table with sockets here, and what the
process keeps for all of its tables: the writer threads of their write path, the bots'
turns, the presence heartbeat, the channel layer's probe and the table lifecycle's rounds.

One registry per event loop (a server has one loop; tests run one per test), created on
first use: `here()`. It is the only process-wide state of the live tables.
"""

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection

from games.runtime import lifecycle, presence, runner, writer
from games.runtime.actor import TableActor
from games.runtime.commands import Issuer
from games.web.layer_watch import LayerProbe
from games.web.room import TableRoom


class Rooms:
    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.rooms: dict[int, TableRoom] = {}
        self.writers = _writers()
        self.turns = runner.BotTurns()
        self.heartbeat = presence.Heartbeat()
        self.probe = LayerProbe()
        self.sweeping: asyncio.Task | None = None

    def room(self, table_id: int) -> TableRoom:
        """The table's room here, opened if it has none yet (it closes with its last socket)."""
        room = self.rooms.get(table_id)
        if room is None:
            room = self.rooms[table_id] = TableRoom(
                table_id,
                turns=self.turns,
                writers=self.writers,
                heartbeat=self.heartbeat,
                someone_present=self._someone_present,
                emptied=self._emptied,
            )
        return room

    def find(self, table_id: int) -> TableRoom | None:
        return self.rooms.get(table_id)

    async def act(
        self, table_id: int, *, action: dict, expected_version: int | None, user, issuer: Issuer = Issuer.PLAYER
    ) -> writer.Outcome:
        """A command for a table, from a socket that is not the table's (the lobby's): through
        the table's room when it has one here, else an actor of the moment that holds nothing
        (the table's rooms in other processes hear it from the group)."""
        actor = self.rooms.get(table_id) or TableActor(table_id, turns=self.turns, writers=self.writers)
        return await actor.act(action=action, expected_version=expected_version, user=user, issuer=issuer)

    def close(self) -> None:
        if self.writers is not None:
            self.writers.shutdown(wait=False)

    def _emptied(self, room: TableRoom) -> None:
        if self.rooms.get(room.table_id) is room:
            del self.rooms[room.table_id]

    def _someone_present(self) -> None:
        """A person is at a table here: stamp the tables and sweep the idle ones (lifecycle)."""
        if self.sweeping is None or self.sweeping.done():
            self.sweeping = self.loop.create_task(lifecycle.touch_and_sweep(self._tables_with_people))

    def _tables_with_people(self) -> list[int]:
        return [table_id for table_id, room in self.rooms.items() if room.present > 0]


_rooms: Rooms | None = None


def here() -> Rooms:
    """The running event loop's registry."""
    global _rooms
    if _rooms is None or _rooms.loop is not asyncio.get_running_loop():
        if _rooms is not None:
            _rooms.close()
        _rooms = Rooms()
    return _rooms


def _writers() -> ThreadPoolExecutor | None:
    """The threads that run the tables' write path: several commits in flight at once on
    PostgreSQL (each waits for the disk; the database thread would take them one at a time,
    with every other database call of the process queued behind). None: the database thread
    (SQLite takes one writer at a time anyway)."""
    count = settings.GAMES_WRITE_CONNECTIONS
    if count <= 0 or connection.vendor != "postgresql":
        return None
    return ThreadPoolExecutor(max_workers=count, thread_name_prefix="table-writer")
