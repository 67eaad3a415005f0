"""This process's rooms (games/web/room.py), one per table with sockets here, and what the
process keeps for all of them: the bots' turns, the connections the rooms store engine
steps on, the presence heartbeat, the channel layer's probe and the table lifecycle's rounds.

One registry per event loop (a server has one loop; tests run one per test), created on
first use: `here()`. It is the only process-wide state of the live tables.
"""

import asyncio

from games.runtime import lifecycle, presence, runner, table_rows, writer
from games.runtime.actor import TableActor
from games.runtime.commands import Issuer
from games.web.layer_watch import LayerProbe
from games.web.room import TableRoom


class Rooms:
    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.rooms: dict[int, TableRoom] = {}
        self.turns = runner.BotTurns()
        self.connections = table_rows.LoopConnections()
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
                connections=self.connections,
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
        actor = self.rooms.get(table_id) or TableActor(table_id, turns=self.turns, connections=self.connections)
        return await actor.act(action=action, expected_version=expected_version, user=user, issuer=issuer)

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
    """The running event loop's registry (an earlier loop's is let go, its connections ended)."""
    global _rooms
    if _rooms is None or _rooms.loop is not asyncio.get_running_loop():
        let_go()
        _rooms = Rooms()
    return _rooms


def let_go() -> None:
    """Forget the registry and end its connections, from any thread (a test's loop has ended)."""
    global _rooms
    end_connections()
    _rooms = None


def end_connections() -> None:
    """End the registry's connections, from any thread; its rooms open new ones when they next
    store (the database restarted under them)."""
    if _rooms is not None:
        _rooms.connections.close()


def current() -> Rooms | None:
    """The registry, if a loop made one (tests close its connections in that loop)."""
    return _rooms
