"""A table's actor in this process (lila's RoundAsyncActor): the one owner of the table's
live state here, and the one way this process changes the table.

It holds the table as last read or written here (`held`, games/runtime/table_state.py) and
the table's clock (games/runtime/runner.py). Every command this process issues for the
table (a socket's, the clock's, a bot's, an answered invitation's) goes through its
`mailbox`, one at a time: the write path (games/runtime/writer.py) runs on the held table
(an engine step on the event loop, stored by one statement; anything else in the process's
database thread), the written table becomes the held one, the actor's own
readers are told (`on_version`, which the web room extends with its pushes) and only then
are the other processes told, "changed, version N" (`publish`: to the table's group; a web
room tells it only when a room of the table listens in another process). A version
published by another process reaches `on_version` from the group and is read when someone
needs it.

Correctness never rests on this memory: every write carries the version it was judged on,
and the compare-and-set refuses it when another process got there first.
"""

import asyncio

from channels.db import database_sync_to_async

from games import events
from games.engine import Refusal
from games.runtime import runner, table_rows, table_state, writer
from games.runtime.commands import Issuer
from games.runtime.table_state import LoadedTable


class TableActor:
    def __init__(
        self, table_id: int, *, turns: runner.BotTurns, connections: table_rows.LoopConnections | None
    ) -> None:
        """`connections`: what the loop stores engine steps on, from whoever keeps its actors
        (None: every command goes through the database thread)."""
        self.table_id = table_id
        self.connections = connections
        self.group = events.table_group(table_id)
        self.held: LoadedTable | None = None
        self.version = 0  # the newest version this actor knows of
        self.mailbox = asyncio.Lock()  # (asyncio's lock wakes its waiters first come, first served)
        self.clock = runner.TableClock(self, turns)

    def keep(self, loaded: LoadedTable | None) -> None:
        """Hold `loaded` (committed) if it is at least as new as what is held."""
        if loaded is not None and (self.held is None or loaded.version >= self.held.version):
            self.held = loaded

    async def latest(self, at_least: int | None) -> LoadedTable | None:
        """The table at version `at_least` or later: the held one, else read (`at_least`
        None: always read). None: the table does not exist."""
        held = table_state.held_at_least(self.held, at_least)
        if held is not None:
            return held
        loaded = await database_sync_to_async(table_state.read)(self.table_id)
        self.keep(loaded)
        return loaded

    async def act(
        self, *, action: dict, expected_version: int | None, user=None, issuer: Issuer = Issuer.PLAYER
    ) -> writer.Outcome:
        """Issue one command through the mailbox; returns once this process's readers have
        been pushed the change and the other processes told of it. Raises the `Refusal`."""
        async with self.mailbox:
            try:
                outcome = await writer.table_act_async(
                    table_id=self.table_id,
                    action=action,
                    expected_version=expected_version,
                    user=user,
                    issuer=issuer,
                    held=self.held,
                    connections=self.connections,
                )
            except Refusal as refused:
                # A refusal is an answer, not a fault: nobody reads its traceback, and that
                # traceback holds the frames of the thread hand-off in a reference cycle with
                # their futures, garbage that only a full collection frees.
                raise refused.with_traceback(None) from None
            self.keep(outcome.table)
        await self.on_version(outcome.version)
        await self.publish(outcome.version)
        if outcome.lobby_visible:
            await events.send(group=events.LOBBY_GROUP, message=events.lobby_changed())
        return outcome

    async def publish(self, version: int) -> None:
        """Tell the table's rooms in the other processes (games/web/room.py) of a version
        written here. An actor that is not in the table's group cannot know who listens: it
        tells the group."""
        await events.send(group=self.group, message=events.table_changed(version))

    async def on_version(self, version: int) -> bool:
        """A new version of the table exists (written here, or heard from the group): the clock
        looks again at what falls due. A version heard before is old news: False."""
        if version <= self.version:
            return False
        self.version = version
        self.clock.on_version(version)
        return True
