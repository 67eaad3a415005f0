"""Duplicate event benchmark: one event of N tables in one server process, bots driving.

    .venv/bin/python bench/events.py --tables 100 --seconds 120 [--split]

What it does (docs/events.md), with bench/live.py's machinery (its server process, its
websocket clients, its measures):
- sets up Django against DATABASE_URL / REDIS_URL as bench/live.py does (BENCH_* first);
- creates a public pairs event of one round, 2 × --tables pairs (4 × --tables bench users),
  all checked in, and starts its round through the services: --tables real tables, each
  playing the same boards; every person's seat is then played for them (autoplay, as after a
  time-out), so the server's bots drive every table at GAMES_BOT_DELAY_MS (about an action a
  second per table);
- starts ONE server process and opens four spectators' sockets per table (other bench
  users, with the table's invitation: a seated player's socket would take the seat back from
  the bot and leave it to the turn's time limit); with
  --split, the production stack's split (config/stack/): that process serves the sockets
  only, and a second one, a page process, serves the event page;
- once every table plays cards, for --seconds: the live-table figures of bench/live.py (each accepted action → a "state"
  of that version at every socket of its table; actions/s; server CPU per action), and the
  event page `/events/<id>/` (standings, the round's tables, entries) fetched over HTTP
  one request after another, its latency percentiles (target p99 < 50 ms), with how many
  board results the standings held by the end.
Bounded: a watchdog kills everything; loopback only. Exit status 0 when it ran, 2 when it
could not.
"""

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import live  # noqa: E402
from live_data import LOOPBACK, CannotRun, check_services, close_db, events_between, phases, setup_django  # noqa: E402
from live_measure import action_latencies, cpu_seconds, fmt, machine_busy, percentiles  # noqa: E402

TARGET_PAGE_P99_MS = 50.0


def make_event(tables: int):
    """A running event of `tables` tables; returns (event id, [(table id, invitation query, a
    spectator's cookie)])."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from live_data import make_users, session_cookie

    from games.duplicate import service
    from games.duplicate.models import Event, EventTable
    from games.models import Seat

    Event.objects.filter(name="Bench event").delete()  # an earlier run's (its tables stay, finished or not)
    organiser, _ = get_user_model().objects.get_or_create(username="bench-organiser", defaults={"is_staff": True})
    event = service.event_create(
        created_by=organiser,
        name="Bench event",
        kind="pairs",
        rounds=1,
        boards_per_round=2,
        round_minutes=60,
        starts_at=timezone.now() + timedelta(minutes=1),
    )
    users = make_users(8 * tables)
    players, watchers = users[: 4 * tables], iter(users[4 * tables :])
    for first, second in zip(players[::2], players[1::2], strict=True):
        service.event_register(event_id=event.pk, user=first, partner=second)
        service.event_partner_confirm(event_id=event.pk, user=second)
        service.event_check_in(event_id=event.pk, user=first)
    service.event_start_round(event_id=event.pk)
    Seat.objects.filter(table__event_table__round__event=event, user__isnull=False).update(autoplay=True)
    sockets = []
    for at in EventTable.objects.filter(round__event=event).select_related("table"):
        for _ in range(4):
            sockets.append((at.table_id, f"?invite={at.table.invite_code}", session_cookie(next(watchers))))
    return event.pk, sockets


def results_stored(event_id: int) -> int:
    from games.duplicate.models import BoardResult

    return BoardResult.objects.filter(board__event_id=event_id).count()


def fetch_page(url: str, stop: threading.Event, times: list[float], errors: list[str]) -> None:
    """The event page, one request after another until `stop`: each one's latency."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    while not stop.is_set():
        started = time.perf_counter()
        try:
            with opener.open(url, timeout=10) as response:
                response.read()
                if response.status != 200:
                    errors.append(f"HTTP {response.status}")
        except Exception as error:  # counted and shown: the bench keeps measuring
            errors.append(repr(error)[:80])
        times.append(time.perf_counter() - started)
        stop.wait(0.05)


async def run(args, port, server_env, log_path) -> dict:
    loop = asyncio.get_running_loop()
    db = ThreadPoolExecutor(1)

    def in_db(fn, *a):
        return loop.run_in_executor(db, lambda: fn(*a))

    print(
        f"setup: an event of {args.tables} tables, {4 * args.tables} players (their seats autoplayed), 4 spectators each"
    )
    event_id, sockets = await in_db(make_event, args.tables)
    pid = await loop.run_in_executor(None, live.start_server, port, server_env, log_path)
    print(f"server: pid {pid} on {LOOPBACK}:{port}, log {log_path}")
    page_port, page_pid = port, pid
    if args.split:
        page_port = live.free_port()
        page_pid = await loop.run_in_executor(None, live.start_server, page_port, server_env, log_path)
        print(f"page server: pid {page_pid} on {LOOPBACK}:{page_port}")
    clients = [live.Client(table_id, None, cookie, query=query) for table_id, query, cookie in sockets]
    retries = await live.open_all(clients, port)
    table_ids = sorted({c.table_id for c in clients})
    # The window opens once every table plays cards (the deal is the clock's, not actions).
    deadline = time.monotonic() + 120
    while (counts := await in_db(phases, table_ids)).get("play", 0) < len(table_ids):
        if time.monotonic() > deadline:
            print(f"warning: not every table reached the play phase: {dict(counts)}")
            break
        await asyncio.sleep(1.0)

    stop, page_times, page_errors = threading.Event(), [], []
    url = f"http://{LOOPBACK}:{page_port}/events/{event_id}/"
    fetcher = threading.Thread(target=fetch_page, args=(url, stop, page_times, page_errors), daemon=True)
    for client in clients:
        client.unexpected.clear()
    cpu0, page_cpu0 = cpu_seconds(pid), cpu_seconds(page_pid)
    busy0, t0, load = machine_busy(), time.time(), os.getloadavg()
    fetcher.start()
    await asyncio.sleep(args.seconds)
    stop.set()
    cpu1, page_cpu1 = cpu_seconds(pid), cpu_seconds(page_pid)
    busy1, t1 = machine_busy(), time.time()
    await loop.run_in_executor(None, fetcher.join)
    await asyncio.sleep(args.grace)
    events = await in_db(events_between, table_ids, datetime.fromtimestamp(t0, UTC), datetime.fromtimestamp(t1, UTC))
    actions, missing = action_latencies(clients, events)
    stored = await in_db(results_stored, event_id)
    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    await in_db(close_db)
    db.shutdown()
    cores = os.cpu_count() or 1
    return {
        "split": args.split,
        "page_server_cpu_pct": 100 * (page_cpu1 - page_cpu0) / (t1 - t0) if args.split else None,
        "tables": len(table_ids),
        "sockets": len(clients),
        "setup_connect_retries": retries,
        "window_s": t1 - t0,
        "actions_per_s": len(events) / (t1 - t0),
        "actions": percentiles(actions),
        "actions_missing": missing,
        "cpu_ms_per_action": 1000 * (cpu1 - cpu0) / len(events) if events else None,
        "server_cpu_pct": 100 * (cpu1 - cpu0) / (t1 - t0),
        "machine_busy_pct": 100 * (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) * cores,
        "load_average_at_start": load,
        "page": percentiles(page_times),
        "page_errors": len(page_errors),
        "page_error_kinds": sorted(set(page_errors))[:3],
        "board_results_stored": stored,
        "socket_errors": sum(len(c.unexpected) for c in clients),
    }


def report(result: dict) -> None:
    page = result["page"]
    print(f"tables {result['tables']}, sockets {result['sockets']} (setup retries {result['setup_connect_retries']})")
    print(f"window {result['window_s']:.1f} s; load average at its start {result['load_average_at_start']}")
    print(
        f"machine busy {result['machine_busy_pct']:.0f} % of {100 * (os.cpu_count() or 1)} %; "
        f"server {result['server_cpu_pct']:.0f} %"
        + (f" (sockets only); page server {result['page_server_cpu_pct']:.0f} %" if result["split"] else "")
    )
    cpu = result["cpu_ms_per_action"]
    print(f"actions/s {result['actions_per_s']:.1f}; server CPU per action {'–' if cpu is None else f'{cpu:.2f} ms'}")
    print(f"action → state at every socket of its table: {fmt(result['actions'])}; missing {result['actions_missing']}")
    print(f"socket errors {result['socket_errors']}")
    print(f"event page /events/<id>/ ({page.get('n', 0)} requests): {fmt(page)}; errors {result['page_errors']}")
    print(f"board results in the standings at the end: {result['board_results_stored']}")
    if result["page_error_kinds"]:
        print(f"event page errors, e.g.: {result['page_error_kinds']}")
    p99 = page.get("p99")
    verdict = "not measured" if p99 is None else ("met" if p99 < TARGET_PAGE_P99_MS else "NOT met")
    print(f"target: event page p99 < {TARGET_PAGE_P99_MS:.0f} ms: {verdict}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables of the event (4 players each)")
    parser.add_argument("--seconds", type=float, default=120.0, help="measurement window")
    parser.add_argument("--bot-delay-ms", type=int, default=1000, help="GAMES_BOT_DELAY_MS of the server")
    parser.add_argument("--grace", type=float, default=3.0, help="seconds to wait for in-flight messages")
    parser.add_argument(
        "--split", action="store_true", help="the stack's split: sockets on one process, the page on another"
    )
    args = parser.parse_args()
    if args.tables < 2 or args.seconds <= 0:
        parser.error("an event needs two tables at least, and the window a positive length")
    hard_limit = 300 + args.seconds + 2.0 * args.tables

    def hard_stop():
        print(f"bench/events.py: hard time limit of {hard_limit:.0f} s reached; stopping", file=sys.stderr)
        live.stop_server()
        os._exit(3)

    watchdog = threading.Timer(hard_limit, hard_stop)
    watchdog.daemon = True
    watchdog.start()
    database_url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or live.DEFAULT_DATABASE_URL
    redis_url = os.environ.get("BENCH_REDIS_URL") or os.environ.get("REDIS_URL") or live.DEFAULT_REDIS_URL
    try:
        check_services(database_url, redis_url, flush=(urlsplit(redis_url).path.lstrip("/") or "0") != "0")
    except CannotRun as error:
        live.fail(str(error))
    secret_key = secrets.token_urlsafe(40)  # shared with the server: sessions are signed with it
    setup_django(database_url, redis_url, secret_key)
    port = live.free_port()
    server_env = live.server_environment(
        database_url,
        redis_url,
        secret_key,
        args.bot_delay_ms,
        SECURE_SSL_REDIRECT="0",  # plain HTTP on loopback: the page is fetched as served
    )
    handle, log_path = tempfile.mkstemp(prefix="bench-events-server-", suffix=".log")
    os.close(handle)
    try:
        result = asyncio.run(run(args, port, server_env, log_path))
    finally:
        live.stop_server()
    log = Path(log_path).read_text(errors="replace")
    print(f"server log: {log.count('Traceback')} tracebacks")
    report(result)
    watchdog.cancel()


if __name__ == "__main__":
    main()
