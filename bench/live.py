"""Live-table load benchmark: one daphne process, hundreds of real websocket clients.

    .venv/bin/python bench/live.py --dealing 100 --playing 100 --seconds 20

What it does (docs/performance.md):
- sets up Django against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/doubleup_bench,
  created and migrated if needed) and REDIS_URL (default redis://127.0.0.1:6379/1, flushed:
  give it a db number of its own); creates bench users, their sessions and the tables;
- starts ONE server process (`python -m daphne config.asgi:application`, DEBUG=0) on a free
  loopback port, and the clients here (asyncio + websockets, 4 sockets per table);
- --strong N: N more playing tables of 4 strong bots, which think in the server's bot
  thinker processes (games/runtime/thinking.py); (b) is measured on the other tables only;
- playing tables: 4 basic bots driven by the server's clock; GAMES_BOT_DELAY_MS (1000 by
  default) after each change the next bot moves, so each table makes ~1 action/s. Their 4
  sockets are spectators (logged-in users not seated): the readers every action affects;
- dealing tables: 4 seated bench users; all matches are started through the write path so
  that every deal starts at the same instant T (the worst burst: card i of every table is
  due at once), at the default pace of 150 ms (100 cards: ~15 s);
- measures from T for --seconds: (a) card due time (deal_started_at + i*pace, from the DB)
  → arrival at that seat's socket; (b) each accepted action (TableEvent.created_at) →
  arrival of a "state" with that version (or a later one) at every socket of the table;
- with --baseline, afterwards the same client load on a minimal Channels app
  (bench/baseline_app.py in a daphne process of its own: one write and one group send per
  update, 4 sockets per room) and the project's CPU per action divided by its CPU per update;
- then a connect storm, as after a server restart: the server is stopped and started again
  (its memory is gone), and all sockets of --storm-tables tables reconnect at once; the
  time from the new server listening until each has its fresh "state", and every failed
  handshake or close. (--storm-without-restart: the same server, sockets closed first.)
Both sides read the same machine clock. Bounded: --timeout kills everything; loopback only.
Exit status: 0 when it ran (see the target lines), 2 when it could not run.
"""

import argparse
import asyncio
import json
import os
import platform
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import live_baseline  # noqa: E402
from live_data import (  # noqa: E402
    LOOPBACK,
    CannotRun,
    check_services,
    close_db,
    deal_plans,
    events_between,
    make_tables,
    phases,
    setup_django,
    start_matches,
)
from live_measure import (  # noqa: E402
    action_latencies,
    bot_decision_cpu,
    bot_move_waits,
    card_latencies,
    cpu_seconds,
    descendants_cpu_seconds,
    fmt,
    machine_busy,
    percentiles,
    profile_summary,
    services_cpu_seconds,
    services_delta,
    start_profiler,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/doubleup_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/1"
TARGET_P99_MS = 100.0
TARGET_STORM_S = 5.0
# Issue 15: one process, playing tables with four readers each.
CPU_TARGET_MS, CPU_FLOOR_MS = 2.5, 3.5
ACTION_P50_MS, ACTION_P99_MS = 4.0, 15.0
SERVERS: list[subprocess.Popen] = []  # the server processes started (killed on every way out)


def fail(message: str) -> None:
    print(f"bench/live.py: cannot run: {message}", file=sys.stderr)
    stop_server()
    sys.exit(2)


def stop_server() -> None:
    live_baseline.stop()
    for server in SERVERS:
        live_baseline.stop_process(server)


# --- the server process ----------------------------------------------------------------


def server_environment(database_url: str, redis_url: str, secret_key: str, bot_delay_ms: int, **extra: str) -> dict:
    """The environment of the server process a bench starts: production settings on
    loopback, the bench's database and Redis, its pace; no proxy (every request is local)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DEBUG": "0",
        "SECRET_KEY": secret_key,
        "ALLOWED_HOSTS": LOOPBACK,
        "GAMES_DEAL_LEAD_IN_MS": "200",
        "GAMES_BOT_DELAY_MS": str(bot_delay_ms),
        "GAMES_NEXT_HAND_DELAY_MS": "2000",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        **extra,
    }
    for proxy in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        env.pop(proxy, None)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def start_server(port, env, log_path):
    """Start the server (appending to its log) and wait until it listens; its pid."""
    # As docs/deployment.md runs it: a handshake waits up to 30 s for its turn in a storm.
    command = [
        sys.executable,
        "-m",
        "daphne",
        "-b",
        LOOPBACK,
        "-p",
        str(port),
        "--websocket_connect_timeout",
        "30",
        "config.asgi:application",
    ]
    log = open(log_path, "ab")  # noqa: SIM115 (the server writes to it for its whole life)
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    SERVERS.append(server)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            fail(f"the server exited at start:\n{Path(log_path).read_text()[-2000:]}")
        try:
            socket.create_connection((LOOPBACK, port), timeout=0.2).close()
            return server.pid
        except OSError:
            time.sleep(0.1)
    fail("the server did not start listening within 30 s")


# --- clients -------------------------------------------------------------------------------


class Client:
    """One websocket of a table; keeps the arrival time of every message."""

    def __init__(self, table_id: int, seat, cookie: str, host: str = LOOPBACK, query: str = ""):
        self.table_id, self.seat, self.cookie, self.host, self.query = table_id, seat, cookie, host, query
        self.states: list[tuple[int, float]] = []  # (version, arrival)
        self.cards: list[tuple[int, float]] = []  # (dealt count, arrival)
        self.kinds = Counter()
        self.unexpected: list[str] = []
        self.conn = None
        self.reader = None
        self.first_state = None
        self.closing = False

    async def open(self, port: int):
        from websockets.asyncio.client import connect

        self.closing = False
        self.first_state = asyncio.get_running_loop().create_future()
        self.conn = await connect(
            f"ws://{self.host}:{port}/ws/table/{self.table_id}/{self.query}",
            origin=f"http://{self.host}:{port}",
            additional_headers={"Cookie": self.cookie},
            open_timeout=15,
            close_timeout=5,
            compression=None,
            proxy=None,
            max_queue=None,
        )
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.conn:
                arrival = time.time()
                message = json.loads(raw)
                kind = message.get("type")
                self.kinds[kind] += 1
                if kind == "state":
                    self.states.append((message["version"], arrival))
                    if not self.first_state.done():
                        self.first_state.set_result(arrival)
                elif kind == "card":
                    self.cards.append((message["dealt"], arrival))
                elif kind == "error":
                    self.unexpected.append(f"error message {message.get('code')}")
        except ConnectionClosed as closed:
            if not self.closing:
                self.unexpected.append(f"closed by server ({closed.rcvd.code if closed.rcvd else 'no code'})")
        finally:
            if not self.first_state.done():
                self.first_state.set_exception(ConnectionError("closed before the first state"))

    async def close(self):
        self.closing = True
        if self.conn is not None:
            await self.conn.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


async def open_all(clients, port, concurrency=20, attempts=4) -> int:
    """Connect gently (this is setup, not the storm), retrying; returns how many retries it took."""
    gate = asyncio.Semaphore(concurrency)
    retries = 0

    async def one(client):
        nonlocal retries
        for attempt in range(attempts):
            async with gate:
                try:
                    await client.open(port)
                    await asyncio.wait_for(client.first_state, 20)
                    return
                except Exception:
                    if attempt == attempts - 1:
                        raise
                    retries += 1
                    await client.close()
            await asyncio.sleep(1.0 + attempt)

    results = await asyncio.gather(*(one(c) for c in clients), return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException)]
    if failed:
        fail(f"{len(failed)} of {len(clients)} sockets could not connect at setup: {failed[0]!r}")
    return retries


async def storm(clients, port, restart) -> dict:
    """Everyone hangs up; the server restarts (`restart`: stops and starts it, back when it
    listens); then everyone reconnects at once."""
    from websockets.exceptions import InvalidStatus

    await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    if restart:
        await asyncio.get_running_loop().run_in_executor(None, restart)
    else:
        await asyncio.sleep(0.5)
    errors = Counter()
    start = time.time()

    async def one(client):
        try:
            await client.open(port)
            return await asyncio.wait_for(client.first_state, 20) - start
        except InvalidStatus as error:
            errors[f"HTTP {error.response.status_code}"] += 1
        except TimeoutError:
            errors["timeout"] += 1
        except Exception as error:
            errors[type(error).__name__] += 1
        return None

    times = await asyncio.gather(*(one(c) for c in clients))
    await asyncio.sleep(1.0)  # a socket that is closed right after its state is an error too
    for client in clients:
        closes = [u for u in client.unexpected if u.startswith("closed")]
        errors.update(closes)
    return {"sockets": len(clients), "times": [t for t in times if t is not None], "errors": errors}


# --- the run ---------------------------------------------------------------------------


async def run(args, port, server_env, log_path):
    loop = asyncio.get_running_loop()
    metrics_port = int(server_env["GAMES_METRICS_PORT"])
    db = ThreadPoolExecutor(1)  # all of the bench's ORM work, off the clients' loop

    def in_db(fn, *a, **kw):
        return loop.run_in_executor(db, lambda: fn(*a, **kw))

    print(f"setup: {args.dealing} dealing + {args.playing} playing tables, {4 * (args.dealing + args.playing)} users")
    deal_ids, play_ids, cookies = await in_db(make_tables, args.dealing, args.playing + args.strong, args.strong)
    strong_ids = set(play_ids[args.playing :])  # four strong bots each: thinking, not measured in (b)
    pid = await loop.run_in_executor(None, start_server, port, server_env, log_path)
    print(f"server: pid {pid} on {LOOPBACK}:{port}, log {log_path}")

    cookie_iter = iter(cookies)
    deal_clients = [Client(t, seat, next(cookie_iter)) for t in deal_ids for seat in range(4)]
    play_clients = [Client(t, None, next(cookie_iter)) for t in play_ids for _ in range(4)]  # spectators

    # Every socket connects before any load starts (connecting under load is the storm's
    # job); then the playing tables start and reach the play phase; then the deals start.
    setup_retries = await open_all(play_clients + deal_clients, port)
    await in_db(start_matches, play_ids)
    deadline = time.monotonic() + 30 + 0.2 * len(play_ids)
    while play_ids and time.monotonic() < deadline:
        counts = await in_db(phases, play_ids)
        if counts.get("play", 0) == len(play_ids):
            break
        await asyncio.sleep(0.5)
    else:
        if play_ids:
            print(f"warning: not every playing table reached the play phase: {dict(counts)}")

    # Dealing tables: start all matches so every deal starts at the same instant.
    deal_start = datetime.now(UTC) + timedelta(seconds=2 + 0.08 * len(deal_ids))
    await in_db(start_matches, deal_ids, deal_start)
    if datetime.now(UTC) > deal_start:
        print("warning: starting the matches took longer than the lead-in; deals are staggered")
    plans = await in_db(deal_plans, deal_ids)
    start = deal_start.timestamp() if deal_ids else time.time()
    await asyncio.sleep(max(0.0, start - time.time()))

    everyone = deal_clients + play_clients
    for client in everyone:
        client.unexpected.clear()
    counts_at_start = Counter()
    for client in everyone:
        counts_at_start.update(client.kinds)
    profiler = start_profiler(pid, args.seconds, args.profile, args.profile_rate)
    thinkers0 = descendants_cpu_seconds(pid)
    bots0 = await loop.run_in_executor(None, bot_decision_cpu, metrics_port)
    cpu0, busy0, bench0, services0, t0 = (
        cpu_seconds(pid),
        machine_busy(),
        time.process_time(),
        services_cpu_seconds(),
        time.time(),
    )
    await asyncio.sleep(args.seconds)
    cpu1, busy1, bench1, services1, t1 = (
        cpu_seconds(pid),
        machine_busy(),
        time.process_time(),
        services_cpu_seconds(),
        time.time(),
    )
    thinkers1 = descendants_cpu_seconds(pid)
    bots1 = await loop.run_in_executor(None, bot_decision_cpu, metrics_port)
    end = start + args.seconds
    messages = Counter()
    for client in everyone:
        messages.update(client.kinds)
    messages.subtract(counts_at_start)
    errors_window = Counter(u for c in everyone for u in c.unexpected)
    await asyncio.sleep(args.grace)  # let states of the last actions arrive

    events = await in_db(
        events_between, deal_ids + play_ids, datetime.fromtimestamp(start, UTC), datetime.fromtimestamp(end, UTC)
    )
    cards, cards_in_state, cards_missing = card_latencies(deal_clients, plans, start, end)
    people = [c for c in deal_clients + play_clients if c.table_id not in strong_ids]
    actions, actions_missing = action_latencies(people, [e for e in events if e[0] not in strong_ids])
    strong_actions, _ = action_latencies(
        [c for c in play_clients if c.table_id in strong_ids], [e for e in events if e[0] in strong_ids]
    )
    playing = set(play_ids)
    play_events = [e for e in events if e[0] in playing]
    cores = os.cpu_count() or 1
    actions_per_s = len(events) / args.seconds
    result = {
        "window_s": t1 - t0,
        # The figures (docs/performance.md): server CPU per accepted action over the
        # window (everything the process did but the bots' own decisions, which the server
        # counts itself: games/metrics.py), actions/s, and accepted action → state at every
        # socket, p99. The bots' share, and the figure with it, are given beside it.
        "cpu_ms_per_action": 1000 * (cpu1 - cpu0 - (bots1 - bots0)) / len(events) if events else None,
        "bot_cpu_ms_per_action": 1000 * (bots1 - bots0) / len(events) if events else None,
        "cpu_ms_per_action_with_bots": 1000 * (cpu1 - cpu0) / len(events) if events else None,
        "action_p99_ms": percentiles(actions).get("p99"),
        "cards": percentiles(cards),
        "cards_missing": cards_missing,
        "cards_in_state": cards_in_state,
        "actions": percentiles(actions),
        "actions_missing": actions_missing,
        "strong_tables": len(strong_ids),
        "strong_actions": percentiles(strong_actions),
        "strong_actions_per_s": sum(1 for e in events if e[0] in strong_ids) / args.seconds,
        "thinkers_cpu_pct": 100 * (thinkers1 - thinkers0) / (t1 - t0),
        "bot_move_waits": percentiles(bot_move_waits(play_events, args.bot_delay_ms)),
        "actions_per_s": actions_per_s,
        "play_actions_per_s": len(play_events) / args.seconds,
        "cards_per_s": len(cards) / args.seconds,
        "messages": {kind: n for kind, n in messages.items() if n},
        "server_cpu_pct": 100 * (cpu1 - cpu0) / (t1 - t0),
        "bench_cpu_pct": 100 * (bench1 - bench0) / (t1 - t0),
        "services_cpu_pct": 100 * services_delta(services0, services1) / (t1 - t0),
        "machine_busy_pct": 100 * (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1]) * cores,
        "load_average": os.getloadavg(),
        "setup_connect_retries": setup_retries,
        "errors_window": sum(errors_window.values()),
        "error_kinds": dict(errors_window),
        "phases_after": {
            k: dict(await in_db(phases, ids)) for k, ids in (("dealing", deal_ids), ("playing", play_ids))
        },
    }

    # The connect storm: every socket of --storm-tables tables (playing and dealing alternately).
    mixed = [t for pair in zip(play_ids, deal_ids) for t in pair]
    mixed += play_ids[len(deal_ids) :] + deal_ids[len(play_ids) :]
    storm_tables = set(mixed[: args.storm_tables])
    for client in everyone:
        client.unexpected.clear()
    chosen = [c for c in everyone if c.table_id in storm_tables]
    how = "the server restarts, then" if args.storm_restart else "on the same server,"
    print(f"storm: {how} {len(chosen)} sockets of {len(storm_tables)} tables reconnect at once")
    if profiler is not None:
        await loop.run_in_executor(None, profiler.wait)

    storm_pid, storm_cpu0, storm_t0 = pid, cpu_seconds(pid), time.time()

    def restart() -> None:
        nonlocal profiler, storm_pid, storm_cpu0, storm_t0
        stop_server()
        storm_pid = start_server(port, server_env, log_path)
        profiler = start_profiler(storm_pid, 6, args.profile and args.profile + ".storm", args.profile_rate)
        storm_cpu0, storm_t0 = cpu_seconds(storm_pid), time.time()

    if args.storm_restart:
        for client in everyone:
            client.closing = True  # the restart closes the other tables' sockets too
    else:
        profiler = start_profiler(pid, 6, args.profile and args.profile + ".storm", args.profile_rate)
    outcome = await storm(chosen, port, restart if args.storm_restart else None)
    result["storm"] = {
        "tables": len(storm_tables),
        "sockets": outcome["sockets"],
        "resynced": len(outcome["times"]),
        "restart": args.storm_restart,
        **{k: v for k, v in percentiles(outcome["times"]).items() if k != "n"},
        "errors": sum(outcome["errors"].values()),
        "error_kinds": dict(outcome["errors"]),
        "server_cpu_pct": 100 * (cpu_seconds(storm_pid) - storm_cpu0) / (time.time() - storm_t0),
    }
    await asyncio.gather(*(c.close() for c in everyone), return_exceptions=True)
    if profiler is not None:
        await loop.run_in_executor(None, profiler.wait)
    if args.baseline:
        stop_server()  # one server at a time: the baseline gets the machine the project had
        await in_db(live_baseline.prepare_table)
        rooms = len(play_ids) or len(deal_ids)
        print(f"baseline: {rooms} rooms × 4 sockets on bench/baseline_app.py for {args.seconds:.0f} s")
        baseline = await live_baseline.measure(
            rooms=rooms,
            cookies=[c.cookie for c in play_clients + deal_clients],
            port=free_port(),
            env=server_env,
            log_path=log_path + ".baseline",
            seconds=args.seconds,
        )
        result["baseline"] = baseline
        result["baseline_cpu_ms_per_update"] = baseline["cpu_ms_per_update"]
        if baseline["cpu_ms_per_update"] and result["cpu_ms_per_action"]:
            result["ratio_to_baseline"] = result["cpu_ms_per_action"] / baseline["cpu_ms_per_update"]
    await in_db(close_db)
    db.shutdown()
    return result


def report(args, result, log_path) -> None:
    log = Path(log_path).read_text(errors="replace")
    result["server_log"] = {"tracebacks": log.count("Traceback"), "max_connections": log.count("Too many connections")}
    storm = result["storm"]
    others = (
        result["machine_busy_pct"]
        - result["server_cpu_pct"]
        - result["bench_cpu_pct"]
        - result["services_cpu_pct"]
        - result["thinkers_cpu_pct"]
    )
    result["others_cpu_pct"] = others
    lines = [
        "",
        f"=== bench/live.py  {datetime.now(UTC):%Y-%m-%d %H:%M UTC}  {platform.node()}  "
        f"{os.cpu_count()} CPUs (shared: others may have been running) ===",
        f"tables: {args.dealing} dealing (4 seated sockets each, pace 150 ms, all deals start together) + "
        f"{args.playing} playing (4 basic bots, GAMES_BOT_DELAY_MS={args.bot_delay_ms} → ~1 action/s/table; "
        f"4 spectator sockets each = the readers of every action)",
        f"window: {result['window_s']:.1f} s from the common deal start; one daphne process"
        + (
            f"; + {result['strong_tables']} tables of 4 strong bots (4 spectator sockets each; not in (a), (b)): "
            f"{result['strong_actions_per_s']:.1f} actions/s, action → every socket {fmt(result['strong_actions'])}"
            if result["strong_tables"]
            else ""
        ),
        f"(a) card due → arrival at its seat:      {fmt(result['cards'])}   missing {result['cards_missing']}"
        + (f" ({result['cards_in_state']} shown by a late state, not pushed)" if result["cards_in_state"] else ""),
        f"(b) action → state at every socket:      {fmt(result['actions'])}   missing {result['actions_missing']}",
        f"    bot move due → accepted (the queue before the write): {fmt(result['bot_move_waits'])}",
        f"throughput: {result['actions_per_s']:.1f} actions/s ({result['play_actions_per_s']:.1f} by bots), "
        f"{result['cards_per_s']:.0f} cards/s, messages {result['messages']}",
        f"CPU: server {result['server_cpu_pct']:.0f}% (100% = one core), bench clients {result['bench_cpu_pct']:.0f}%, "
        f"PostgreSQL+Redis {result['services_cpu_pct']:.0f}%, bot thinkers {result['thinkers_cpu_pct']:.0f}%; machine {result['machine_busy_pct']:.0f}% of "
        f"{100 * (os.cpu_count() or 1)}%, so others used ~{max(0, others):.0f}% (load avg {result['load_average'][0]:.1f})",
        f"errors in window: {result['errors_window']} {result['error_kinds'] or ''}; "
        f"connect retries during setup: {result['setup_connect_retries']}",
        f"phases after the window: {result['phases_after']}",
        f"storm{' after a restart' if storm['restart'] else ''}: {storm['sockets']} sockets of {storm['tables']} tables; "
        f"resynced {storm['resynced']}; "
        + (f"p50 {storm['p50']:.0f}  p99 {storm['p99']:.0f}  max {storm['max']:.0f} ms; " if storm.get("p99") else "")
        + f"errors {storm['errors']} {storm['error_kinds'] or ''}; server CPU {storm['server_cpu_pct']:.0f}%",
        f"server log: {result['server_log']['tracebacks']} tracebacks, "
        f"{result['server_log']['max_connections']} 'Too many connections'",
        f"server CPU per accepted action: {_ms(result['cpu_ms_per_action'])} "
        f"({result['actions_per_s']:.1f} actions/s, action p99 {_ms(result['action_p99_ms'])}); "
        f"the bots' own decisions besides: {_ms(result['bot_cpu_ms_per_action'])} "
        f"(with them {_ms(result['cpu_ms_per_action_with_bots'])})",
    ]
    baseline = result.get("baseline")
    if baseline:
        lines += [
            f"baseline (bench/baseline_app.py, {baseline['rooms']} rooms × 4 sockets, one write + one group send "
            f"per update): {_ms(baseline['cpu_ms_per_update'])} of CPU per update, "
            f"{baseline['updates_per_s']:.1f} updates/s at {baseline['server_cpu_pct']:.0f}%, "
            f"update → every socket {fmt(baseline['update_to_sockets'])}, missing {baseline['deliveries_missing']}",
            f"ratio to the baseline (CPU per action ÷ CPU per update): {result.get('ratio_to_baseline', 0):.2f}",
        ]
    lines += target_lines(result, storm, args)
    print("\n".join(lines))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1, default=str))
    if args.profile:
        for path in (args.profile, args.profile + ".storm"):
            if Path(path).exists():
                print(profile_summary(path))


def _ms(value) -> str:
    return "n/a" if value is None else f"{value:.2f} ms"


def verdict(ran: bool, ok: bool) -> str:
    return "not run" if not ran else "MET" if ok else "MISSED"


def target_lines(result: dict, storm: dict, args) -> list[str]:
    """The targets this run can judge; a part that did not run says so instead of passing."""
    cards, actions = result["cards"], result["actions"]
    lines = [
        f"target (a) p99 ≤ {TARGET_P99_MS:.0f} ms, none missing: "
        + verdict(args.dealing > 0, cards.get("p99", 1e9) <= TARGET_P99_MS and not result["cards_missing"]),
        f"target (b) p99 ≤ {TARGET_P99_MS:.0f} ms, none missing: "
        + verdict(args.playing > 0, actions.get("p99", 1e9) <= TARGET_P99_MS and not result["actions_missing"]),
        f"target storm: all resynced within {TARGET_STORM_S:.0f} s, zero errors: "
        + verdict(
            storm["sockets"] > 0,
            storm["resynced"] == storm["sockets"]
            and storm.get("max", 1e9) <= TARGET_STORM_S * 1000
            and not storm["errors"],
        ),
    ]
    # Issue 15's, for playing tables alone (dealing tables are a different load).
    if args.playing > 0 and args.dealing == 0 and result["cpu_ms_per_action"] is not None:
        cpu = result["cpu_ms_per_action"]
        lines += [
            f"target CPU per action ≤ {CPU_TARGET_MS} ms (floor {CPU_FLOOR_MS} ms): "
            f"{verdict(True, cpu <= CPU_TARGET_MS)} (floor {verdict(True, cpu <= CPU_FLOOR_MS)})",
            f"target action → every socket p50 ≤ {ACTION_P50_MS:.0f} ms and p99 ≤ {ACTION_P99_MS:.0f} ms: "
            + verdict(
                bool(actions), actions.get("p50", 1e9) <= ACTION_P50_MS and actions.get("p99", 1e9) <= ACTION_P99_MS
            ),
        ]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dealing", type=int, default=100, help="tables dealing (4 seated sockets each)")
    parser.add_argument("--playing", type=int, default=100, help="all-bot tables playing (4 spectator sockets each)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measurement window from the common deal start")
    parser.add_argument("--storm-tables", type=int, default=100, help="tables whose sockets all reconnect at once")
    parser.add_argument(
        "--storm-without-restart",
        dest="storm_restart",
        action="store_false",
        help="the storm's sockets reconnect to the same server (its memory warm)",
    )
    parser.add_argument(
        "--strong",
        type=int,
        default=0,
        help="more playing tables, of 4 strong bots (they think in the server's thinker processes); "
        "(b) stays the other tables' figure",
    )
    parser.add_argument("--bot-delay-ms", type=int, default=1000, help="GAMES_BOT_DELAY_MS of the server")
    parser.add_argument("--grace", type=float, default=3.0, help="seconds to wait for in-flight messages")
    parser.add_argument("--timeout", type=float, default=None, help="hard limit in seconds (default: scaled)")
    parser.add_argument("--json", help="also write the numbers to this file")
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="then run a minimal Channels app (bench/baseline_app.py) under the same client load "
        "and print the CPU per action divided by its CPU per update",
    )
    parser.add_argument(
        "--profile",
        help="py-spy the server during the window (and the storm) into this file; "
        "needs py-spy (a test dependency: bash .ci/setup test)",
    )
    parser.add_argument("--profile-rate", type=int, default=100, help="py-spy's samples a second (--profile)")
    args = parser.parse_args()
    if args.profile and not (Path(sys.executable).parent / "py-spy").exists():
        parser.error("--profile needs py-spy in the virtualenv (a test dependency: bash .ci/setup test)")
    if args.dealing < 0 or args.playing < 0 or args.dealing + args.playing == 0 or args.seconds <= 0:
        parser.error("need at least one table and a positive window")
    tables = args.dealing + args.playing + args.strong
    hard_limit = args.timeout or 300 + args.seconds + args.grace + 1.0 * tables

    def hard_stop():
        print(f"bench/live.py: hard time limit of {hard_limit:.0f} s reached; stopping", file=sys.stderr)
        stop_server()
        os._exit(3)

    watchdog = threading.Timer(hard_limit, hard_stop)
    watchdog.daemon = True
    watchdog.start()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = 8 * tables + 256
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(needed, soft)), hard))
    database_url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = os.environ.get("BENCH_REDIS_URL") or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    redis_db = urlsplit(redis_url).path.lstrip("/") or "0"
    try:
        check_services(database_url, redis_url, flush=redis_db != "0")
    except CannotRun as error:
        fail(str(error))
    secret_key = secrets.token_urlsafe(40)  # shared with the server: sessions are signed with it
    setup_django(database_url, redis_url, secret_key)
    port = free_port()
    server_env = server_environment(
        database_url,
        redis_url,
        secret_key,
        args.bot_delay_ms,
        GAMES_METRICS_PORT=str(free_port()),  # the server's own counters (bot_decision_cpu)
    )
    handle, log_path = tempfile.mkstemp(prefix="bench-live-server-", suffix=".log")
    os.close(handle)
    try:
        result = asyncio.run(run(args, port, server_env, log_path))
    finally:
        stop_server()
    report(args, result, log_path)
    watchdog.cancel()


if __name__ == "__main__":
    main()
