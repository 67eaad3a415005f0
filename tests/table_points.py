"""Tables at the named points of one hand, for the tests that look at a table: the hand is
played once per worker and looked at many times (a pytest plugin, loaded by tests/conftest.py).

`table_at(point)` gives a table at one of POINTS, each a table of its own where the same four
people sit (no bot, no turn limit, the next hand an hour away: nothing on it falls due while a
page looks). The first test of a worker that asks plays the hand through the write path
(tests/table_driver.py) from the fixed deck, once per point with the same plays, each table
stopped at its point, and saves their rows; each later test gets them again in its emptied
database (tests/saved_rows.py), with the same keys.

A test looks and does not act: the live servers remember each table at its version, and a
table moved on would be ahead of the next test's copy. The fixture checks it after the test.
"""

import random
from dataclasses import dataclass

import pytest
from django.test import override_settings

from games.models import Table
from games.runtime import writer
from tests import saved_rows
from tests.conftest import make_table, make_user
from tests.table_driver import drive

# Each point, by the state of the hand that reaches it, in the order the hand reaches them.
# Every one is the dealer's to look at: one player's pages see them all.
POINTS = {
    "bury": lambda g: g.phase == "bury",  # the dealer holds the kitty (RULES §4.1)
    "mid-trick": lambda g: g.phase == "play" and bool(g.trick) and g.turn == g.dealer,  # the dealer to follow
    "held-trick": lambda g: g.phase == "play" and len(g.tricks) == 2 and not g.trick,  # the second just won
    "result": lambda g: g.phase == "scored",
}
PEOPLE = ("lan", "bo", "chen", "dong")  # seated in this order at every point's table
AN_HOUR_MS = 3_600_000  # longer than any run of the suite


@dataclass(frozen=True)
class TablePoint:
    table_id: int
    version: int
    player: str  # the dealer's username, whose view the tests take


_saved: tuple[dict[str, TablePoint], str] | None = None  # this worker's points and their rows


def _play(password: str) -> dict[str, TablePoint]:
    people = [make_user(name, password) for name in PEOPLE]
    points = {}
    for point, reached in POINTS.items():
        table = make_table(people[0], players=people, is_private=True, turn_limit_s=0, rated=False)
        writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=people[0])
        table, game = drive(table.pk, people, reached, rng=random.Random(3))  # the same plays at every table
        points[point] = TablePoint(table.pk, table.version, people[game.dealer].username)
    return points


def table_point(point: str, password: str) -> TablePoint:
    """The table at `point` (POINTS), in this test's database."""
    global _saved
    if _saved is None:
        before = saved_rows.marks()
        with override_settings(GAMES_NEXT_HAND_DELAY_MS=AN_HOUR_MS):
            points = _play(password)
        _saved = points, saved_rows.snapshot(after=before)
    elif not Table.objects.filter(pk=_saved[0][point].table_id).exists():
        saved_rows.restore(_saved[1])
    return _saved[0][point]


@pytest.fixture
def table_at(transactional_db):
    """`table_at(point)`: a TablePoint; after the test, each table it gave is as it was."""
    from tests.browser import PASSWORD, in_a_thread

    given: list[TablePoint] = []

    def at(point: str) -> TablePoint:
        # In a thread of its own: the write path's group sends may not run in Playwright's loop.
        found = in_a_thread(table_point, point=point, password=PASSWORD)
        given.append(found)
        return found

    yield at
    for found in given:
        now = Table.objects.get(pk=found.table_id).version
        assert now == found.version, f"table {found.table_id} moved on ({found.version} → {now}): look, do not act"
