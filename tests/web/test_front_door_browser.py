"""The way in, walked as a visitor who has never played, in a real chromium: the home page,
the rules in both languages, a guest's game against bots to the end of the first trick, then
registering, after which the guest's table and match are the new account's history.
Also: axe-core on the home page (visitor and logged in), /rules/ and a guest's table, and
screenshots of each at 1366×768 and 390×844 in both languages (artifacts/screenshots/front/).
"""

import re
import time

import pytest
from django.contrib.auth import get_user_model

from games.models import Match, Table
from games.rulebook import ANCHORS
from tests.axe import assert_accessible
from tests.browser import (
    PASSWORD,
    SHOTS,
    TIMEOUT_MS,
    log_in,
    oracle,
    screenshot,
)
from tests.conftest import make_user
from tests.web.test_pages_browser import LANGUAGES, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

FRONT_SHOTS = SHOTS / "front"
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
SIZES = {"1366x768": LAPTOP, "phone": PHONE}


def shot(page, name):
    screenshot(page, FRONT_SHOTS / f"{name}.png", full_page=True)


def in_language(browser, server, language, size, **options):
    context = browser.new_context(**SIZES[size], **options)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    return context


def tricks_done(table_id) -> int:
    _table, game = oracle(table_id)
    return len(game.tricks or ()) if game is not None else 0


def act_with_hint(page, table_id):
    """The guest's turn (the bury or a play): ask Hint, then press the enabled button."""
    page.locator("[data-hint]").first.click()
    button = page.get_by_test_id("play")
    page.wait_for_function(
        "() => { const b = document.querySelector('[data-testid=play]'); return b && !b.disabled; }",
        timeout=TIMEOUT_MS,
    )
    button.click()


def test_a_visitor_reads_the_rules_plays_as_a_guest_and_keeps_the_game(server, browser):
    context = in_language(browser, server, "en", "1366x768")
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(server + "/")
    assert page.get_by_test_id("play-as-guest").is_visible()
    assert page.locator('a[href="/learn/"]').count() and page.locator('a[href="/rules/"]').count()

    # The rules, in English and then in Chinese (the header's language switch), every section
    # there each time, and back to the home page with the browser's Back.
    for language in ("en", "zh-hans"):
        if language != "en":
            page.locator(f'.lang-switch button[value="{language}"]').click()
            page.wait_for_selector(f'html[lang="{language}"]')
        page.locator('main a[href="/rules/"]').first.click()
        page.wait_for_url(re.compile(r"/rules/$"))
        assert page.locator("html").get_attribute("lang") == language
        for anchor in ANCHORS:
            assert page.locator(f"#{anchor}").count() == 1, anchor
        page.go_back()
        page.wait_for_selector("[data-testid=play-as-guest]")
    page.locator('.lang-switch button[value="en"]').click()
    page.wait_for_selector('html[lang="en"]')

    # One click: a table with three bots, the deal under way, the guest at North.
    page.get_by_test_id("play-as-guest").click()
    page.wait_for_url(re.compile(r"/tables/\d+/"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    page.wait_for_selector("#conn.online")
    page.wait_for_function("() => document.querySelectorAll('#hand .card-btn').length > 0")
    shot(page, "guest-table-dealing-1366x768-en")

    # Play to the end of the first trick: the guest buries if they deal, and plays when asked.
    deadline = time.monotonic() + 90
    while tricks_done(table_id) < 1:
        assert time.monotonic() < deadline, "the first trick did not end"
        table, game = oracle(table_id)
        if game.turn == 0 and game.phase in ("bury", "play") and page.locator("[data-hint]").count():
            act_with_hint(page, table_id)
            page.wait_for_function(f"() => Number(document.getElementById('table').dataset.version) > {table.version}")
        time.sleep(0.1)
    shot(page, "guest-table-first-trick-1366x768-en")

    # Register from the guest's reminder: the same table and match are the account's now.
    page.goto(server + "/")
    page.get_by_test_id("guest-bar").get_by_role("link").click()
    page.wait_for_url(re.compile(r"/accounts/register/$"))
    page.fill('input[name="username"]', "newcomer")
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.locator('main button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/matches/$"))
    user = get_user_model().objects.get(username="newcomer")
    table = Table.objects.get(pk=table_id)
    assert table.owner_id == user.pk and not user.profile.is_guest
    match = Match.objects.get(table=table)
    assert page.locator(f'a[href="/matches/{match.pk}/"]').count() >= 1
    assert page.get_by_test_id("guest-bar").count() == 0
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_way_in_is_accessible_and_looked_at(server, browser, language):
    make_user("regular", PASSWORD)
    for size in SIZES:
        # axe reads the guest's table while it is dealt: without motion, no card is caught
        # halfway through its arrival in blended colours (as in the page sweep).
        context = in_language(browser, server, language, size, reduced_motion="reduce")
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(server + "/")
        assert page.get_by_test_id("front-door").is_visible()
        shot(page, f"home-visitor-{size}-{language}")
        assert_accessible(page, f"home page for a visitor at {size}, {language}")
        page.goto(server + "/rules/")
        shot(page, f"rules-{size}-{language}")
        assert_accessible(page, f"/rules/ at {size}, {language}")
        page.goto(server + "/")
        page.get_by_test_id("play-as-guest").click()
        page.wait_for_url(re.compile(r"/tables/\d+/"))
        page.wait_for_selector("#conn.online")
        page.wait_for_function("() => document.querySelectorAll('#hand .card-btn').length >= 10")
        shot(page, f"guest-table-{size}-{language}")
        assert_accessible(page, f"a guest's table at {size}, {language}")
        page.goto(server + "/")
        shot(page, f"home-guest-{size}-{language}")
        assert_accessible(page, f"home page for a guest at {size}, {language}")
        context.close()
        context = in_language(browser, server, language, size, reduced_motion="reduce")
        page = log_in(context, server, "regular")
        page.goto(server + "/")
        assert page.get_by_test_id("play-now").is_visible() and page.get_by_test_id("front-door").count() == 0
        shot(page, f"home-player-{size}-{language}")
        assert_accessible(page, f"home page for a player at {size}, {language}")
        context.close()
