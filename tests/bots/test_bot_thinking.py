"""Searching bots think in worker processes, not in the server's threads
(games/runtime/thinking.py): the server process spends (almost) none of its CPU on them,
the answer is the same function of the question as in-process, and a dead worker does
not stall the table."""

import asyncio
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from games import bots
from games.bots.observation import observe
from games.runtime import thinking
from tests.bots.test_bots import random_game


def a_question(level: str, seed: str = "think") -> thinking.Question:
    game = random_game(seed, stop_after=9)
    levels = tuple(level if position != 0 else "" for position in range(4))
    if game.turn == 0:  # the question is for a bot's seat
        levels = tuple(reversed(levels))
    return thinking.Question(thinking.Stamp(7, 42), game, levels, {"type": "bot_move", "seat": game.turn})


@pytest.fixture
def pool(settings):
    settings.GAMES_BOT_THINKERS = 1
    yield
    thinking.shutdown()


def test_a_strong_decision_costs_the_server_process_no_cpu(pool):
    q = a_question("strong")
    assert thinking.pooled(q)
    asyncio.run(thinking.decide(q))  # the pool's first use starts its process: not measured
    cpu, wall = time.process_time(), time.perf_counter()
    move = asyncio.run(thinking.decide(q))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    assert bots.is_legal(observe(q.game, q.step["seat"]), move)
    assert wall > 0.1  # it searched (strong: a time budget of 0.3-0.6 s)...
    assert cpu < 0.25 * wall  # ...but elsewhere: in a thread this process would burn all of it


def test_quick_levels_and_no_pool_decide_in_this_process(settings, monkeypatch):
    assert not thinking.pooled(a_question("basic")) and not thinking.pooled(a_question("novice"))
    settings.GAMES_BOT_THINKERS = 0
    q = a_question("strong")
    assert not thinking.pooled(q)
    searched_in = []  # the process each search ran in (not CPU time: a loaded machine lends less)

    def answer_here(question):
        searched_in.append(os.getpid())
        return answer_here.real(question)

    answer_here.real = thinking._answer_here
    monkeypatch.setattr(thinking, "_answer_here", answer_here)
    children = set(multiprocessing.active_children())
    move = asyncio.run(thinking.decide(q))
    assert searched_in == [os.getpid()]  # the same search, here
    assert set(multiprocessing.active_children()) <= children  # no thinker process started for it
    assert bots.is_legal(observe(q.game, q.step["seat"]), move)


def test_the_pool_answers_what_the_process_would(pool):
    """The answer is a function of the question alone (the table's id and version seed the
    bot), wherever it is computed: basic is deterministic, so compare it through the pool."""
    q = a_question("basic", seed="same")
    q = thinking.Question(q.table, q.game, tuple(level and "basic" for level in q.levels), q.step)
    executor = thinking._executor()
    assert executor.submit(thinking.answer, q).result(timeout=30) == thinking.answer(q)
    declare = thinking.Question(q.table, q.game, q.levels, {"type": "bot_declare"})
    assert executor.submit(thinking.answer, declare).result(timeout=30) == thinking.answer(declare)


def test_a_killed_worker_is_replaced_and_the_step_still_decided(pool):
    q = a_question("strong", seed="killed")
    asyncio.run(thinking.decide(q))
    killed = {child.pid for child in multiprocessing.active_children()}  # the thinkers
    assert killed
    for pid in killed:  # as the OOM killer would
        os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    move = asyncio.run(thinking.decide(q))  # broken pool: decided in a thread this once
    assert bots.is_legal(observe(q.game, q.step["seat"]), move)
    assert bots.is_legal(observe(q.game, q.step["seat"]), asyncio.run(thinking.decide(q)))
    fresh = {child.pid for child in multiprocessing.active_children()}
    assert fresh and not fresh & killed  # the next decision started thinkers of its own


SERVER = """
import asyncio, os, sys, time
import django
django.setup()
from games.runtime import thinking
from tests.bots.test_bot_thinking import a_question
asyncio.run(thinking.decide(a_question("strong")))
import multiprocessing
print(" ".join(str(child.pid) for child in multiprocessing.active_children()), flush=True)
time.sleep(60)
"""


def test_the_thinkers_leave_with_a_server_that_is_killed_outright():
    """SIGKILL leaves no pool shutdown to run: the thinkers must not wait for questions forever."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "GAMES_BOT_THINKERS": "1"}
    server = subprocess.Popen([sys.executable, "-c", SERVER], cwd=root, env=env, stdout=subprocess.PIPE, text=True)
    try:
        thinkers = [int(pid) for pid in server.stdout.readline().split()]
        assert thinkers and all(_alive(pid) for pid in thinkers)
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in thinkers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in thinkers)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"


def test_a_decision_made_here_is_counted_and_served_on_the_metrics_port(monkeypatch):
    import socket
    from urllib.request import urlopen

    from prometheus_client.parser import text_string_to_metric_families

    from games import metrics

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("GAMES_METRICS_PORT", str(port))
    assert metrics.serve_from_environment() == port

    def served() -> dict:
        with urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            families = text_string_to_metric_families(response.read().decode())
        return {(s.name, s.labels.get("level")): s.value for f in families for s in f.samples}

    before = served()
    q = a_question("basic")
    asyncio.run(thinking.decide(q))
    after = served()
    assert after[("games_bot_decisions_total", "basic")] == before.get(("games_bot_decisions_total", "basic"), 0) + 1
    spent = after[("games_bot_decision_cpu_seconds_total", "basic")]
    assert 0 < spent - before.get(("games_bot_decision_cpu_seconds_total", "basic"), 0) < 1.0


def test_a_metrics_port_already_taken_leaves_the_process_running_without_it(monkeypatch):
    import socket

    from games import metrics

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        monkeypatch.setenv("GAMES_METRICS_PORT", str(taken.getsockname()[1]))
        assert metrics.serve_from_environment() is None  # a second process of a stack: no crash
