"""Turn time limit: a player who runs out of time is played by a bot until they return."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games.models import Seat, TableEvent
from tests.conftest import make_table, ws_client
from tests.table_driver import play_until

pytestmark = pytest.mark.django_db(transaction=True)


async def test_timed_out_seat_is_autoplayed_until_the_player_returns(players, fast_clock):
    # One second instead of the offered 15/30/60 s: the same clock path, a faster test.
    table = await sync_to_async(make_table)(players[0], players=players, turn_limit_s=1)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players]
    await clients[0].send({"action": "start_match", "version": table.version})
    table, game = await play_until(clients, table.pk, lambda g: g.phase == "play" and len(g.tricks) >= 1)
    absent = game.turn
    await clients[absent].close()

    async def autoplayed():
        for _ in range(250):
            rows = await sync_to_async(list)(
                TableEvent.objects.filter(table_id=table.pk, seq__gt=table.version, source="bot", action__seat=absent)
            )
            if rows:
                return rows
            await asyncio.sleep(0.02)
        return []

    rows = await autoplayed()
    # The absent seat's time-out is the first move after it left, made by the bot.
    first_after = await sync_to_async(
        lambda: TableEvent.objects.filter(table_id=table.pk, seq__gt=table.version).first()
    )()
    assert rows and first_after.action["seat"] == absent and first_after.source == "bot"
    assert await sync_to_async(Seat.objects.get)(table=table, position=absent, autoplay=True)
    back = await ws_client(f"/ws/table/{table.pk}/", players[absent])
    await back.receive()
    for _ in range(100):
        if not (await sync_to_async(Seat.objects.get)(table=table, position=absent)).autoplay:
            break
        await asyncio.sleep(0.02)
    assert not (await sync_to_async(Seat.objects.get)(table=table, position=absent)).autoplay
    for client in clients + [back]:
        if client is not clients[absent]:
            await client.close()
