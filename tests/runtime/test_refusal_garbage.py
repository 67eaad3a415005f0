"""A refused write leaves no cyclic garbage behind.

Two server processes race for every clock step of a table they both have sockets of, so
one step in two is refused as stale. Each refusal crossed the thread hand-off of
`database_sync_to_async` with its traceback, and that traceback held the hand-off's frames
in a reference cycle with their futures: garbage that only a full collection frees, which
piled up between full collections and fragmented the servers' memory (the soak,
docs/performance.md).
"""

import gc

import pytest
from asgiref.sync import sync_to_async

from games.engine import Refusal
from games.runtime import runner
from games.runtime.actor import TableActor
from tests.conftest import make_table

pytestmark = pytest.mark.django_db(transaction=True)


async def _refused_codes(table, user, times):
    codes, actor = [], TableActor(table.pk, turns=runner.BotTurns(), connections=None)
    for _ in range(times):
        try:
            await actor.act(action={"type": "start_match"}, expected_version=table.version + 7, user=user)
        except Refusal as refused:
            codes.append(refused.code)
    return codes


def _cyclic_garbage() -> list:
    """What a full collection finds unreachable now, kept for a look (then let go)."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_a_refused_write_leaves_its_exception_to_reference_counting(players):
    table = await sync_to_async(make_table)(players[0], players=players)
    await _refused_codes(table, players[0], 1)  # warm: first-use caches are no garbage
    gc.collect()
    gc.disable()
    try:
        codes = await _refused_codes(table, players[0], 5)
        garbage = _cyclic_garbage()
    finally:
        gc.enable()
    assert codes == ["stale_version"] * 5
    refusals = [o for o in garbage if isinstance(o, Refusal)]
    hand_off_frames = [
        o.f_code.co_qualname
        for o in garbage
        if type(o).__name__ == "frame" and o.f_code.co_qualname in ("table_act", "table_act_async", "TableActor.act")
    ]
    del garbage
    assert refusals == []
    assert hand_off_frames == []


async def test_a_socket_that_hangs_up_leaves_its_tasks_to_reference_counting(players):
    """A hung-up socket's heartbeat tasks end cancelled; their CancelledError (and the
    frames in its traceback) must not stay in a cycle with the consumer, nor the consumer
    with its room."""
    from tests.conftest import make_user, ws_client

    table = await sync_to_async(make_table)(players[0], players=players)
    watcher = await sync_to_async(make_user)("watcher")
    for _ in range(2):  # the first one warms what is made once
        client = await ws_client(f"/ws/table/{table.pk}/", watcher)
        await client.communicator.receive_json_from(timeout=5)  # its first state
        gc.collect()
        gc.disable()
        try:
            await client.communicator.disconnect()
            garbage = _cyclic_garbage()
        finally:
            gc.enable()
    cancelled = [o for o in garbage if isinstance(o, BaseException)]
    left = [type(o).__name__ for o in garbage if type(o).__name__ in ("TableConsumer", "Reader", "TableRoom")]
    del garbage
    assert cancelled == []
    assert left == []  # the socket, its reader and its room: let go by reference counting
