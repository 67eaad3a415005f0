"""Ready after a hand's result (games/runtime/readiness.py), through real websockets: once
every person at the table said ready the next hand starts at once, bots never make anyone
wait, and a Ready that may not count is refused with a clear error and changes nothing."""

import pytest
from asgiref.sync import sync_to_async

from games.models import Seat, Table, TableEvent
from games.runtime import writer
from tests.conftest import make_table, make_user, ws_client
from tests.table_driver import assert_log_whole, drive, load

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def scored_table():
    """North and South are people, East and West bots; hand 1 is played to its result."""
    north, south = make_user("north"), make_user("south")
    table = make_table(north, players=(north, None, south, None))
    Seat.objects.filter(table=table, position__in=(1, 3)).update(bot="basic")
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=table.version, user=north)
    drive(table.pk, {0: north, 2: south}, lambda game: game.phase == "scored")
    return table, north, south


@sync_to_async
def snapshot(table_id):
    table = Table.objects.get(pk=table_id)
    return table.version, table.state, TableEvent.objects.filter(table_id=table_id).count()


async def refused(client, payload, code, table_id):
    before = await snapshot(table_id)
    await client.send(payload)
    message = await client.receive_until(lambda m: m["type"] == "error")
    assert message["code"] == code, message
    assert message["message"]  # a sentence for the person, not only a code
    assert await snapshot(table_id) == before, "a refused Ready changed the table"


async def state_after(client, version):
    return await client.receive_until(lambda m: m["type"] == "state" and m["version"] > version)


async def test_the_next_hand_starts_once_every_person_is_ready(fast_clock):
    table, north, south = await scored_table()
    path = f"/ws/table/{table.pk}/"
    clients = [await ws_client(path, north), await ws_client(path, south)]
    watcher = await ws_client(path, await sync_to_async(make_user)("watcher"))
    for client in (*clients, watcher):
        first = await client.receive()
        assert first["type"] == "state"
        # A seat's result offers Ready beside its countdown; a spectator's does not.
        assert ('data-testid="ready"' in first["html"]["center"]) is (client is not watcher)
    table, game = await load(table.pk)
    hand = game.hand_no

    await refused(watcher, {"action": "ready", "hand": hand}, "not_seated", table.pk)
    await refused(clients[0], {"action": "ready", "hand": hand - 1}, "not_this_hand", table.pk)
    await refused(clients[0], {"action": "ready", "hand": "one"}, "not_this_hand", table.pk)

    await clients[0].send({"action": "ready", "hand": hand})
    pushed = await state_after(clients[0], table.version)
    assert 'data-testid="ready"' in pushed["html"]["center"] and "aria-pressed" in pushed["html"]["center"]
    assert "south" in pushed["html"]["center"]  # who the next hand waits for
    table, game = await load(table.pk)
    assert game.phase == "scored" and game.hand_no == hand, "one person's Ready does not end the pause"
    await refused(clients[0], {"action": "ready", "hand": hand}, "already_ready", table.pk)

    await clients[1].send({"action": "ready", "hand": hand})
    await state_after(clients[1], table.version)
    table, game = await load(table.pk)
    assert game.hand_no == hand + 1 and game.phase in ("deal", "last_chance"), "the last Ready starts the hand"
    # Between the hands' records the log holds the two Readies, and still folds to the snapshot.
    await assert_log_whole(table.pk)
    kinds = await sync_to_async(list)(
        TableEvent.objects.filter(table_id=table.pk).order_by("seq").values_list("action__type", flat=True)
    )
    second = len(kinds) - 1 - kinds[::-1].index("start_hand")
    assert kinds[second - 2 : second] == ["ready", "ready"], kinds[second - 4 :]

    # A Ready while the hand is dealt: there is no result to be ready for.
    await refused(clients[0], {"action": "ready", "hand": hand + 1}, "not_between_hands", table.pk)
    for client in (*clients, watcher):
        await client.close()
