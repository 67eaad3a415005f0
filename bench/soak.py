"""Soak test of the production stack: bot tables, spectators and reconnects for a long while.

    .venv/bin/python bench/soak.py --minutes 20

What it does (docs/performance.md):
- sets up Django against BENCH_DATABASE_URL / DATABASE_URL (default
  postgres://postgres@127.0.0.1:5432/doubleup_bench, created and migrated if needed) and
  BENCH_REDIS_URL / REDIS_URL (default redis://127.0.0.1:6379/1, flushed: give it a db
  number of its own); creates --tables all-bot tables (bench/live_data.py);
- starts the production stack exactly as `bash config/stack/run` does (nginx in front of
  --processes table processes and as many page processes, DEBUG=0) on a free loopback port;
- connects --spectators sockets per table through nginx (the readers of every action),
  plus one more per table that keeps hanging up and reconnecting (--churn per minute in
  all); starts the matches, and starts a new one at any table whose match ended;
- every minute prints the server processes' memory (RSS), the errors of that minute (error
  messages or closes at the sockets, failed reconnects, tracebacks in the stack's log) and
  accepted action → state at every spectator socket (p50/p99, bench/live_measure.py);
- at the end: memory growth over the last 15 minutes (or the whole run after the first
  minute, when shorter), and the error count. Target: no error, growth under 5 %.
Bounded: a hard time limit stops everything. Loopback only.

With --multihost (root): the same load on the multi-host topology of tests/multihost/
(network namespaces: a front nginx, two application hosts each running the stack command
with --processes daphne processes, a data host with PostgreSQL and its standby, Redis,
its replica and Sentinels), its own services on private links instead of the two URLs;
the sockets go through the front, and memory, errors and p99 are given per application host.
Exit status: 0 when it ran, 2 when it could not run.
"""

import argparse
import asyncio
import itertools
import os
import random
import resource
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from live import Client, free_port, open_all  # noqa: E402
from live_data import (  # noqa: E402
    LOOPBACK,
    CannotRun,
    check_services,
    close_db,
    events_between,
    make_tables,
    phases,
    setup_django,
    start_matches,
)
from live_measure import action_latencies, cpu_seconds, fmt, percentiles  # noqa: E402

from config.stack import status as stack_status  # noqa: E402

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/doubleup_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/1"
TARGET_GROWTH_PCT = 5.0
STACK = None  # supervisord (config/stack/serve.py, exec'd by config/stack/run)
TOPOLOGY = None  # with --multihost: tests/multihost/topology.Topology


class Host:
    """One machine of the stack: its run directory (supervisord's socket) and its log."""

    def __init__(self, name: str, run_dir: Path, log_path: Path):
        self.name, self.run_dir, self.log_path = name, run_dir, log_path
        self.tracebacks_seen = 0

    def upstream_prefix(self) -> str:
        """What nginx's X-Upstream of a socket this host serves starts with."""
        return f"unix:{self.run_dir}/"

    def new_tracebacks(self) -> int:
        count = self.log_path.read_text(errors="replace").count("Traceback")
        new, self.tracebacks_seen = count - self.tracebacks_seen, count
        return new


def fail(message: str) -> None:
    print(f"bench/soak.py: cannot run: {message}", file=sys.stderr)
    stop_stack()
    sys.exit(2)


def start_stack(env: dict, run_dir: Path, port: int) -> Path:
    """`bash config/stack/run`, its output in run_dir/stack.log; back when nginx listens."""
    global STACK
    log_path = run_dir / "stack.log"
    STACK = subprocess.Popen(
        ["bash", "config/stack/run"],
        cwd=ROOT,
        env=env,
        stdout=open(log_path, "wb"),  # noqa: SIM115 (the stack writes to it for its whole life)
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 300  # the first run may install nginx and collect static files
    while time.monotonic() < deadline:
        if STACK.poll() is not None:
            fail(f"the stack exited at start:\n{log_path.read_text(errors='replace')[-2000:]}")
        if stack_status.ready(run_dir):
            import socket

            try:
                socket.create_connection((LOOPBACK, port), timeout=0.2).close()
                return log_path
            except OSError:
                pass
        time.sleep(0.2)
    fail("the stack did not start within 300 s")
    raise AssertionError  # not reached


def stop_stack() -> None:
    global TOPOLOGY
    if TOPOLOGY is not None:
        TOPOLOGY.destroy()  # every process it started, by pid; its namespaces
        TOPOLOGY = None
    if STACK is not None and STACK.poll() is None:
        STACK.send_signal(signal.SIGTERM)  # supervisord stops every process
        try:
            STACK.wait(20)
        except subprocess.TimeoutExpired:
            STACK.kill()


def server_rss_mb(run_dir: Path) -> dict[str, float]:
    """Resident memory of each daphne process of the stack (tables and pages), in MB."""
    rss = {}
    for entry in stack_status.servers(run_dir).values():
        try:
            status = Path(f"/proc/{entry['pid']}/status").read_text()
        except OSError:
            continue
        kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        rss[entry["name"]] = kb / 1024
    return rss


def server_cpu_s(run_dir: Path) -> float:
    """CPU seconds used so far by all daphne processes of the stack together."""
    total = 0.0
    for entry in stack_status.servers(run_dir).values():
        try:
            total += cpu_seconds(entry["pid"])
        except OSError:
            continue
    return total


class Churn:
    """Sockets that hang up and reconnect, one after another, at a steady rate."""

    def __init__(self, clients, per_minute: int, port: int):
        self.clients, self.per_minute, self.port = clients, per_minute, port
        self.times: list[float] = []  # reconnect → first state, this minute
        self.failures = 0

    async def run(self):
        rng = random.Random(1)
        while True:
            await asyncio.sleep(60 / max(1, self.per_minute))
            client = rng.choice(self.clients)
            await client.close()
            started = time.time()
            try:
                await client.open(self.port)
                self.times.append(await asyncio.wait_for(client.first_state, 20) - started)
            except Exception:
                self.failures += 1

    def take(self):
        times, failures = self.times, self.failures
        self.times, self.failures = [], 0
        return times, failures


def host_of(client, hosts: list[Host]) -> Host:
    """The host whose nginx answered the client's latest connection (its X-Upstream)."""
    response = getattr(client.conn, "response", None)
    upstream = response.headers.get("X-Upstream", "") if response is not None else ""
    return next((host for host in hosts if upstream.startswith(host.upstream_prefix())), hosts[0])


async def run(args, address, hosts: list[Host], start):
    """The load on `hosts` (started by `start`, in a thread), its sockets to `address`
    (host, port): nginx of the one stack, or the front proxy of the topology."""
    loop = asyncio.get_running_loop()
    db = ThreadPoolExecutor(1)
    client_host, port = address

    def in_db(fn, *a, **kw):
        return loop.run_in_executor(db, lambda: fn(*a, **kw))

    _deal_ids, table_ids, cookies = await in_db(make_tables, 0, args.tables)
    cookie_iter = itertools.cycle(cookies)  # spectators need not be distinct users
    await loop.run_in_executor(None, start)
    print(
        f"{', '.join(h.name for h in hosts)}: {args.processes} server processes each, clients to {client_host}:{port}"
    )
    watchers = [Client(t, None, next(cookie_iter), client_host) for t in table_ids for _ in range(args.spectators)]
    churners = [Client(t, None, next(cookie_iter), client_host) for t in table_ids]
    await open_all(watchers + churners, port)
    await in_db(start_matches, table_ids)
    print(f"{args.tables} bot tables, {len(watchers)} spectator sockets, {len(churners)} reconnecting sockets")
    churn = Churn(churners, args.churn, port)
    churn_task = asyncio.create_task(churn.run())

    rows, total_errors = [], 0
    started = time.time()
    for minute in range(1, args.minutes + 1):
        window_start, cpu_start = time.time(), sum(server_cpu_s(h.run_dir) for h in hosts)
        for client in watchers:
            client.unexpected.clear()
        await asyncio.sleep(max(0.0, started + 60 * minute - time.time()))
        window_end, cpu_end = time.time(), sum(server_cpu_s(h.run_dir) for h in hosts)
        await asyncio.sleep(args.grace)  # the states of the minute's last actions
        events = await in_db(
            events_between,
            table_ids,
            datetime.fromtimestamp(window_start, UTC),
            datetime.fromtimestamp(window_end - args.grace, UTC),
        )
        latencies, missing = action_latencies(watchers, events)
        reconnects, failed = churn.take()
        per_host, host_tracebacks = {}, 0
        for host in hosts:  # each spectator socket counts for the host that serves it
            mine = [c for c in watchers if host_of(c, hosts) is host]
            host_latencies, host_missing = action_latencies(mine, events)
            tracebacks = host.new_tracebacks()
            host_tracebacks += tracebacks
            per_host[host.name] = {
                "rss": server_rss_mb(host.run_dir),
                "errors": sum(len(c.unexpected) for c in mine) + host_missing + tracebacks,
                "p99": percentiles(host_latencies).get("p99"),
                "sockets": len(mine),
            }
        socket_errors = sum(len(c.unexpected) for c in watchers) + sum(len(c.unexpected) for c in churners)
        for client in churners:
            client.unexpected.clear()
        errors = socket_errors + failed + host_tracebacks + missing
        total_errors += errors
        rss = {f"{name}/{proc}": mb for name, row in per_host.items() for proc, mb in row["rss"].items()}
        if len(hosts) == 1:
            rss = per_host[hosts[0].name]["rss"]
        cpu_s = cpu_end - cpu_start
        rows.append(
            {
                "minute": minute,
                "rss_mb": rss,
                "errors": errors,
                "actions_per_s": len(events) / (window_end - window_start),
                "server_cpu_pct": 100 * cpu_s / (window_end - window_start),
                "cpu_ms_per_action": 1000 * cpu_s / len(events) if events else None,
                "action_p99_ms": percentiles(latencies).get("p99"),
                "hosts": per_host,
            }
        )
        # Finished matches start again, so the load stays the same all along.
        ended = [t for t, phase in (await in_db(phase_by_table, table_ids)).items() if phase == "finished"]
        if ended:
            await in_db(start_matches, ended)
        print(
            f"minute {minute:3d}: RSS "
            + " ".join(f"{name} {mb:.0f} MB" for name, mb in sorted(rss.items()))
            + f" | errors {errors} (sockets {socket_errors}, reconnects failed {failed}, "
            f"tracebacks {host_tracebacks}, states missing {missing})"
            f" | {len(events)} actions, action → every socket {fmt(percentiles(latencies))}"
            f" | servers' CPU {rows[-1]['server_cpu_pct']:.0f}%"
            + (f", {rows[-1]['cpu_ms_per_action']:.2f} ms per action" if events else "")
            + f" | {len(reconnects)} reconnects p99 {percentiles(reconnects).get('p99', 0):.0f} ms"
            + (f" | {len(ended)} matches restarted" if ended else ""),
            flush=True,
        )
        if len(hosts) > 1:
            for name, row in per_host.items():
                p99 = f"{row['p99']:.1f} ms" if row["p99"] is not None else "n/a"
                print(
                    f"    {name}: {row['sockets']} spectator sockets, RSS "
                    + " ".join(f"{proc} {mb:.0f} MB" for proc, mb in sorted(row["rss"].items()))
                    + f", errors {row['errors']}, action → its sockets p99 {p99}",
                    flush=True,
                )
    churn_task.cancel()
    await asyncio.gather(*(c.close() for c in watchers + churners), return_exceptions=True)
    final_phases = await in_db(phases, table_ids)
    await in_db(close_db)
    db.shutdown()
    return rows, total_errors, final_phases


def phase_by_table(table_ids) -> dict:
    from games.models import Table

    return dict(Table.objects.filter(pk__in=table_ids).values_list("pk", "state__phase"))


def summary(rows, total_errors, final_phases) -> None:
    last = rows[-1]
    base_row = rows[max(0, len(rows) - 16)] if len(rows) > 1 else rows[0]
    span = last["minute"] - base_row["minute"]
    before, after = sum(base_row["rss_mb"].values()), sum(last["rss_mb"].values())
    growth = 100 * (after - before) / before if before else 0.0
    print(
        f"\n=== bench/soak.py {datetime.now(UTC):%Y-%m-%d %H:%M UTC}, {len(rows)} minutes, "
        f"{os.cpu_count()} CPUs (shared: others may have been running) ===\n"
        f"memory of the server processes: {before:.0f} MB at minute {base_row['minute']} → {after:.0f} MB at minute "
        f"{last['minute']}: {growth:+.1f} % over the last {span} minutes "
        f"(target under {TARGET_GROWTH_PCT:.0f} %: {'MET' if growth < TARGET_GROWTH_PCT else 'MISSED'})\n"
        f"errors: {total_errors} (target 0: {'MET' if total_errors == 0 else 'MISSED'})\n"
        f"phases at the end: {dict(final_phases)}"
    )
    if len(last["hosts"]) > 1:
        for name in last["hosts"]:
            p99s = [row["hosts"][name]["p99"] for row in rows if row["hosts"][name]["p99"] is not None]
            errors = sum(row["hosts"][name]["errors"] for row in rows)
            rss = sum(last["hosts"][name]["rss"].values())
            worst = f"{max(p99s):.1f} ms" if p99s else "n/a"
            print(
                f"{name}: errors {errors}, RSS {rss:.0f} MB at the end, action → its sockets p99 (worst minute) {worst}"
            )


def soak_one_machine(args):
    database_url = os.environ.get("BENCH_DATABASE_URL") or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    redis_url = os.environ.get("BENCH_REDIS_URL") or os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    try:
        check_services(database_url, redis_url, flush=(urlsplit(redis_url).path.lstrip("/") or "0") != "0")
    except CannotRun as error:
        fail(str(error))
    secret_key = secrets.token_urlsafe(40)  # shared with the servers: the sessions are signed with it
    setup_django(database_url, redis_url, secret_key)
    port = free_port()
    run_dir = Path(tempfile.mkdtemp(prefix="doubleup-soak-"))
    stack_env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": secret_key,
        "ALLOWED_HOSTS": LOOPBACK,
        "STACK_LISTEN": f"{LOOPBACK}:{port}",
        "STACK_PROCESSES": str(args.processes),
        "STACK_PAGE_PROCESSES": str(args.processes),
        "STACK_RUN_DIR": str(run_dir),
        "GAMES_BOT_DELAY_MS": str(args.bot_delay_ms),
        "GAMES_NEXT_HAND_DELAY_MS": "2000",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    for proxy in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        stack_env.pop(proxy, None)
    host = Host("stack", run_dir, run_dir / "stack.log")
    try:
        return asyncio.run(run(args, (LOOPBACK, port), [host], lambda: start_stack(stack_env, run_dir, port)))
    finally:
        stop_stack()


def soak_multihost(args):
    """The topology's own PostgreSQL and Redis (behind Sentinel) on private links; its
    application hosts run the stack command, the sockets go through its front proxy."""
    global TOPOLOGY
    from tests.multihost import topology

    why = topology.available()
    if why:
        fail(f"the multi-host topology cannot be built here: {why}")
    secret_key = secrets.token_urlsafe(40)
    TOPOLOGY = topology.Topology(
        secret_key=secret_key,
        apps_env={
            "STACK_PROCESSES": str(args.processes),
            "STACK_PAGE_PROCESSES": str(args.processes),
            "GAMES_BOT_DELAY_MS": str(args.bot_delay_ms),
            "GAMES_NEXT_HAND_DELAY_MS": "2000",
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        },
    )
    try:
        TOPOLOGY.build()
        os.environ["REDIS_SENTINELS"] = TOPOLOGY.sentinels()  # read by the settings, with REDIS_URL
        setup_django(TOPOLOGY.database_url(), f"redis://{topology.MASTER}/0", secret_key)
        hosts = [Host(app, TOPOLOGY.base / app, TOPOLOGY.base / f"{app}.log") for app in topology.APPS]
        return asyncio.run(run(args, (topology.FRONT_IP, 80), hosts, TOPOLOGY.serve))
    finally:
        stop_stack()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=int, default=20, help="how long to run (default 20)")
    parser.add_argument("--tables", type=int, default=50, help="all-bot tables")
    parser.add_argument("--spectators", type=int, default=2, help="steady spectator sockets per table")
    parser.add_argument("--churn", type=int, default=60, help="reconnects per minute, in all")
    parser.add_argument(
        "--processes", type=int, default=os.cpu_count() or 1, help="table processes (and page processes)"
    )
    parser.add_argument("--bot-delay-ms", type=int, default=1000, help="GAMES_BOT_DELAY_MS of the servers")
    parser.add_argument("--grace", type=float, default=3.0, help="seconds for a minute's last states to arrive")
    parser.add_argument(
        "--multihost",
        action="store_true",
        help="on the multi-host topology of tests/multihost/ (root; per-host report)",
    )
    args = parser.parse_args()
    if args.minutes < 1 or args.tables < 1:
        parser.error("need at least one minute and one table")
    hard_limit = 600 + 70 * args.minutes

    def hard_stop():
        print(f"bench/soak.py: hard time limit of {hard_limit} s reached; stopping", file=sys.stderr)
        stop_stack()
        os._exit(3)

    def interrupted(signum, _frame):
        # Our own handler, so that asyncio.run does not install its own: a cancelled main
        # task could wait on the clients' threads, and the stack would outlive the bench.
        print(f"bench/soak.py: {signal.Signals(signum).name}; stopping the stack", file=sys.stderr)
        stop_stack()
        os._exit(128 + signum)

    signal.signal(signal.SIGINT, interrupted)
    signal.signal(signal.SIGTERM, interrupted)
    watchdog = threading.Timer(hard_limit, hard_stop)
    watchdog.daemon = True
    watchdog.start()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = 4 * args.tables * (args.spectators + 1) + 256
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, needed), hard))

    if args.multihost:
        rows, total_errors, final_phases = soak_multihost(args)
    else:
        rows, total_errors, final_phases = soak_one_machine(args)
    summary(rows, total_errors, final_phases)
    watchdog.cancel()


if __name__ == "__main__":
    main()
