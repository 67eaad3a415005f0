"""Several real server processes sharing PostgreSQL and Redis; a server restart mid-hand."""

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async

from games.models import Table, TableEvent
from tests.conftest import make_table, session_cookie
from tests.servers import LiveClient, Server
from tests.table_driver import choose_action, fold_log, load, play_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


async def open_clients(servers_by_seat, table, players):
    clients = []
    for seat, user in enumerate(players):
        cookie = await sync_to_async(session_cookie)(user)
        clients.append(await LiveClient.open(servers_by_seat[seat], f"/ws/table/{table.pk}/", cookie))
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "state")
    return clients


@sync_to_async
def actions_of(table_id, kind):
    return [row.action for row in TableEvent.objects.filter(table_id=table_id, action__type=kind)]


async def test_two_processes_share_a_table_and_conflicts_apply_once(players):
    a, b = Server().start(), Server().start()
    try:
        table = await sync_to_async(make_table)(players[0], players=players)
        clients = await open_clients([a, a, b, b], table, players)
        await clients[0].send({"action": "start_match", "version": table.version})
        table, game = await play_until(clients, table.pk, lambda g: g.phase == "play" and len(g.tricks) >= 2)

        # The player to move has a second socket on the other process; two different
        # plays are sent at once, both against the same version: exactly one applies.
        seat = game.turn
        other_server = b if seat in (0, 1) else a
        twin = await LiveClient.open(
            other_server, f"/ws/table/{table.pk}/", await sync_to_async(session_cookie)(players[seat])
        )
        await twin.wait_for(lambda m: m["type"] == "state")
        first = choose_action(game, seat, random.Random(1))
        second = first
        for attempt in range(50):
            second = choose_action(game, seat, random.Random(100 + attempt))
            if sorted(second["cards"]) != sorted(first["cards"]):
                break
        await asyncio.gather(
            clients[seat].send({**first, "version": table.version}),
            twin.send({**second, "version": table.version}),
        )
        await asyncio.sleep(1.0)
        applied = await sync_to_async(
            lambda: list(
                TableEvent.objects.filter(
                    table_id=table.pk, seq__gt=table.version, action__type="play", action__seat=seat
                )
            )
        )()
        assert len(applied) == 1
        assert sorted(applied[0].action["cards"]) in (sorted(first["cards"]), sorted(second["cards"]))
        refusals = [m for c in (clients[seat], twin) for m in c.received if m["type"] == "error"]
        assert [m["code"] for m in refusals] == ["stale_version"]
        after_table, after_game = await load(table.pk)
        assert after_table.version >= table.version + 1
        assert sum(1 for s, _cards in after_game.trick or [] if s == seat) <= 1

        # Finish the hand across both processes; both clocks race, each timed step lands once.
        table, game = await play_until(clients, table.pk, lambda g: g.phase in ("scored", "finished"), timeout=90)
        assert len(await actions_of(table.pk, "fix_trump")) == 1
        assert len([x for x in await actions_of(table.pk, "deal") if x.get("upto") == 100]) <= 1
        # Every seat, whichever process it is on, saw the final version.
        for client in clients:
            await client.wait_for(lambda m: m["type"] == "state" and m["version"] == table.version)
        for client in clients + [twin]:
            await client.close()
    finally:
        a.kill()
        b.kill()


async def test_restarted_server_continues_the_table(players):
    server = Server().start()
    try:
        table = await sync_to_async(make_table)(players[0], players=players)
        clients = await open_clients([server] * 4, table, players)
        await clients[0].send({"action": "start_match", "version": table.version})
        table, game = await play_until(clients, table.pk, lambda g: g.phase == "play" and len(g.tricks) >= 4)
        await asyncio.sleep(0.3)
        server.kill()
        stored = await sync_to_async(Table.objects.get)(pk=table.pk)
        for client in clients:
            await client.close()

        server = Server(port=server.port).start()
        clients = await open_clients([server] * 4, table, players)
        # The reconnecting clients get exactly the stored state back.
        assert all(c.received[0]["version"] == stored.version for c in clients)
        table, game = await play_until(clients, table.pk, lambda g: g.phase in ("scored", "finished"), timeout=90)
        assert game.result["hand_no"] == 1
        assert await sync_to_async(fold_log)(table.pk) == table.state
        for client in clients:
            await client.close()
    finally:
        server.kill()
