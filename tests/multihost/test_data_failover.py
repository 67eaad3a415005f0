"""The data host's primaries lost, one at a time, mid-hand, with a table's four sockets
spread over both application hosts: the Redis primary (Sentinel promotes its replica) and
the PostgreSQL primary (its synchronous standby promoted with `pg_ctl promote`)."""

import asyncio
import time

from asgiref.sync import sync_to_async

from tests.conftest import make_table, make_user
from tests.multihost.checks import DONE, BotTable, assert_whole, eventually, log_rows, logged_at, once_only_move
from tests.multihost.conftest import connections_died, host_of, open_clients
from tests.table_driver import play_until

MIDHAND = lambda g: g.phase == "play" and len(g.tricks) >= 2  # noqa: E731


async def start_on_both_hosts(site, players, **options):
    """A people's table mid-hand, its sockets on both hosts, and a bot table playing."""
    table = await sync_to_async(make_table)(players[0], players=players, **options)
    clients = await open_clients(site, table, players)
    assert {host_of(client) for client in clients} == {"app1", "app2"}  # the front spread them
    bots = await BotTable.start(site, players[0], await sync_to_async(make_user)("watcher"))
    await clients[0].send({"action": "start_match", "version": table.version})
    table, game = await play_until(clients, table.pk, MIDHAND)
    return table, game, clients, bots


async def test_the_redis_primary_lost_sentinel_promotes_its_replica_and_no_action_is_lost(site, players):
    table, game, clients, bots = await start_on_both_hosts(site, players)
    seat = game.turn
    move = once_only_move(game, seat)
    assert move is not None
    old = await sync_to_async(site.redis_primary)()

    # A move on its way as the primary goes: it is accepted (it needs only PostgreSQL).
    await clients[seat].send({**move, "version": table.version})
    bots_at = await bots.version()
    killed = time.monotonic()
    await sync_to_async(site.processes[f"redis-{old}"].kill)()
    while await sync_to_async(site.redis_primary)() == old:
        assert time.monotonic() - killed < 30, "the Sentinels did not promote the replica"
        await asyncio.sleep(0.2)
    promoted = time.monotonic() - killed

    # Every socket lost its host's channel layer, reconnected once through the front, and
    # read the table as it is (the layer now on the promoted replica).
    await eventually(
        lambda: all(len(c.connected_at) >= 2 and c.received[c.connected_at[-1] :] for c in clients),
        timeout=30,
        what="every socket's reconnection",
    )
    back = time.monotonic() - killed
    table, game = await play_until(clients, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
    # That very move is in the log once.
    assert len(await logged_at(table.pk, seat, move["cards"])) == 1
    print(f"\nRedis failover: replica promoted {promoted:.1f} s after the kill, every socket back after {back:.1f} s")
    await assert_whole(site, table.pk, clients, players)
    await bots.assert_goes_on_and_whole(site, bots_at)


async def test_the_postgres_primary_lost_actions_refused_then_resumed_on_the_promoted_standby(site, players):
    table, game, clients, bots = await start_on_both_hosts(site, players)
    # Everything so far was acknowledged: each socket was shown it.
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "state" and m["version"] == table.version)
    acknowledged = await log_rows(table.pk)

    bots_at = await bots.version()
    killed = time.monotonic()
    await sync_to_async(site.postgres["pg1"].kill)()
    await sync_to_async(connections_died)()  # this process's died with it

    # The gap: the move of the player to move gets a clear error; the socket stays open.
    seat = game.turn
    move = once_only_move(game, seat)
    assert move is not None
    sent = len(clients[seat].received)
    await clients[seat].send({**move, "version": table.version})
    error = await clients[seat].wait_for(lambda m: m["type"] == "error", timeout=15)
    assert error["code"] == "unavailable" and clients[seat].received.index(error) >= sent
    assert not clients[seat].closes
    refused = time.monotonic() - killed
    # Nothing half-applied: the standby, which has every commit, still shows that version.
    standby = site.postgres["pg2"]
    assert await sync_to_async(standby.query)(f"select version from games_table where id = {table.pk}") == str(
        table.version
    )

    await sync_to_async(standby.promote)()
    promoted = time.monotonic() - killed
    held = sum(map(len, game.hands))
    await play_until(clients, table.pk, lambda g: sum(map(len, g.hands)) < held, timeout=30, resend_after=1.0)
    resumed = time.monotonic() - killed  # the first card played on the new primary
    await play_until(clients, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
    # Every acknowledged action is on the new primary, as it was.
    assert (await log_rows(table.pk))[: len(acknowledged)] == acknowledged
    assert len(await logged_at(table.pk, seat, move["cards"])) <= 1  # refused in the gap, played once at most
    print(
        f"\nPostgreSQL failover: refused ({error['code']}) {refused:.1f} s after the kill, "
        f"standby promoted at {promoted:.1f} s, the next card played on it at {resumed:.1f} s"
    )
    await assert_whole(site, table.pk, clients, players)
    await bots.assert_goes_on_and_whole(site, bots_at)
