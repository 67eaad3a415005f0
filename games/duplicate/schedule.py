"""An event's clock (docs/events.md): `events_tick` does what is due now, and
`manage.py events` calls it every few seconds.

Each step goes through the events' write path (service.py), which refuses what is not due,
so several processes ticking at once, or a tick repeated, change nothing twice.
"""

import logging
from datetime import datetime

from django.utils import timezone

from games.duplicate import service, table_boards
from games.duplicate.models import Event
from games.engine import Refusal

log = logging.getLogger(__name__)


def events_tick(now: datetime | None = None) -> list[str]:
    """Start the rounds that are due (the first at the event's start, each next one once the
    round before has finished) and hand the tables of rounds whose minutes are over to bots.
    Returns what it did, one line each."""
    now = now or timezone.now()
    done = []
    due = Event.objects.filter(status=Event.Status.REGISTRATION, starts_at__lte=now)
    running = Event.objects.filter(status=Event.Status.RUNNING)
    for event in list(due) + list(running):
        current = event.event_rounds.filter(number=event.current_round).first()
        if current is not None and current.finished_at is None and table_boards.round_end_check(current, now):
            done.append(f"event {event.pk}: round {current.number} ended with its tables closed")
            if event.current_round == event.rounds:
                continue
        if current is None or current.finished_at is not None:
            try:
                started = service.event_start_round(event_id=event.pk, now=now)
            except Refusal as refusal:  # too few entries checked in, or it happened meanwhile
                log.info("event %s: no round started: %s", event.pk, refusal.code)
                continue
            done.append(f"event {event.pk}: round {started.number} started")
        elif handed := service.event_round_time_up(event_id=event.pk, now=now):
            done.append(f"event {event.pk}: round {current.number} time up, bots finish {len(handed)} table(s)")
    return done
