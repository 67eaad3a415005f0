"""The event page's socket: standings pushed when a table scores a board (after commit,
rendered from the database), never a card; private events refuse strangers."""

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from games.duplicate import service
from games.duplicate.models import EventTable
from tests.conftest import WsClient, make_moderator, make_user, session_cookie, ws_client
from tests.duplicate.events import an_event, pairs_entered
from tests.table_driver import cards_in, drive

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.events]


@sync_to_async
def private_event_under_way():
    event = an_event(make_user("organiser"), name="Club", starts_at=timezone.now(), is_private=True)
    people = [make_user(f"sock{i}") for i in range(6)]
    pairs_entered(event, people)
    service.event_start_round(event_id=event.pk)
    return event, people


async def test_standings_are_pushed_when_a_board_is_scored(settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 60_000
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    event, people = await private_event_under_way()
    path = f"/ws/event/{event.pk}/"
    stranger = await sync_to_async(make_user)("stranger")
    refused = WsClient(path, cookie=await sync_to_async(session_cookie)(stranger))
    connected, _ = await refused.connect()
    assert not connected

    watcher = await ws_client(path, people[0])
    first = await watcher.receive()
    assert first["type"] == "event" and "No board has been scored yet." in first["html"]["standings"]
    assert 'data-testid="my-table"' in first["html"]["my-table"]  # the reader's own table
    assert "Table 1" in first["html"]["tables"] and "sock" in first["html"]["entries"]

    at = await sync_to_async(lambda: EventTable.objects.select_related("table").first())()
    users = await sync_to_async(
        lambda: {s.position: s.user for s in at.table.seats.select_related("user") if s.user_id}
    )()
    await sync_to_async(drive)(at.table.pk, users, lambda game: game.phase == "scored")
    pushed = await watcher.receive_until(lambda m: "sock" in m["html"]["standings"], timeout=10)
    assert 'data-testid="standings"' in pushed["html"]["standings"]
    await watcher.drain()
    assert all(not cards_in(m) for m in watcher.received)  # standings carry no card
    await watcher.close()


async def test_entries_rounds_and_results_are_pushed_after_each_commit(settings):
    """Each write that changes the page tells its sockets after commit: an entry, a check-in,
    a round started (the round's tables, the status), the event finished (results by board)."""
    from games.duplicate.models import EventRound
    from tests.duplicate.test_event_run import play_round

    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    organiser = await sync_to_async(make_user)("organiser")
    event = await sync_to_async(an_event)(organiser, name="Club", starts_at=timezone.now(), is_private=True)
    people = [await sync_to_async(make_user)(f"push{i}") for i in range(6)]
    watcher = await ws_client(f"/ws/event/{event.pk}/", organiser)
    first = await watcher.receive()
    assert first["registration"] and "Nobody has registered yet." in first["html"]["entries"]

    for i in range(3):
        await sync_to_async(service.event_register)(event_id=event.pk, user=people[2 * i], partner=people[2 * i + 1])
        await sync_to_async(service.event_partner_confirm)(event_id=event.pk, user=people[2 * i + 1])
        await watcher.receive_until(lambda m, i=i: f"push{2 * i} &amp; push{2 * i + 1}" in m["html"]["entries"])
        await sync_to_async(service.event_check_in)(event_id=event.pk, user=people[2 * i])
        await watcher.receive_until(lambda m, i=i: m["html"]["entries"].count("checked in") == i + 1)

    await sync_to_async(service.event_start_round)(event_id=event.pk)
    started = await watcher.receive_until(lambda m: not m["registration"])
    assert "Running" in started["html"]["status"] and "Table 2" in started["html"]["tables"]
    assert not started["html"]["results"].strip()

    await sync_to_async(lambda: play_round(EventRound.objects.get(event=event)))()
    finished = await watcher.receive_until(lambda m: 'data-testid="board-1"' in m["html"]["results"], timeout=20)
    assert "Finished" in finished["html"]["status"]
    assert cards_in(finished)  # who held which cards, now that no table can play the board
    await watcher.drain()
    assert all(not cards_in(m) for m in watcher.received if "Finished" not in m["html"]["status"])
    await watcher.close()


async def test_the_named_partner_is_pushed_the_invitation_with_forms_that_post():
    """The partner's page gets "X asked you to play as a pair" as soon as X registers, with
    Confirm and Decline forms whose CSRF token (from the reader's own cookie) is accepted."""
    import re

    from django.test import Client
    from django.urls import reverse

    from games.duplicate.models import Entry

    asker, partner = [await sync_to_async(make_user)(name) for name in ("asker", "named")]
    staff = await sync_to_async(make_moderator)()  # a public event
    event = await sync_to_async(an_event)(staff, name="Invitations", starts_at=timezone.now())
    secret = "0123456789abcdefghijABCDEFGHIJkl"  # the reader's CSRF cookie, as the page set it
    cookie = await sync_to_async(session_cookie)(partner) + f"; csrftoken={secret}".encode()
    watcher = WsClient(f"/ws/event/{event.pk}/", user=partner, cookie=cookie)
    assert (await watcher.connect())[0]
    await watcher.receive()
    await sync_to_async(service.event_register)(event_id=event.pk, user=asker, partner=partner)
    pushed = await watcher.receive_until(lambda m: 'data-testid="invitation"' in m["html"]["registration"])
    region = pushed["html"]["registration"]
    assert "asker asked you to play as a pair." in region and 'data-testid="decline-pair"' in region
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', region).group(1)
    assert token != secret  # masked, as a page's

    def confirm(form_token):
        client = Client(enforce_csrf_checks=True)
        client.force_login(partner)
        client.cookies["csrftoken"] = secret
        return client.post(reverse("event_partner_confirm", args=[event.pk]), {"csrfmiddlewaretoken": form_token})

    assert (await sync_to_async(confirm)("b" * 64)).status_code == 403  # a forged token: nothing changes
    assert (await sync_to_async(confirm)(token)).status_code == 302
    assert await sync_to_async(lambda: Entry.objects.get().confirmed)()
    confirmed = await watcher.receive_until(lambda m: 'data-testid="withdraw"' in m["html"]["registration"])
    assert "Check in" in confirmed["html"]["registration"]
    await watcher.close()
