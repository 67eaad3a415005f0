"""`bench/live.py --baseline`: the same client load on a minimal Channels app (bench/baseline_app.py).

After the project's own window, the bench starts the baseline in a daphne process of its
own (same command line, settings, PostgreSQL and Redis), opens as many rooms as it had
tables, four sockets each (the same session cookies), lets the rooms make one update per
GAMES_BOT_DELAY_MS each (one write, one group send, like a bot's move), and measures the
baseline's server CPU per update over a window as long as the project's. Absolute times
on a shared machine are noise; the ratio of two figures taken minutes apart under the
same load is much less so (docs/performance.md).
"""

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

from live_data import LOOPBACK
from live_measure import cpu_seconds, percentiles

ROOT = Path(__file__).resolve().parent.parent
PROCESS = None  # the baseline's server process (stopped on every way out)


def prepare_table() -> None:
    """The baseline's one table (unmanaged model, bench/baseline_app.py), empty."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS bench_baseline_update "
            "(id bigserial PRIMARY KEY, room integer NOT NULL, n integer NOT NULL, created_at timestamptz NOT NULL)"
        )
        cursor.execute("TRUNCATE bench_baseline_update")


def stop_process(process: subprocess.Popen | None) -> None:
    """SIGINT (daphne's clean stop), then SIGKILL after 5 s; also for bench/live.py's server."""
    if process is not None and process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def stop() -> None:
    stop_process(PROCESS)


def start(port: int, env: dict, log_path: str) -> int:
    """The baseline app in daphne, as bench/live.py starts the real one; its pid once it listens."""
    import socket

    global PROCESS
    command = [sys.executable, "-m", "daphne", "-b", LOOPBACK, "-p", str(port)]
    command += ["--websocket_connect_timeout", "30", "bench.baseline_app:application"]
    log = open(log_path, "ab")  # noqa: SIM115 (the server writes to it for its whole life)
    PROCESS = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if PROCESS.poll() is not None:
            raise RuntimeError(f"the baseline server exited at start:\n{Path(log_path).read_text()[-2000:]}")
        try:
            socket.create_connection((LOOPBACK, port), timeout=0.2).close()
            return PROCESS.pid
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the baseline server did not start listening within 30 s")


class RoomClient:
    def __init__(self, room: int, cookie: str):
        self.room, self.cookie = room, cookie
        self.updates: list[tuple[int, float, float]] = []  # (n, sent by the server, arrival)
        self.conn = self.reader = None

    async def open(self, port: int) -> None:
        from websockets.asyncio.client import connect

        self.conn = await connect(
            f"ws://{LOOPBACK}:{port}/ws/room/{self.room}/",
            origin=f"http://{LOOPBACK}:{port}",
            additional_headers={"Cookie": self.cookie},
            open_timeout=15,
            compression=None,
            proxy=None,
            max_queue=None,
        )
        await self.conn.recv()  # hello: the socket is in its group
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in self.conn:
                arrival = time.time()
                message = json.loads(raw)
                if message.get("type") == "update":
                    self.updates.append((message["n"], message["at"], arrival))
        except ConnectionClosed:
            pass

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


async def measure(*, rooms: int, cookies: list[str], port: int, env: dict, log_path: str, seconds: float) -> dict:
    """The baseline under `rooms` × 4 sockets: CPU per update, updates/s, update → every socket."""
    loop = asyncio.get_running_loop()
    pid = await loop.run_in_executor(None, start, port, env, log_path)
    clients = [RoomClient(1 + i // 4, cookies[i % len(cookies)]) for i in range(4 * rooms)]
    gate = asyncio.Semaphore(20)

    async def one(client):
        async with gate:
            await client.open(port)

    try:
        await asyncio.gather(*(one(c) for c in clients))
        await asyncio.sleep(3.0)  # warm-up: every room ticking, templates and pools ready
        cpu0, t0 = cpu_seconds(pid), time.time()
        await asyncio.sleep(seconds)
        cpu1, t1 = cpu_seconds(pid), time.time()
        await asyncio.sleep(1.0)  # the last updates' deliveries
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
        await loop.run_in_executor(None, stop)
    sent: dict[tuple[int, int], float] = {}
    latencies = []
    by_update: dict[tuple[int, int], list[float]] = {}
    for client in clients:
        for n, at, arrival in client.updates:
            if t0 <= at < t1:
                sent[(client.room, n)] = at
                by_update.setdefault((client.room, n), []).append(arrival)
    for key, arrivals in by_update.items():
        latencies += [a - sent[key] for a in arrivals]
    updates = len(sent)
    return {
        "rooms": rooms,
        "sockets": len(clients),
        "updates": updates,
        "updates_per_s": updates / (t1 - t0),
        "server_cpu_pct": 100 * (cpu1 - cpu0) / (t1 - t0),
        "cpu_ms_per_update": 1000 * (cpu1 - cpu0) / updates if updates else None,
        "update_to_sockets": percentiles(latencies),
        "deliveries_missing": 4 * updates - len(latencies),
    }
