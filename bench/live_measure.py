"""bench/live.py's measuring side: latency analysis, /proc CPU readings, py-spy profiles."""

import itertools
import os
import re
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path


def start_profiler(pid: int, seconds: float, path: str | None, rate: int = 100):
    """py-spy (a test dependency, pinned in pyproject.toml) on the server, all threads."""
    if not path:
        return None
    pyspy = Path(sys.executable).parent / "py-spy"
    command = [
        str(pyspy),
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, round(seconds))),
        "--threads",
        "--gil",
        "--nonblocking",
        "-r",
        str(rate),
        "-f",
        "raw",
        "-o",
        path,
    ]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _frames(path):
    """(thread name, [function (file)], samples) per py-spy raw line; line numbers dropped."""
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if count.isdigit():
            items = [re.sub(r":\d+\)$", ")", f.strip()) for f in stack.split(";")]
            yield items[0], items[1:], int(count)


def _where(thread, frames) -> str:
    """The outermost project frame (with whether it was in the DB or in templates), else the library."""
    side = "loop" if "MainThread" in thread else "DB thread"
    ours = [f for f in frames if "(games/" in f or "(accounts/" in f or "(channels/auth" in f]
    if ours:
        inner = (
            "db"
            if any("psycopg" in f or "django/db" in f for f in frames)
            else "render"
            if any("django/template" in f for f in frames)
            else "other"
        )
        return f"{side}: {ours[0]} [{inner}]"
    for marker, name in (
        ("channels_redis", "channel layer (Redis)"),
        ("autobahn", "websocket protocol"),
        ("(redis/", "channel layer (Redis)"),
    ):
        if any(marker in f for f in frames):
            return f"{side}: {name}"
    return f"{side}: other, {frames[-1] if frames else '?'}"


def profile_summary(path: str, top: int = 20) -> str:
    """Where the server's on-CPU samples went (all threads), and the hottest functions."""
    where, own, total = Counter(), Counter(), 0
    for thread, frames, n in _frames(path):
        if not frames:
            continue
        total += n
        where[_where(thread, frames)] += n
        own[frames[-1]] += n
    if not total:
        return f"profile {path}: no samples"
    lines = [f"profile {path}: {total} on-CPU samples", "  by caller:"]
    lines += [f"    {100 * n / total:5.1f}%  {name}" for name, n in where.most_common(top)]
    lines += ["  self:"] + [f"    {100 * n / total:5.1f}%  {name}" for name, n in own.most_common(top)]
    return "\n".join(lines)


def bot_decision_cpu(port: int) -> float:
    """CPU seconds the server's bots have spent deciding so far, as the server counts them
    (games/metrics.py, on its loopback metrics port)."""
    from urllib.request import urlopen

    from prometheus_client.parser import text_string_to_metric_families

    with urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        if family.name == "games_bot_decision_cpu_seconds"
        for sample in family.samples
        if sample.name.endswith("_total")
    )


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants_cpu_seconds(pid: int) -> float:
    """CPU seconds of every live descendant of `pid` (the server's bot thinker processes)."""
    parents, own = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        child = int(stat.parent.name)
        parents[child] = int(fields[1])
        own[child] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    total = 0.0
    for child in own:
        up = parents.get(child)
        while up is not None and up != pid and up > 1:
            up = parents.get(up)
        if up == pid:
            total += own[child]
    return total


def services_cpu_seconds() -> dict[int, float]:
    """CPU seconds per PostgreSQL and Redis server process (part of the workload)."""
    seconds = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        if name.startswith(("postgres", "redis-server")):
            fields = text.rsplit(")", 1)[1].split()
            seconds[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seconds


def services_delta(before: dict, after: dict) -> float:
    """CPU used between two samples by the processes alive at the second one."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all CPUs since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def percentiles(values_s: list[float]) -> dict:
    if not values_s:
        return {"n": 0}
    ms = sorted(v * 1000 for v in values_s)

    def pick(q):
        return ms[min(len(ms) - 1, int(q * len(ms)))]

    return {
        "n": len(ms),
        "p50": pick(0.50),
        "p95": pick(0.95),
        "p99": pick(0.99),
        "max": ms[-1],
        "mean": statistics.fmean(ms),
    }


def card_latencies(clients, plans, start: float, end: float):
    """Every card due in [start, end] at a seated socket, against its arrival: its "card" push,
    or — when the socket's state came after the card was due — that state, which shows it."""
    latencies, in_state, missing = [], 0, 0
    for client in clients:
        started, pace, receivers, version = plans[client.table_id]
        arrived = {dealt: t for dealt, t in client.cards}
        states = [t for v, t in client.states if v >= version]
        for index, seat in enumerate(receivers):
            due = started.timestamp() + index * pace / 1000
            if seat != client.seat or not start <= due <= end:
                continue
            if index + 1 in arrived:
                latencies.append(arrived[index + 1] - due)
                continue
            shown = next((t for t in states if t >= due), None)
            if shown is None:
                missing += 1
            else:
                latencies.append(shown - due)
                in_state += 1
    return latencies, in_state, missing


def action_latencies(clients, events):
    """Each accepted action → the first state at or after its version, at every socket of its table."""
    by_table: dict[int, list] = {}
    for client in clients:
        by_table.setdefault(client.table_id, []).append(client)
    latencies, missing = [], 0
    for table_id, seq, created_at, _source in events:
        created = created_at.timestamp()
        for client in by_table.get(table_id, ()):
            arrival = next((t for version, t in client.states if version >= seq and t >= created), None)
            if arrival is None:
                missing += 1
            else:
                latencies.append(arrival - created)
    return latencies, missing


def bot_move_waits(events, delay_ms: int) -> list[float]:
    """Each bot move: due (its table's previous change + the bot delay) → accepted by the
    write path. Not part of (b), which starts at acceptance: this shows the queue before the
    write, which a player's action would wait in too."""
    rows = sorted(events)
    waits = []
    for before, move in itertools.pairwise(rows):
        if move[0] == before[0] and move[1] == before[1] + 1 and move[3] == "bot":
            waits.append((move[2] - before[2]).total_seconds() - delay_ms / 1000)
    return waits


def fmt(stats: dict) -> str:
    if not stats.get("n"):
        return "n=0"
    return (
        f"n={stats['n']}  p50 {stats['p50']:.1f}  p95 {stats['p95']:.1f}  p99 {stats['p99']:.1f}  "
        f"max {stats['max']:.1f} ms"
    )
