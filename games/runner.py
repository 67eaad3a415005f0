"""Drives each table's timed steps (deal end, last-chance window, bots, time-outs, next hand).

Every server process runs one small task per table that has sockets in it. The task
only *submits* due steps through the write path with the version it read, so when
several processes (or a restarted one) race, exactly one submission is applied and
the rest are refused as stale: correctness never depends on this in-process state
(STYLE pitfall 7). A restarted server resumes a table's clock as soon as anyone
reconnects, or at once under `manage.py runtables`.
"""
import asyncio
import logging

from channels.db import database_sync_to_async
from django.utils import timezone

from games import clock, engine, services
from games.models import Table

log = logging.getLogger(__name__)
IDLE_RECHECK_S = 30.0

_sockets: dict[int, int] = {}
_tasks: dict[int, asyncio.Task] = {}
_wakeups: dict[int, asyncio.Event] = {}


def attach(table_id: int) -> None:
    _sockets[table_id] = _sockets.get(table_id, 0) + 1
    task = _tasks.get(table_id)
    if task is None or task.done():
        _wakeups[table_id] = asyncio.Event()
        _tasks[table_id] = asyncio.get_running_loop().create_task(_run(table_id))


def detach(table_id: int) -> None:
    _sockets[table_id] = _sockets.get(table_id, 1) - 1
    if _sockets[table_id] <= 0:
        _sockets.pop(table_id, None)
        poke(table_id)


def poke(table_id: int) -> None:
    """Something changed at the table: re-read what falls due next."""
    event = _wakeups.get(table_id)
    if event:
        event.set()


def _next_step(table_id):
    table = Table.objects.filter(pk=table_id, status=Table.Status.PLAYING).first()
    if table is None or table.state is None:
        return None
    game = engine.Game.from_json(table.state)
    step = clock.due_step(table, game, list(table.seats.order_by("position")), timezone.now())
    return None if step is None else (table.version, step)


async def _sleep_or_poke(table_id, seconds):
    wakeup = _wakeups[table_id]
    try:
        await asyncio.wait_for(wakeup.wait(), timeout=max(0.0, seconds))
    except TimeoutError:
        pass
    wakeup.clear()


async def _run(table_id: int) -> None:
    while _sockets.get(table_id, 0) > 0:
        try:
            found = await database_sync_to_async(_next_step)(table_id)
            if found is None:
                await _sleep_or_poke(table_id, IDLE_RECHECK_S)
                continue
            version, step = found
            delay = (step.due - timezone.now()).total_seconds()
            if delay > 0:
                await _sleep_or_poke(table_id, delay)
                continue  # re-read: the table may have moved on meanwhile
            if step.action is None:
                continue  # a time to look again (e.g. bots checking their cards mid-deal)
            action = step.action
            if action["type"] in services.BOT_STEPS:
                # Think in a worker thread of its own, not in the DB thread nor under the row lock.
                move = await database_sync_to_async(services.bot_decide, thread_sensitive=False)(
                    table_id=table_id, version=version, step_action=action,
                )
                if move is None:
                    await asyncio.sleep(0.05)
                    continue
                action = {**action, "move": move}
            await database_sync_to_async(services.table_act)(
                table_id=table_id, action=action, expected_version=version, source=step.source,
            )
        except services.ActionRejected:
            await asyncio.sleep(0.05)  # someone else (another process, a player) got there first
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: clock step failed", table_id)
            await asyncio.sleep(1.0)
    _tasks.pop(table_id, None)
