"""Tables that nobody visits end by themselves.

A table where no person has been connected for GAMES_ABANDON_AFTER_S (an hour by default)
is closed through the one write path (`abandon`, issued by the system): a running match is
kept in history, marked aborted as abandoned, and the table leaves the lobby. Tables whose
every seat is a bot are left alone (`manage.py runtables` drives them).

`Table.people_seen_at` says when a person was last connected. Each server process writes it
when a person's socket opens or closes, and every sweep_every() for the tables where it holds
such sockets; the same loop then abandons what fell idle. The sweep must not wait for a
socket, though (after a restart nobody may open a table again), so `manage.py
analysis_worker`, which the stack and `.ci/serve` always start, runs it from its start in a
thread of its own (`start_sweeper`; `manage.py runtables` abandons idle tables too). That
thread also removes the guests who never came back (games/guest_sweep.py). Several processes may
race to abandon a table: the write path applies one and refuses the others.
"""

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import engine, events
from games.engine import Refusal
from games.guest_sweep import guests_sweep
from games.models import Seat, Table
from games.runtime import records
from games.runtime.commands import Applied, Issuer, Role, command
from games.runtime.writer import table_act

log = logging.getLogger(__name__)
TOUCH_EVERY = timedelta(minutes=5)
ABANDONED = gettext_noop("Nobody was at this table for a long time; it was closed.")
OPEN = (Table.Status.WAITING, Table.Status.PLAYING)


def abandon_after() -> timedelta:
    return timedelta(seconds=settings.GAMES_ABANDON_AFTER_S)


def sweep_every() -> float:
    """Seconds between rounds: TOUCH_EVERY, or a quarter of abandon_after() when that is
    shorter, so that a connected person's stamp never falls that far behind (but never a
    busy loop)."""
    return max(0.5, min(TOUCH_EVERY.total_seconds(), settings.GAMES_ABANDON_AFTER_S / 4))


def idle(table: Table, now: datetime) -> bool:
    """Read from the row, not the write path's cached copy: sockets stamp it directly."""
    seen = Table.objects.filter(pk=table.pk).values_list("people_seen_at", flat=True).get()
    return (seen or table.created_at) < now - abandon_after()


@command(
    "abandon",
    may={Role.SYSTEM},
    refusal=("not_allowed", gettext_noop("Only the server closes abandoned tables.")),
    lobby_visible=True,
)
def abandon(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Close a table nobody has been at for abandon_after(); checked again by the write path
    at the version it was judged on, so a person who came back in the meantime keeps it."""
    if table.status not in OPEN or not idle(table, now):
        raise Refusal("not_abandoned", gettext_noop("Someone is at this table: it stays open."))
    happened = [{"type": "table_closed"}]
    if table.status == Table.Status.PLAYING:
        records.abort_match(table, "abandoned", now)
        happened.append({"type": "match_aborted"})
    table.status = Table.Status.CLOSED
    table.closed_reason = "abandoned"
    table.deadline = None
    events.send_on_commit(
        group=events.table_group(table.pk),
        message={"type": "table.closed", "template": ABANDONED, "message": ABANDONED},
    )
    return [Applied({"type": "abandon"}, happened)]


def idle_tables(now: datetime) -> list[tuple[int, int]]:
    """(id, version) of open tables with a person's seat (or waiting for people) and nobody there."""
    cutoff = now - abandon_after()
    seen_long_ago = Q(people_seen_at__lt=cutoff) | Q(people_seen_at__isnull=True, created_at__lt=cutoff)
    people_or_waiting = Q(seats__user__isnull=False) | Q(status=Table.Status.WAITING)
    rows = Table.objects.filter(seen_long_ago, people_or_waiting, status__in=OPEN).values_list("pk", "version")
    return sorted(set(rows))


def abandon_idle(now: datetime | None = None) -> list[int]:
    """Abandon every idle table now; the ids of those this call closed."""
    now = now or timezone.now()
    closed = []
    for table_id, version in idle_tables(now):
        with contextlib.suppress(Refusal):  # someone came back, or another process was first
            table_act(table_id=table_id, action={"type": "abandon"}, expected_version=version, issuer=Issuer.SYSTEM)
            closed.append(table_id)
    return closed


def people_seen(table_ids) -> None:
    Table.objects.filter(pk__in=list(table_ids)).update(people_seen_at=timezone.now())


# --- the process's part (run by its rooms, games/web/rooms.py) -------------------------


async def stamp_left(table_id: int) -> None:
    """A person's socket closed here: the table was seen with a person until now."""
    try:
        await sync_to_async(people_seen)([table_id])
    except DatabaseError:  # the database is away: the stamp from the last round stands
        log.warning("table %s: could not stamp its last visit", table_id)


async def touch_and_sweep(tables_with_people: Callable[[], list[int]]) -> None:
    """Every sweep_every(): stamp the tables where this process holds people's sockets, and
    abandon what fell idle. Runs as long as the process's rooms do."""
    while True:
        await asyncio.sleep(sweep_every())
        try:
            if tables := tables_with_people():
                await sync_to_async(people_seen)(tables)
            await sync_to_async(abandon_idle)()
        except Exception:  # the loop must outlive a database hiccup; the next round retries
            log.exception("table lifecycle round failed")


# --- the sweep without sockets (called by manage.py analysis_worker) -------------------


def start_sweeper() -> threading.Thread:
    """Sweep in a thread of this process, from now until it exits (a daemon thread)."""
    thread = threading.Thread(target=_sweep_forever, name="table-lifecycle", daemon=True)
    thread.start()
    return thread


def _sweep_forever() -> None:
    # The first round waits too: after the whole site was down, its players get a moment to
    # come back before their tables count as idle.
    while True:
        time.sleep(sweep_every())
        try:
            abandon_idle()
            guests_sweep(now=timezone.now())
        except Exception:  # as in touch_and_sweep: the next round retries
            log.exception("table lifecycle sweep failed")
        finally:
            close_old_connections()  # a connection the database dropped is not kept
