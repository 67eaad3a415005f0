"""The owner picks each bot's level at the table, and "Play now" seats the level the player
picked on its form (here the novice), remembered for next time: by clicking, in real
chromium, at the four windows in both languages. Screenshots: artifacts/screenshots/bot_levels/."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from games.models import Table
from tests.browser import (
    PASSWORD,
    SHOTS,
    log_in,
    screenshot,
)
from tests.conftest import make_table, make_user
from tests.web.test_pages_browser import LANGUAGES, SIZES

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LEVEL_SHOTS = SHOTS / "bot_levels"
LABELS = {"en": ("strong bot", "basic bot", "novice bot"), "zh-hans": ("高级机器人", "初级机器人", "新手机器人")}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", list(SIZES))
def test_levels_chosen_per_seat_and_for_play_now(server, browser, size, language):
    options = SIZES[size]
    name = "owner"
    owner = make_user(name, password=PASSWORD)
    context = browser.new_context(**options)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = log_in(context, server, name)
    strong, basic, novice = LABELS[language]

    # At a waiting table: a strong bot on the right, then changed to basic.
    # (in a thread: creating a table tells the lobby, and Playwright's loop runs in this one)
    with ThreadPoolExecutor(1) as thread:
        table = thread.submit(make_table, owner, players=[owner]).result()
    page.goto(f"{server}/tables/{table.pk}/")
    page.wait_for_selector("#conn.online")  # the socket is open: choices are sent
    seat = page.locator('.seat[data-seat="1"]')
    seat.locator('[data-testid="bot-level"]').select_option("strong")
    seat.locator('[data-action="add_bot"]').click()
    page.wait_for_selector('.seat[data-seat="1"][data-bot-level="strong"]')
    assert strong in seat.locator('[data-testid="seat-level"]').inner_text()
    page.locator('.seat[data-seat="2"] [data-action="add_bot"]').click()  # the default level
    page.wait_for_selector('.seat[data-seat="2"][data-bot-level]')
    screenshot(page, LEVEL_SHOTS / f"table-waiting-{size}-{language}.png", full_page=True)
    seat.locator('[data-testid="bot-level"]').select_option("basic")
    page.wait_for_selector('.seat[data-seat="1"][data-bot-level="basic"]')
    assert basic in seat.locator('[data-testid="seat-level"]').inner_text()
    assert table.seats.get(position=1).bot == "basic"

    # Play now, novice bots: seated, and the lobby remembers the choice.
    page.goto(f"{server}/")
    screenshot(page, LEVEL_SHOTS / f"lobby-{size}-{language}.png", full_page=True)
    page.locator('[data-testid="play-now-level"]').select_option("novice")
    page.locator('button[data-testid="play-now"]').click()
    page.wait_for_url(lambda url: "/tables/" in url)
    played = Table.objects.filter(owner=owner).latest("pk")
    assert [s.bot for s in played.seats.order_by("position")] == ["", "novice", "novice", "novice"]
    page.wait_for_selector('.seat[data-bot-level="novice"]')
    assert novice in page.locator('.seat[data-seat="1"] [data-testid="seat-level"]').inner_text()
    screenshot(page, LEVEL_SHOTS / f"play-now-table-{size}-{language}.png", full_page=True)
    page.goto(f"{server}/")
    assert page.locator('[data-testid="play-now-level"]').input_value() == "novice"
    context.close()
