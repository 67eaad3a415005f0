"""The production stack (config/stack/: supervisord running nginx in front of two table
processes and a page process, DEBUG=0) plays a whole hand with four sockets spread over both
table processes, all through nginx, while pages come from the page process, and its analysis
worker analyses the hand; supervisord starts a killed process again and stops everything on
SIGTERM."""

import os
import time
import urllib.request
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command

from tests.analysis.test_analysis import BUDGET
from tests.conftest import make_table, session_cookie
from tests.servers import LiveClient, Stack
from tests.table_driver import assert_log_whole, play_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.fixture(scope="module")
def collected_static():
    call_command("collectstatic", interactive=False, verbosity=0)


@pytest.fixture
def stack(collected_static, db):
    # A table's sockets spread over both processes (no affinity), as after a failover.
    running = Stack(processes=2, STACK_TABLE_AFFINITY="0", GAMES_ANALYSIS_BUDGET=str(BUDGET)).start()
    yield running
    running.stop()


def _wait_analysed(table_id, timeout=120.0):
    from games.analysis.models import HandAnalysis

    deadline = time.monotonic() + timeout
    while HandAnalysis.objects.filter(hand__match__table_id=table_id, status="done").count() < 1:
        assert time.monotonic() < deadline, "the stack's analysis worker did not analyse the hand"
        time.sleep(0.5)


def fetch(stack, path):
    with urllib.request.urlopen(f"http://127.0.0.1:{stack.port}{path}", timeout=10) as response:
        return response.status, response.headers, response.read()


async def test_a_hand_through_nginx_on_two_processes(stack, players):
    # nginx serves the collected static files itself, and proxies pages to the page process.
    status, headers, body = await sync_to_async(fetch)(stack, "/static/js/table.js")
    assert status == 200 and b"WebSocket" in body and "X-Upstream" not in headers
    status, headers, _body = await sync_to_async(fetch)(stack, "/")
    assert status == 200 and headers["X-Upstream"] == stack.upstream_of("pages-1")
    assert "Secure" not in headers.get("Set-Cookie", "")  # plain http on this machine (serve.py)

    table = await sync_to_async(make_table)(players[0], players=players)
    clients = []
    for user in players:
        cookie = await sync_to_async(session_cookie)(user)
        clients.append(await LiveClient.open(stack, f"/ws/table/{table.pk}/", cookie))
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "state")
    # nginx put the four sockets on both table processes.
    assert {c.upstream for c in clients} == {stack.upstream_of("tables-1"), stack.upstream_of("tables-2")}

    await clients[0].send({"action": "start_match", "version": table.version})
    table, game = await play_until(clients, table.pk, lambda g: g.phase in ("scored", "finished"), timeout=120)
    assert game.result["hand_no"] == 1
    for client in clients:  # each socket, on either process, saw the last version
        await client.wait_for(lambda m: m["type"] == "state" and m["version"] == table.version, timeout=15)
    await assert_log_whole(table.pk)
    # The stack's analysis worker (a lower-priority child) analyses the scored hand.
    worker = stack.processes()["analysis-worker"]["pid"]
    assert int(Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()[16]) == min(os.nice(0) + 10, 19)
    await sync_to_async(_wait_analysed)(table.pk)
    for client in clients:
        await client.close()


async def test_a_tables_sockets_share_one_process_until_it_dies(collected_static, players):
    stack = Stack(processes=2).start()  # table affinity: the default
    try:
        one, other = stack.upstream_of("tables-1"), stack.upstream_of("tables-2")
        cookies = [await sync_to_async(session_cookie)(user) for user in players]
        tables = [await sync_to_async(make_table)(players[0], players=players)]
        tables += [await sync_to_async(make_table)(players[0]) for _ in range(11)]
        first = []
        for table in tables:  # one socket each: the tables hash to both processes
            first.append(await LiveClient.open(stack, f"/ws/table/{table.pk}/", cookies[0]))
        assert {c.upstream for c in first} == {one, other}
        table = tables[0]
        clients = [first[0]] + [
            await LiveClient.open(stack, f"/ws/table/{table.pk}/", cookie, reconnect=True) for cookie in cookies[1:]
        ]
        home = first[0].upstream
        assert [c.upstream for c in clients] == [home] * 4, "a table's sockets are on one process"
        lobby = [await LiveClient.open(stack, "/ws/lobby/", cookies[0]) for _ in range(2)]
        assert {c.upstream for c in lobby} == {one, other}, "other sockets go to the least busy table process"

        # Its process dies: the sockets come back on the other, which serves the table.
        for client in first[1:] + lobby:
            await client.close()
        before = [{id(m) for m in c.received} for c in clients]
        await sync_to_async(stack.kill)("tables-1" if home == one else "tables-2", for_good=True)
        clients[0] = await LiveClient.open(stack, f"/ws/table/{table.pk}/", cookies[0], reconnect=True)
        for client, old in zip(clients, before, strict=True):
            await client.wait_for(lambda m, old=old: m["type"] == "state" and id(m) not in old, timeout=30)
        assert {c.upstream for c in clients} == ({one, other} - {home})
        await clients[0].send({"action": "start_match", "version": table.version})
        for client in clients:
            await client.wait_for(lambda m: m["type"] == "state" and m["version"] > table.version, timeout=15)
        for client in clients:
            await client.close()
    finally:
        stack.stop()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"  # a zombie is gone too


def test_the_supervisor_restarts_a_dead_process_and_stops_everything(collected_static, db):
    stack = Stack(processes=2, pages=2).start()
    try:
        before = stack.processes()
        assert set(before) == {"tables-1", "tables-2", "pages-1", "pages-2", "analysis-worker", "events", "nginx"}
        stack.kill("pages-1")
        deadline = time.monotonic() + 30
        while (now := stack.processes()["pages-1"])["statename"] != "RUNNING" or now["pid"] == before["pages-1"]["pid"]:
            assert time.monotonic() < deadline, "the killed process was not started again"
            time.sleep(0.1)
        # nginx reaches the new process (least_conn: both page processes get requests), and
        # only the page processes answer pages.
        served = set()
        while len(served) < 2:
            assert time.monotonic() < deadline, f"only {served} answered"
            try:
                served.add(fetch(stack, "/")[1]["X-Upstream"].split(", ")[-1])
            except OSError:
                time.sleep(0.2)  # the new process is still starting
        assert served == {stack.upstream_of("pages-1"), stack.upstream_of("pages-2")}
        children = [entry["pid"] for entry in stack.processes().values()]
    finally:
        stack.stop()
    assert stack.process.returncode == 0
    assert not [pid for pid in children if alive(pid)]


@pytest.mark.events
def test_the_stacks_events_process_starts_a_round_that_is_due(collected_static, db):
    """`manage.py events` runs in the stack (STACK_EVENTS, default on): an event whose start
    has come gets its first round without anyone asking."""
    from datetime import timedelta

    from django.utils import timezone

    from games.duplicate.models import Event, EventRound
    from tests.conftest import make_user
    from tests.duplicate.events import an_event, pairs_entered

    event = an_event(name="Stack night")
    pairs_entered(event, [make_user(f"{side}{i}") for i in range(3) for side in ("first", "second")])
    Event.objects.filter(pk=event.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    stack = Stack(processes=1, STACK_ANALYSIS_WORKER="0").start()
    try:
        assert "events" in stack.processes()
        deadline = time.monotonic() + 60
        while not EventRound.objects.filter(event=event, number=1).exists():
            assert time.monotonic() < deadline, "the stack's events process did not start the round"
            time.sleep(0.3)
    finally:
        stack.stop()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
