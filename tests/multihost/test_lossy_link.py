"""A slow, lossy link between the application hosts and the data host: 50 ± 10 ms of delay
on what the application hosts send it and 1 % of the packets lost each way (tc netem). A
hand completes; the time from a player's action to its state on every socket is measured
and its p99 printed.

A kernel without netem (`tc qdisc add … netem` answers "unknown", as on some VMs) gets the
loss alone, from iptables' statistic match, and the test says so: no other queueing
discipline delays packets."""

import statistics
import time

from asgiref.sync import sync_to_async

from tests.conftest import make_table
from tests.multihost.checks import DONE, assert_whole
from tests.multihost.conftest import host_of, open_clients
from tests.table_driver import play_until


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
    delayed = await sync_to_async(site.slow_data_links)(50, 10, 0.01)
    table = await sync_to_async(make_table)(players[0], players=players)
    clients = await open_clients(site, table, players)
    assert {host_of(client) for client in clients} == {"app1", "app2"}
    sent_at: dict[int, float] = {}

    async def on_turn(table, _game, _seat, _message):
        sent_at.setdefault(table.version + 1, time.monotonic())  # a resend keeps the first time

    await clients[0].send({"action": "start_match", "version": table.version})
    table, game = await play_until(
        clients, table.pk, lambda g: g.phase in DONE, timeout=150, resend_after=3.0, on_turn=on_turn
    )
    assert game.result["hand_no"] == 1
    measured = latencies({v: t for v, t in sent_at.items() if v <= table.version}, clients)
    assert len(measured) >= 4 * 20
    p50, p99 = statistics.quantiles(measured, n=100)[49], statistics.quantiles(measured, n=100)[98]
    print(
        f"\n{'50 ± 10 ms and ' if delayed else 'no delay (no netem here), '}1 % loss each way between "
        "application and data hosts: action → every socket "
        f"p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, max {max(measured) * 1000:.0f} ms "
        f"({len(measured)} deliveries)"
    )
    await assert_whole(site, table.pk, clients, players)
