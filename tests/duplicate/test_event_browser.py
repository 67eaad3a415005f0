"""In a real chromium against a live server: a player registers with a partner and checks
in on the event's page, the round starts, a board is played at every table (through the
write path, the test playing the people's turns as they would, the clock's steps and bots
as the clock does; or at the player's own table by clicking cards on the table page), and
the standings on the open page move without a reload (the event's socket)."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth import get_user_model
from django.db import connections

from games.duplicate import service
from games.duplicate.models import EventTable
from tests.browser import (
    PASSWORD,
    SHOTS,
    log_in,
    screenshot,
)
from tests.conftest import make_user
from tests.duplicate.events import an_event, organiser, pairs_entered
from tests.table_driver import drive
from tests.web.test_pages_browser import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.events, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def event(server):
    event = an_event(organiser("organiser", PASSWORD), name="Browser duplicate")
    pairs_entered(event, [make_user(name, PASSWORD) for name in ("ada", "bea", "cal", "dan")])
    make_user("mei", PASSWORD), make_user("lin", PASSWORD)
    return event


def off_the_loop(function, **arguments):
    """Run a write in a thread of its own: its group sends (after commit) need a thread
    without Playwright's event loop."""

    def run():
        try:
            return function(**arguments)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def play_first_boards():
    for at in EventTable.objects.select_related("table"):
        users = {s.position: s.user for s in at.table.seats.select_related("user") if s.user_id}
        drive(at.table.pk, users, lambda game: game.phase == "scored")


def test_register_check_in_and_see_the_standings_move(server, event, browser, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 60_000
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    partner_context = browser.new_context(**PHONE)
    partner = log_in(partner_context, server, "lin")
    partner.goto(f"{server}/events/{event.pk}/")  # open before the invitation: it is pushed
    context = browser.new_context(**PHONE)
    page = log_in(context, server, "mei")
    page.goto(f"{server}/events/{event.pk}/")
    page.fill("#partner", "lin")
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector('[data-testid="asked"]')
    partner.wait_for_selector('[data-testid="invitation"] >> text=mei asked you to play as a pair.')
    partner.get_by_role("button", name="Confirm the pair").click()  # a form the socket rendered
    partner.wait_for_selector('[data-testid="withdraw"]')
    partner_context.close()
    page.get_by_role("button", name="Check in").click()  # pushed once lin confirmed
    page.wait_for_selector('[data-testid="checked-in"]')

    off_the_loop(service.event_start_round, event_id=event.pk)  # what the events' clock does at the start
    page.reload()
    page.wait_for_selector('[data-testid="my-table"]')
    page.wait_for_selector("#event-standings >> text=No board has been scored yet.")
    off_the_loop(play_first_boards)
    row = page.locator('#event-standings [data-testid="standings"] tr', has_text="mei & lin")
    row.wait_for()  # pushed: the page was not reloaded
    assert "/ 2" in row.inner_text()  # two tables (one pair against bots), one board: one other result
    screenshot(page, SHOTS / "event-standings-phone-en.png", full_page=True)
    context.close()


def test_a_player_plays_a_board_by_clicking_and_the_standings_move(server, event, browser, settings):
    """mei registers with lin and checks in, opens her table from the event page, and plays
    the board by clicking her cards; the others at her table are played for (autoplay, as
    after a time-out), the other table through the write path. The event page, open on
    another tab, shows the standings move."""
    from games import engine
    from games.models import Seat
    from tests.browser import at_version, click_cards, wait_for

    settings.GAMES_NEXT_HAND_DELAY_MS = 60_000
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = log_in(context, server, "mei")
    page.goto(f"{server}/events/{event.pk}/")
    page.fill("#partner", "lin")
    page.get_by_role("button", name="Register").click()
    page.wait_for_selector('[data-testid="asked"]')
    lin = get_user_model().objects.get(username="lin")
    off_the_loop(service.event_partner_confirm, event_id=event.pk, user=lin)
    page.get_by_role("button", name="Check in").click()  # pushed once lin confirmed
    page.wait_for_selector('[data-testid="checked-in"]')

    off_the_loop(service.event_start_round, event_id=event.pk)
    page.wait_for_selector('[data-testid="my-table"]')  # pushed: the page was not reloaded
    assert page.locator(".event-registration").count() == 0
    standings = context.new_page()
    standings.goto(f"{server}/events/{event.pk}/")
    standings.wait_for_selector("#event-standings >> text=No board has been scored yet.")

    mine = EventTable.objects.get(table__seats__user__username="mei")
    table_id = mine.table_id
    seat = Seat.objects.get(table_id=table_id, user__username="mei").position
    Seat.objects.filter(table_id=table_id, user__isnull=False).exclude(position=seat).update(autoplay=True)
    # A hidden tab's timers fire once a second: she plays in the tab in front.
    page.bring_to_front()
    page.click('[data-testid="my-table"]')
    page.wait_for_url(f"**/tables/{table_id}/**")

    rng = __import__("random").Random(42)
    played = 0  # cards mei played by clicking
    while True:
        table, game = wait_for(
            lambda t, g: (
                g.phase == "scored"
                or (g.phase in ("bury", "play") and g.turn == seat)
                or (g.phase == "bury" and g.dealer == seat)
            ),
            table_id,
            timeout=60,
            what="mei's turn",
        )
        if game.phase == "scored":
            break
        at_version(page, table.version)
        if game.phase == "bury":
            button, cards = page.locator('[data-action="bury"]'), engine.view(game, seat)["hand"][-8:]
        else:
            button, cards = page.locator('[data-action="play"]'), engine.sample_play(game, seat, rng)
        button.wait_for()
        held = len(game.hands[seat])
        click_cards(page, cards)
        page.wait_for_function(
            "b => !document.querySelector(`[data-action=${b}]`).disabled",
            arg=game.phase,
        )
        button.click()
        _table, after = wait_for(lambda t, g, v=table.version: t.version > v, table_id, what="mei's move")
        if game.phase == "play":  # what left her hand: a failed throw plays less than she chose
            played += held - len(after.hands[seat])
    assert played == 25  # every card of her hand, by clicking
    assert Seat.objects.get(table_id=table_id, position=seat).autoplay is False  # nobody played for mei

    standings.bring_to_front()
    row = standings.locator('#event-standings [data-testid="standings"] tr', has_text="mei & lin")
    row.wait_for()  # pushed when mei's table scored the board: nothing to compare with yet
    off_the_loop(play_other_tables, but=table_id)
    row.filter(has_text="/ 2").wait_for()  # pushed again: two tables, one other result
    screenshot(standings, SHOTS / "event-standings-after-clicking-en.png", full_page=True)
    context.close()


def play_other_tables(but):
    for at in EventTable.objects.select_related("table").exclude(table_id=but):
        users = {s.position: s.user for s in at.table.seats.select_related("user") if s.user_id}
        drive(at.table.pk, users, lambda game: game.phase == "scored")
