"""A table's clock: submits its timed steps (deal end, last-chance window, bots, time-outs,
next hand) through its table's actor (games/runtime/actor.py), like any other command.

Each table's actor has one; it runs while the table has sockets in the process (its room,
games/web/room.py, starts and stops it), or for every playing table under `manage.py runtables`.
The clock only *submits* due steps with the version it read, so when several processes (or a
restarted one) race, exactly one submission is applied and the rest are refused as stale:
correctness never depends on this in-process state (STYLE pitfall 7).
"""

import asyncio
import contextlib
import logging
import weakref
from typing import Protocol

from django.utils import timezone

from games.engine import Refusal
from games.models import Table
from games.runtime import clock, play, table_state, thinking, writer
from games.runtime.commands import Issuer


class Actor(Protocol):
    """What a clock needs of its table's actor (games/runtime/actor.py, which owns the clock)."""

    table_id: int

    async def latest(self, at_least: int | None) -> table_state.LoadedTable | None: ...

    async def act(self, *, action: dict, expected_version: int | None, issuer: Issuer) -> writer.Outcome: ...


log = logging.getLogger(__name__)
IDLE_RECHECK_S = 30.0
BOT_MOVES_AT_ONCE = 2  # one thinking while another's write waits for the database
BUSY_LOOP_S = 0.005  # a turn of the event loop that takes longer has pushes queued
BUSY_LOOP_WAIT_S = 0.5  # ...but bots never wait longer than this for it (they must move on)


class BotTurns:
    """Bots take turns, and the next moves only once the event loop keeps up again: one per
    event loop, shared by its tables' clocks.

    Bot moves are the load that can wait: a saturated process would otherwise queue the
    pushes of every accepted action (the latency people see) behind ever more bot moves
    (docs/performance.md). People's actions and the other timed steps never wait here."""

    def __init__(self) -> None:
        self.gate = asyncio.Semaphore(BOT_MOVES_AT_ONCE)

    @contextlib.asynccontextmanager
    async def turn(self, is_bot: bool):
        if not is_bot:
            yield False
            return
        loop = asyncio.get_running_loop()
        async with self.gate:
            yield True
            give_up = loop.time() + BUSY_LOOP_WAIT_S
            while loop.time() < give_up:  # sleep(0) returns after everything queued before it ran
                started = loop.time()
                await asyncio.sleep(0)
                if loop.time() - started < BUSY_LOOP_S:
                    break


class TableClock:
    """One table's timed steps in this process: sleeps until the next due time (or until it
    hears of a newer version, `on_version`) and submits the step with the version it holds,
    through its table's actor."""

    def __init__(self, actor: Actor, turns: BotTurns) -> None:
        # Weakly: the actor holds its clock, and a cycle between them would leave every closed
        # room to a full collection (tests/runtime/test_refusal_garbage.py).
        self._actor = weakref.ref(actor)
        self.table_id = actor.table_id
        self.turns = turns
        self.version = 0  # the latest version this clock knows the table reached
        self.wakeup = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.running = False

    def start(self, read_version: int | None = None) -> None:
        """Run from now on (`read_version`: the version just read from the database, so the
        clock need not read it again to start)."""
        self.running = True
        if self.task is not None and not self.task.done():
            return  # still finishing its last step: it goes on
        if read_version is not None:
            self.on_version(read_version)
        self.task = asyncio.get_running_loop().create_task(self._run(must_read=read_version is None))

    def stop(self) -> None:
        """Stop after the step in hand (never cancelled in the middle of a write, whose news
        would then be lost)."""
        self.running = False
        self.wakeup.set()

    def on_version(self, version: int | None = None) -> None:
        """The table changed (now at `version`, when known): look again at what falls due. A
        version heard before is no news."""
        if version is not None:
            if version <= self.version:
                return
            self.version = version
        self.wakeup.set()

    async def _sleep_or_woken(self, seconds: float) -> bool:
        """Wait `seconds` or until told of a change; True when told."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wakeup.wait(), timeout=max(0.0, seconds))
        woken = self.wakeup.is_set()
        self.wakeup.clear()
        return woken

    @property
    def actor(self) -> Actor:
        actor = self._actor()
        if actor is None:  # (a clock runs only while its actor's room or runtables holds it)
            raise RuntimeError(f"table {self.table_id}: the clock outlived its actor")
        return actor

    async def _run(self, must_read: bool) -> None:
        looked = None  # (version, cards dealt): the bots looked then and did not declare
        while self.running:
            try:
                # The newest version this clock has heard of, as its actor holds it.
                loaded = await self.actor.latest(None if must_read else self.version)
                must_read = False
                step = _next_step(loaded, timezone.now(), looked)
                if step is None or loaded is None:  # no table, no step
                    # Nothing falls due: wait for news. After a quiet spell read the table again,
                    # in case news was lost on the way (group sends are at-most-once).
                    must_read = not await self._sleep_or_woken(IDLE_RECHECK_S)
                    continue
                delay = (step.due - timezone.now()).total_seconds()
                if delay > 0:
                    await self._sleep_or_woken(delay)
                    continue  # look again: the table may have moved on meanwhile
                if step.action is None:
                    continue  # a time to look again (e.g. bots checking their cards mid-deal)
                outcome = await self._submit(loaded, step)
                if outcome is None:  # no bot declares now: look again at the next look (clock.due_step)
                    if step.look is not None:
                        looked = (loaded.version, step.look)
                    else:
                        await asyncio.sleep(0.05)
                    continue
                self.on_version(outcome.version)
                # Its own change woke it on the way, and it looks at the newest version it heard of now anyway.
                self.wakeup.clear()
            except Refusal as rejected:
                current = rejected.params.get("current")
                if rejected.code == "stale_version" and isinstance(current, int):  # someone got there first
                    self.on_version(current)
                await asyncio.sleep(0.05)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: clock step failed", self.table_id)
                await asyncio.sleep(1.0)

    async def _submit(self, loaded, step) -> writer.Outcome | None:
        """Submit the due step; a bot's move is decided first (None: no bot declares now)."""
        action = step.action
        is_bot = action["type"] in play.BOT_STEPS
        question = thinking.question(loaded=loaded, step_action=action, now=timezone.now()) if is_bot else None
        # A searching bot thinks in a worker process (games/runtime/thinking.py) before it
        # takes its turn: its thinking costs this process nothing, so it holds no turn.
        move = await thinking.decide(question) if question is not None and thinking.pooled(question) else None
        async with self.turns.turn(is_bot):
            if question is not None:
                if not thinking.pooled(question):
                    # Not pooled (a quick level, or no thinkers): decided now, before the write.
                    move = await thinking.decide(question)
                action = {**action, "move": move} if move is not None else None
            if action is None:
                return None
            return await self.actor.act(action=action, expected_version=loaded.version, issuer=step.issuer)


def _next_step(loaded, now, looked: tuple[int, int] | None):
    """The table's next due step; `looked`: (version, cards dealt) at which the bots last
    looked at their cards and declined to declare."""
    table = loaded.table if loaded else None
    if table is None or table.status != Table.Status.PLAYING or loaded.game is None:
        return None
    looked_here = looked[1] if looked is not None and looked[0] == loaded.version else None
    return clock.due_step(table, loaded.game, loaded.seats, now, looked=looked_here)
