"""The analysis queue survives its worker: real `manage.py analysis_worker` processes on the
test database (django-tasks-db's table is the queue).

A hand is scored while no worker runs: its analysis waits in the queue. A worker started
then is killed (SIGKILL, no goodbye) in the middle of the analysis; a second worker,
started later, finds it and finishes it, with the same numbers as the analysis computed
in this process (so the result depends on the seed only, not on the process).
"""

import os
import signal
import subprocess
import sys
import time

import pytest
from django.test import override_settings
from django_tasks_db.models import DBTaskResult

from games import selectors
from games.analysis import decisions, tasks
from games.analysis.models import Decision, HandAnalysis
from games.models import Hand, Table
from tests import servers
from tests.analysis.test_analysis import BUDGET
from tests.conftest import make_table, make_user
from tests.history.test_replay import FAST, drive


@pytest.fixture
def scored(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), override_settings(**FAST, GAMES_ANALYSIS_BUDGET=BUDGET):
        people = [make_user(f"aw-{name}") for name in ("north", "east", "south", "west")]
        table = make_table(people[0], players=people)
        drive(table, people, hands=1, seed=5)
        hand = Hand.objects.filter(match__table=table, finished_at__isnull=False).get()
        yield hand
        DBTaskResult.objects.filter(task_path=tasks.analyse_hand.module_path).delete()
        Table.objects.filter(pk=table.pk).delete()
        for user in people:
            user.delete()


def _worker() -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": servers.test_database_url(), "DEBUG": "1"}
    return subprocess.Popen(
        [sys.executable, "manage.py", "analysis_worker", "--interval", "0.2"],
        cwd=servers.ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def _wait(predicate, timeout: float, what: str, process=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the worker exited: {process.stdout.read().decode()[-3000:]}")
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def _task(hand):
    return DBTaskResult.objects.filter(task_path=tasks.analyse_hand.module_path, args_kwargs__args=[hand.pk])


@pytest.mark.django_db(transaction=True)
def test_a_queued_analysis_runs_after_the_worker_comes_back(scored):
    hand = scored
    assert HandAnalysis.objects.get(hand=hand).status == "queued"
    assert _task(hand).get().status == "READY"  # enqueued on commit, nobody to run it
    # Slow it down (the budget is read when the analysis runs) to kill the worker mid-way.
    HandAnalysis.objects.filter(hand=hand).update(budget=10 * BUDGET)
    first = _worker()
    try:
        _wait(lambda: _task(hand).filter(status="RUNNING").exists(), 60, "the first worker to start it", first)
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
    finally:
        if first.poll() is None:
            first.kill()
    assert HandAnalysis.objects.get(hand=hand).status == "queued"
    assert not Decision.objects.filter(analysis__hand=hand).exists()
    HandAnalysis.objects.filter(hand=hand).update(budget=BUDGET)
    second = _worker()
    try:
        _wait(lambda: HandAnalysis.objects.get(hand=hand).status == "done", 120, "the second worker to finish", second)
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(20)
    analysis = HandAnalysis.objects.get(hand=hand)
    stored = [
        (d.index, d.seat, d.played, d.suggested, d.played_points, d.suggested_points) for d in analysis.decisions.all()
    ]
    before, own = selectors.hand_log(hand)
    here = decisions.hand_decisions(
        [a for _, _, a in before],
        [decisions.LoggedAction(seq, source, a) for seq, source, a in own],
        rules=hand.game_rules(),
        seed=analysis.seed,
        level=analysis.level,
        budget=analysis.budget,
    )
    assert stored == [(d.index, d.seat, d.played, d.suggested, d.played_points, d.suggested_points) for d in here]
    assert len(stored) > 50
