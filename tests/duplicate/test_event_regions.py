"""The event page's shared regions kept in the cache (games/web/event_regions.py): after each
kind of change the page shows the new state at once, and what the cache keeps is exactly
what the page shows, never a card of a board some table may still play."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.duplicate import service
from games.duplicate.models import BoardResult, Event, EventRound, EventTable
from games.web.event_regions import render_shared
from tests.conftest import make_moderator, make_user
from tests.duplicate.test_event_pages import an_event, organiser  # noqa: F401 (a fixture)
from tests.duplicate.test_event_run import play_round
from tests.table_driver import drive

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def test_each_change_shows_at_once_and_the_cache_keeps_only_what_the_page_shows(
    organiser,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    event = an_event(organiser)
    people = [make_user(f"reg{i}") for i in range(6)]

    def change(write):
        with django_capture_on_commit_callbacks(execute=True):  # committed: the stamp is new
            write()

    def shown() -> str:
        """The page, checked against the database (a fresh render) and against the cache."""
        html = Client().get(reverse("event", args=[event.pk])).text
        with translation.override("en"):
            fresh = render_shared(Event.objects.get(pk=event.pk))
        _stamp, kept = cache.get(f"event-regions-{event.pk}-en")
        assert kept == fresh and all(region in html for region in kept.values())
        return html

    assert "Nobody has registered yet." in shown()
    for i in range(3):
        change(lambda i=i: service.event_register(event_id=event.pk, user=people[2 * i], partner=people[2 * i + 1]))
        assert f"reg{2 * i} &amp; reg{2 * i + 1}" in (asked := shown()) and "partner not confirmed yet" in asked
        change(lambda i=i: service.event_partner_confirm(event_id=event.pk, user=people[2 * i + 1]))
        assert "partner not confirmed yet" not in shown()
        change(lambda i=i: service.event_check_in(event_id=event.pk, user=people[2 * i]))
        assert shown().count("checked in") == i + 1

    change(lambda: service.event_start_round(event_id=event.pk))
    assert "Running" in (running := shown()) and "Table 2" in running and "No board has been scored yet." in running

    at = EventTable.objects.select_related("table").first()
    users = {s.position: s.user for s in at.table.seats.select_related("user") if s.user_id}
    change(lambda: drive(at.table.pk, users, lambda game: game.phase == "scored"))
    scored = shown()  # one table has scored the board, the other still plays it
    assert BoardResult.objects.count() == 1 and "No board has been scored yet." not in scored
    assert "data-card=" not in scored

    change(lambda: play_round(EventRound.objects.get(event=event)))
    finished = shown()
    assert "Finished" in finished and 'data-testid="board-1"' in finished and "data-card=" in finished
    assert "(adjusted)" not in finished

    result = BoardResult.objects.first()
    adjust = service.result_adjust
    change(lambda: adjust(moderator=make_moderator(), result_id=result.pk, defenders_score=200, reason="a revoke"))
    assert "200 (adjusted)" in shown()
