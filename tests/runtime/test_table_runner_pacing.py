"""Bots wait for the event loop: under load their moves queue, not the pushes people see."""

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async

from games.runtime import runner, table_state
from games.runtime.actor import TableActor
from tests.conftest import make_table


async def test_bots_take_turns_and_yield_to_a_busy_loop(monkeypatch):
    monkeypatch.setattr(runner, "BOT_MOVES_AT_ONCE", 1)
    turns = runner.BotTurns()
    timeline = []

    async def busy_pushes():
        # Stand-in for the pushes an accepted move sets off: several turns of the loop,
        # each longer than BUSY_LOOP_S.
        for _ in range(5):
            time.sleep(2 * runner.BUSY_LOOP_S)
            await asyncio.sleep(0)
        timeline.append("pushes done")

    async def bot(name, then=None):
        async with turns.turn(True) as is_bot:
            assert is_bot
            timeline.append(f"{name} moves")
            if then:
                asyncio.get_running_loop().create_task(then())

    first = asyncio.create_task(bot("first", then=busy_pushes))
    await asyncio.sleep(0)
    second = asyncio.create_task(bot("second"))
    await asyncio.gather(first, second)

    assert timeline == ["first moves", "pushes done", "second moves"]


async def test_other_steps_never_wait_for_the_bots(monkeypatch):
    monkeypatch.setattr(runner, "BOT_MOVES_AT_ONCE", 1)
    turns = runner.BotTurns()
    release = asyncio.Event()

    async def thinking_bot():
        async with turns.turn(True):
            await release.wait()

    bot = asyncio.create_task(thinking_bot())
    await asyncio.sleep(0)
    async with turns.turn(False) as is_bot:  # e.g. the end of the deal, a time-out
        assert not is_bot
        entered_while_bot_thinks = not bot.done()
    release.set()
    await bot
    assert entered_while_bot_thinks


async def test_a_loop_that_never_keeps_up_only_slows_the_bots(monkeypatch):
    monkeypatch.setattr(runner, "BOT_MOVES_AT_ONCE", 1)
    monkeypatch.setattr(runner, "BUSY_LOOP_WAIT_S", 0.1)
    turns = runner.BotTurns()
    stop = asyncio.Event()

    async def endless_pushes():
        while not stop.is_set():
            time.sleep(2 * runner.BUSY_LOOP_S)
            await asyncio.sleep(0)

    loop = asyncio.get_running_loop()
    moved_at = []

    async def bot():
        async with turns.turn(True):
            moved_at.append(loop.time())

    pushing = asyncio.create_task(endless_pushes())
    try:
        # Two moves in a row: the second waits for the first's bounded wait, then moves.
        await asyncio.wait_for(asyncio.gather(bot(), bot()), timeout=5)
    finally:
        stop.set()
        await pushing
    assert len(moved_at) == 2
    # The second bot was held back by the first one's wait for the busy loop, and that
    # wait gave up after BUSY_LOOP_WAIT_S (the loop never kept up) instead of forever.
    assert moved_at[1] - moved_at[0] >= runner.BUSY_LOOP_WAIT_S * 0.9


@pytest.mark.django_db(transaction=True)
async def test_a_clock_started_by_a_socket_does_not_read_the_table_again(players, monkeypatch):
    table = await sync_to_async(make_table)(players[0], players=players)
    actor = TableActor(table.pk, turns=runner.BotTurns(), connections=None)
    actor.keep(await sync_to_async(table_state.read)(table.pk))  # what the entering socket read
    reads = []
    monkeypatch.setattr(table_state, "read", lambda table_id: reads.append(table_id))
    table_clock = actor.clock
    table_clock.start(actor.held.version)
    try:
        for _ in range(5):
            await asyncio.sleep(0.01)
        assert reads == []  # it started from the version the socket had just read
    finally:
        table_clock.stop()
