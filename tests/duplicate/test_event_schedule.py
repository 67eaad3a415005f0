"""The events' clock (games/duplicate/schedule.py, manage.py events): rounds start when
due, a round whose minutes are over is finished by bots, a repeated tick does nothing twice,
and an event without enough entries waits."""

import io
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.duplicate.models import Event, EventRound
from games.duplicate.schedule import events_tick
from games.models import Seat, Table
from tests.conftest import make_user
from tests.duplicate.events import an_event as club_event
from tests.duplicate.events import organiser, pairs_entered
from tests.duplicate.test_event_run import play_round

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def an_event(pairs, starts_in=timedelta(0)):
    event = club_event(
        organiser(f"organiser{pairs}"),
        name="Scheduled",
        rounds=2,
        round_minutes=10,
        starts_at=timezone.now() + starts_in,
    )
    pairs_entered(event, [make_user(f"s{pairs}-{i}{side}") for i in range(pairs) for side in "ab"])
    return event


def test_the_clock_runs_an_event_round_by_round(settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    later = an_event(3, starts_in=timedelta(hours=1))
    event = an_event(4)
    assert events_tick() == [f"event {event.pk}: round 1 started"]  # the later event is not due
    assert events_tick() == []  # the round is being played
    play_round(EventRound.objects.get(event=event, number=1))
    out = io.StringIO()
    call_command("events", "--once", stdout=out)
    assert out.getvalue().strip() == f"event {event.pk}: round 2 started"
    second = EventRound.objects.get(event=event, number=2)
    tables = Table.objects.filter(event_table__round=second)
    assert events_tick(now=second.ends_at + timedelta(seconds=1)) == [
        f"event {event.pk}: round 2 time up, bots finish 2 table(s)"
    ]
    assert set(Seat.objects.filter(table__in=tables).values_list("autoplay", flat=True)) == {True}
    play_round(second)
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    assert events_tick(now=second.ends_at + timedelta(hours=2)) == [f"event {later.pk}: round 1 started"]


def test_an_event_without_enough_entries_waits():
    event = an_event(2)
    assert events_tick() == []
    assert Event.objects.get(pk=event.pk).status == Event.Status.REGISTRATION
    assert not Table.objects.exists()


def test_a_round_whose_tables_were_closed_ends_and_the_next_starts():
    from games.moderation.tables import table_close
    from tests.conftest import make_moderator

    event = an_event(3)
    events_tick()
    first = EventRound.objects.get(event=event, number=1)
    moderator = make_moderator()
    for table in Table.objects.filter(event_table__round=first):
        table_close(moderator=moderator, table_id=table.pk, reason="the room emptied")
    assert events_tick() == [
        f"event {event.pk}: round 1 ended with its tables closed",
        f"event {event.pk}: round 2 started",
    ]
    first.refresh_from_db()
    assert first.finished_at is not None
