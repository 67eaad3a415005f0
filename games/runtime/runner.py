"""Drives each table's timed steps (deal end, last-chance window, bots, time-outs, next hand).

Every server process runs one small task per table that has sockets in it. The task
only *submits* due steps through the write path with the version it read, so when
several processes (or a restarted one) race, exactly one submission is applied and
the rest are refused as stale: correctness never depends on this in-process state
(STYLE pitfall 7). A restarted server resumes a table's clock as soon as anyone
reconnects, or at once under `manage.py runtables`.
"""

import asyncio
import contextlib
import logging

from django.utils import timezone

from games.engine import Refusal
from games.models import Table
from games.runtime import clock, play, table_cache, thinking, writer

log = logging.getLogger(__name__)
IDLE_RECHECK_S = 30.0

_sockets: dict[int, int] = {}
_tasks: dict[int, asyncio.Task] = {}
_wakeups: dict[int, asyncio.Event] = {}
_heard: dict[int, int] = {}  # the latest version this process knows each table reached
BOT_MOVES_AT_ONCE = 2  # one thinking while another's write waits for the database
BUSY_LOOP_S = 0.005  # a turn of the event loop that takes longer has pushes queued
BUSY_LOOP_WAIT_S = 0.5  # ...but bots never wait longer than this for it (they must move on)
_bot_gates: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def attach(table_id: int, read_version: int | None = None) -> None:
    """A socket is at the table (`read_version`: the version it just read from the
    database, so the clock need not read it again to start)."""
    _sockets[table_id] = _sockets.get(table_id, 0) + 1
    task = _tasks.get(table_id)
    if task is None or task.done():
        _wakeups[table_id] = asyncio.Event()
        if read_version is not None:
            _hear(table_id, read_version)
        _tasks[table_id] = asyncio.get_running_loop().create_task(_run(table_id, must_read=read_version is None))


def detach(table_id: int) -> None:
    _sockets[table_id] = _sockets.get(table_id, 1) - 1
    if _sockets[table_id] <= 0:
        _sockets.pop(table_id, None)
        poke(table_id)


def poke(table_id: int, version: int | None = None) -> None:
    """Something changed at the table (now at `version`, when known): look again at what
    falls due. A version heard before is no news (every socket of the table pokes)."""
    if version is not None and not _hear(table_id, version):
        return
    event = _wakeups.get(table_id)
    if event:
        event.set()


def _hear(table_id: int, version: int) -> bool:
    if version <= _heard.get(table_id, 0):
        return False
    _heard[table_id] = version
    return True


def _next_step(loaded, now, looked: tuple[int, int] | None):
    """The table's next due step; `looked`: (version, cards dealt) at which the bots last
    looked at their cards and declined to declare."""
    table = loaded.table if loaded else None
    if table is None or table.status != Table.Status.PLAYING or loaded.game is None:
        return None
    looked_here = looked[1] if looked is not None and looked[0] == loaded.version else None
    return clock.due_step(table, loaded.game, loaded.seats, now, looked=looked_here)


async def _sleep_or_poke(table_id, seconds) -> bool:
    """Wait `seconds` or until poked; True when poked."""
    wakeup = _wakeups[table_id]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(wakeup.wait(), timeout=max(0.0, seconds))
    poked = wakeup.is_set()
    wakeup.clear()
    return poked


@contextlib.asynccontextmanager
async def _bot_turn(is_bot: bool):
    """Bots take turns, and the next moves only once the event loop keeps up again.

    Bot moves are the load that can wait: a saturated process would otherwise queue the
    pushes of every accepted action (the latency people see) behind ever more bot moves
    (docs/performance.md). People's actions and the other timed steps never wait here."""
    if not is_bot:
        yield False
        return
    loop = asyncio.get_running_loop()
    gate = _bot_gates.get(loop)
    if gate is None:
        _bot_gates.clear()  # a gate belongs to its loop (tests run many loops, a server one)
        gate = _bot_gates[loop] = asyncio.Semaphore(BOT_MOVES_AT_ONCE)
    async with gate:
        yield True
        give_up = loop.time() + BUSY_LOOP_WAIT_S
        while loop.time() < give_up:  # sleep(0) returns after everything queued before it ran
            started = loop.time()
            await asyncio.sleep(0)
            if loop.time() - started < BUSY_LOOP_S:
                break


async def _run(table_id: int, must_read: bool) -> None:
    looked = None  # (version, cards dealt): the bots looked then and did not declare
    while _sockets.get(table_id, 0) > 0:
        try:
            # The newest version this process has heard of, from memory when it holds it.
            loaded = await table_cache.latest(table_id, None if must_read else _heard.get(table_id, 0))
            must_read = False
            step = _next_step(loaded, timezone.now(), looked)
            if step is None or loaded is None:  # no table, no step
                # Nothing falls due: wait for news. After a quiet spell read the table again,
                # in case news was lost on the way (group sends are at-most-once).
                must_read = not await _sleep_or_poke(table_id, IDLE_RECHECK_S)
                continue
            delay = (step.due - timezone.now()).total_seconds()
            if delay > 0:
                await _sleep_or_poke(table_id, delay)
                continue  # look again: the table may have moved on meanwhile
            if step.action is None:
                continue  # a time to look again (e.g. bots checking their cards mid-deal)
            outcome = None
            action = step.action
            is_bot = action["type"] in play.BOT_STEPS
            question = thinking.question(loaded=loaded, step_action=action, now=timezone.now()) if is_bot else None
            # A searching bot thinks in a worker process (games/runtime/thinking.py) before it
            # takes its turn: its thinking costs this process nothing, so it holds no turn.
            move = await thinking.decide(question) if question is not None and thinking.pooled(question) else None
            async with _bot_turn(is_bot):
                if question is not None:
                    if not thinking.pooled(question):
                        # Not pooled (a quick level, or no thinkers): decided now, before the write.
                        move = await thinking.decide(question)
                    action = {**action, "move": move} if move is not None else None
                if action is not None:
                    outcome = await writer.table_act_async(
                        table_id=table_id,
                        action=action,
                        expected_version=loaded.version,
                        issuer=step.issuer,
                    )
            if outcome is None:  # no bot declares now: look again at the next look (clock.due_step)
                if step.look is not None:
                    looked = (loaded.version, step.look)
                else:
                    await asyncio.sleep(0.05)
                continue
            _hear(table_id, outcome.version)
            # Its own change poked it on the way (the hub pokes on every change it hands out),
            # and it looks at the newest version it heard of right now anyway.
            _wakeups[table_id].clear()
        except Refusal as rejected:
            current = rejected.params.get("current")
            if rejected.code == "stale_version" and isinstance(current, int):  # someone got there first: read it again
                _hear(table_id, current)
            await asyncio.sleep(0.05)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: clock step failed", table_id)
            await asyncio.sleep(1.0)
    _tasks.pop(table_id, None)
    _heard.pop(table_id, None)
