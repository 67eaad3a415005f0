"""The site across several hosts (tests/multihost/topology.py), each fault mid-hand with a
table's four sockets spread over both application hosts and a bot table playing beside it:

- an application host vanishes (its links down, then every process killed), or is cut off
  from Redis for 10 s while its players still reach it;
- the data host's primaries lost, one at a time: Redis (Sentinel promotes its replica) and
  PostgreSQL (its synchronous standby promoted with `pg_ctl promote`);
- a slow, lossy link between the application hosts and the data host: 50 ± 10 ms each way
  (a relay on the data host that their connections to it go through, as this kernel may have
  no netem) and 1 % of their packets lost each way (iptables' statistic match).

Each ends with every accepted action stored exactly once, no table stalled, and every socket
showing what a fresh socket of its seat is shown (tests/multihost/checks.py). One file: the
topology has fixed names and addresses, and pytest-xdist's `--dist loadfile` (.ci/test)
keeps a file on one worker."""

import asyncio
import statistics
import time

from asgiref.sync import sync_to_async

from games.models import TableEvent
from tests.conftest import make_table, make_user
from tests.multihost.checks import (
    DONE,
    BotTable,
    assert_whole,
    eventually,
    log_rows,
    logged_at,
    once_only_move,
)
from tests.multihost.conftest import connections_died, host_of, open_client, open_clients
from tests.multihost.topology import APPS
from tests.table_driver import load, play_until

# --- an application host lost ---------------------------------------------------------

# A vanished host is noticed by the front when it has read nothing from it for 5 s (its
# hosts ping each quiet socket every 2 s: front.conf); the page backs off 0.5 s and the front
# skips the dead host after a 1 s connect timeout: every socket is back on the other host by then.
RECONNECT_BOUND_S = 10.0


async def test_an_application_host_vanishes_its_sockets_and_the_table_clock_go_to_the_other(site, players):
    table = await sync_to_async(make_table)(players[0], players=players, pace_ms=40, window_ms=200)
    clients = await open_clients(site, table, players)
    assert {host_of(client) for client in clients} == {"app1", "app2"}
    # Only the doomed host keeps the table's sockets, so only its clock deals.
    away = [seat for seat, client in enumerate(clients) if host_of(client) == "app2"]
    for seat in away:
        await clients[seat].close()
    doomed = [clients[seat] for seat in range(4) if seat not in away]
    await doomed[0].send({"action": "start_match", "version": table.version})
    await asyncio.sleep(1.0)  # mid-deal (4 s at 40 ms a card)
    assert (await load(table.pk))[1].phase == "deal"

    bots = await BotTable.start(site, players[0], await sync_to_async(make_user)("watcher"))
    bots_at = await bots.version()
    gone = time.monotonic()
    await sync_to_async(site.host_gone)("app1")
    for seat in away:  # those players come back, too
        clients[seat] = await open_client(site, table.pk, players[seat])
    await eventually(
        lambda: all(len(c.connected_at) >= 2 and c.received[c.connected_at[-1] :] for c in doomed),
        timeout=30,
        what="the reconnection of the vanished host's sockets",
    )
    back = time.monotonic() - gone
    assert back < RECONNECT_BOUND_S
    # The survivor's clock ends the deal, fixes trump once, and the hand goes on there.
    table, _game = await play_until(clients, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
    assert all(host_of(client) == "app2" for client in clients)
    fixes = await sync_to_async(TableEvent.objects.filter(table_id=table.pk, action__type="fix_trump").count)()
    assert fixes == 1
    print(f"\nan application host vanished: its sockets were back on the other after {back:.1f} s")
    await assert_whole(site, table.pk, clients, players)
    await bots.assert_goes_on_and_whole(site, bots_at)


async def test_an_application_host_cut_off_from_redis_for_10_s_catches_up_by_version(site, players):
    table = await sync_to_async(make_table)(players[0], players=players)
    clients = await open_clients(site, table, players)
    assert {host_of(client) for client in clients} == {"app1", "app2"}
    await clients[0].send({"action": "start_match", "version": table.version})
    table, _game = await play_until(clients, table.pk, lambda g: g.phase == "play" and len(g.tricks) >= 1)
    cut_off = [client for client in clients if host_of(client) == "app1"]
    bots = await BotTable.start(site, players[0], await sync_to_async(make_user)("watcher"))
    bots_at = await bots.version()

    await sync_to_async(site.cut_from_redis)("app1")
    cut = time.monotonic()
    try:
        # Play on for 10 s through whichever socket each player has (a move sent while a
        # socket is down is sent again, as a player would).
        table, _game = await play_until(
            clients, table.pk, lambda g: time.monotonic() - cut >= 10 or g.phase in DONE, timeout=30, resend_after=1.0
        )
        # The cut host noticed it had lost its channel layer and closed its sockets (the
        # pages reconnect and resync by version); none was left showing a stale table.
        assert all(client.closes for client in cut_off)
    finally:
        await sync_to_async(site.cut_from_redis)("app1", False)
    healed = time.monotonic()
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "state" and m["version"] >= table.version, timeout=20)
    caught_up = time.monotonic() - healed
    await sync_to_async(site.wait_serving)("app1")  # its channel layer back: it takes sockets again
    serving = time.monotonic() - healed
    table, _game = await play_until(clients, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
    print(
        f"\nan application host cut off from Redis for 10 s: every socket at the latest version {caught_up:.1f} s "
        f"after the heal; the host took sockets again {serving:.1f} s after it"
    )
    await assert_whole(site, table.pk, clients, players)
    await bots.assert_goes_on_and_whole(site, bots_at)


# --- the data host's primaries lost -------------------------------------------------------


def midhand(g) -> bool:
    return g.phase == "play" and len(g.tricks) >= 2


async def start_on_both_hosts(site, players, **options):
    """A people's table mid-hand, its sockets on both hosts, and a bot table playing."""
    table = await sync_to_async(make_table)(players[0], players=players, **options)
    clients = await open_clients(site, table, players)
    assert {host_of(client) for client in clients} == {"app1", "app2"}  # the front spread them
    bots = await BotTable.start(site, players[0], await sync_to_async(make_user)("watcher"))
    await clients[0].send({"action": "start_match", "version": table.version})
    table, game = await play_until(clients, table.pk, midhand)
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


# --- a slow, lossy link to the data host ---------------------------------------------------

DELAY_MS, JITTER_MS = 50, 10


def latencies(sent_at: dict[int, float], clients) -> list[float]:
    """For each player's action (the version it made) and each socket: from the send to the
    first state of that version or later on the socket."""
    found = []
    for version, sent in sent_at.items():
        for client in clients:
            arrived = [
                at
                for message, at in zip(client.received, client.received_at, strict=True)
                if message["type"] == "state" and message["version"] >= version and at >= sent
            ]
            if arrived:
                found.append(arrived[0] - sent)
    return found


async def test_a_hand_completes_over_slow_lossy_links_to_the_data_host(site, players):
    before = await sync_to_async(site.round_trip_ms)("app1")
    await sync_to_async(site.slow_data_links)(DELAY_MS, JITTER_MS, 0.01)
    # The delay is really there: a query's round trip from each application host gained
    # two delays (the median of a few: a lost packet costs a retransmission), and a busy
    # machine (two hosts just started on two cores) may add some to the relay's.
    after = {app: await sync_to_async(site.round_trip_ms)(app) for app in APPS}
    for app, round_trip in after.items():
        assert 2 * (DELAY_MS - JITTER_MS) <= round_trip - before <= 2 * (DELAY_MS + JITTER_MS) + 100, (app, round_trip)
    table = await sync_to_async(make_table)(players[0], players=players)
    clients = await open_clients(site, table, players)
    assert {host_of(client) for client in clients} == {"app1", "app2"}
    sent_at: dict[int, float] = {}

    async def on_turn(table, _game, _seat, _message):
        sent_at.setdefault(table.version + 1, time.monotonic())  # a resend keeps the first time

    await clients[0].send({"action": "start_match", "version": table.version})
    table, game = await play_until(
        clients, table.pk, lambda g: g.phase in DONE, timeout=240, resend_after=3.0, on_turn=on_turn
    )
    assert game.result["hand_no"] == 1
    measured = latencies({v: t for v, t in sent_at.items() if v <= table.version}, clients)
    assert len(measured) >= 4 * 20
    p50, p99 = statistics.quantiles(measured, n=100)[49], statistics.quantiles(measured, n=100)[98]
    print(
        f"\n{DELAY_MS} ± {JITTER_MS} ms each way and 1 % loss each way between application and data hosts "
        f"(SELECT 1 from an application host: {before:.2f} ms, then "
        f"{' / '.join(f'{ms:.1f}' for ms in after.values())} ms): action → every socket "
        f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {max(measured) * 1000:.0f} ms "
        f"({len(measured)} deliveries)"
    )
    await assert_whole(site, table.pk, clients, players)
