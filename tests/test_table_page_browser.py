"""The table page's per-player choices and endings, in a real chromium: the sound toggle and
the four-colour deck are remembered per account, and a player removed by a moderator is
told why instead of "reconnecting…" forever (issue #12)."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client

from accounts.models import Profile
from games.moderation import tables as moderation
from tests.conftest import make_moderator, make_user
from tests.test_browser import (  # noqa: F401  (fixtures: a live server, chromium, real password hashers)
    PASSWORD,
    TIMEOUT_MS,
    browser,
    log_in,
    server,
    server_password_hashers,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def in_a_thread(function, **kwargs):
    """A write-path call made outside Playwright's event loop (it sends group messages)."""

    def call():
        try:
            return function(**kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def play_now(page, server) -> int:
    page.goto(server + "/")
    page.get_by_test_id("play-now").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_selector("#conn.online")
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def test_sound_toggle_is_remembered_for_the_account(server, browser):
    user = make_user("listener", PASSWORD)
    page = log_in(browser.new_context(), server, "listener")
    play_now(page, server)
    toggle = page.locator("[data-sound-toggle]")
    assert toggle.get_attribute("aria-pressed") == "true"  # sounds are on by default
    with page.expect_response(lambda r: "/accounts/preferences/" in r.url and r.ok):
        toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert Profile.objects.get(user=user).sound is False
    # Another device of the same player starts with sounds off.
    other = log_in(browser.new_context(), server, "listener")
    other.goto(page.url)
    assert other.locator("[data-sound-toggle]").get_attribute("aria-pressed") == "false"


def test_four_colour_deck_from_the_settings_page(server, browser):
    make_user("colours", PASSWORD)
    page = log_in(browser.new_context(), server, "colours")
    page.goto(server + "/accounts/settings/")
    page.check('input[name="four_colour"]')
    page.click('main button[type="submit"]')
    page.wait_for_selector(".message")
    play_now(page, server)
    assert page.locator("body").get_attribute("data-deck") == "four-colour"
    # A diamond and a club, once dealt, are blue and green, not red and black.
    page.wait_for_function(
        "() => document.querySelector('#hand .s-D') && document.querySelector('#hand .s-C')", timeout=30_000
    )
    colours = page.evaluate(
        "() => ['s-D', 's-C', 's-H', 's-S'].map(s => getComputedStyle(document.querySelector('#hand .' + s) "
        "|| document.body).color)"
    )
    assert colours[0] == "rgb(26, 85, 196)" and colours[1] == "rgb(22, 129, 58)", colours


def test_a_kicked_player_is_told_why_and_stops_reconnecting(server, browser):
    user = make_user("rowdy", PASSWORD)
    moderator = make_moderator("mod")
    page = log_in(browser.new_context(), server, "rowdy")
    table_id = play_now(page, server)
    in_a_thread(
        moderation.seat_kick, moderator=moderator, table_id=table_id, user_id=user.pk, reason="Spamming the chat"
    )
    ended = page.locator("#ended")
    ended.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert "Spamming the chat" in ended.inner_text()
    assert "reconnecting" not in page.locator("#conn").inner_text()
    # Opened again, the page is refused (the kick stands), and nothing reconnects.
    page.wait_for_timeout(1500)
    assert "reconnecting" not in page.locator("#conn").inner_text()
    assert Client().get(f"/tables/{table_id}/").status_code in (302, 404)
