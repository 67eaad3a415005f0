"""The create-table form and the registration page in a real chromium (issue #40): axe-core
finds no serious or critical violation on the create form with "Advanced" open, a named
pace fills in its exact times and typing a time chooses "My own timing"; screenshots of
both pages at four sizes in both languages.

Screenshots go to artifacts/screenshots/create/ (gitignored); look at them.
"""

import pytest

from games.web.forms import PACES
from tests.axe import assert_accessible
from tests.browser import (
    SHOTS,
    TIMEOUT_MS,
    log_in,
    screenshot,
)
from tests.conftest import make_user
from tests.web.test_pages_browser import LANGUAGES, SIZES

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

CREATE_SHOTS = SHOTS / "create"


@pytest.fixture
def owner(server):
    return make_user("mei")


def open_form(page, server):
    page.goto(f"{server}/")
    page.locator('[data-testid="rules-advanced"] > summary').click()
    page.locator("#create-heading").scroll_into_view_if_needed()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_create_form_is_accessible_and_its_pace_fills_the_times(owner, server, browser, language):
    context = browser.new_context(**SIZES["1366x768"])
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    try:
        page = log_in(context, server, owner.username)
        open_form(page, server)
        assert_accessible(page, f"the create form, {language}")
        page.locator('input[name="pace"][value="relaxed"]').check()
        assert page.input_value('input[name="deal_pace_ms"]') == str(PACES["relaxed"][0])
        assert page.input_value('input[name="last_chance_ms"]') == str(PACES["relaxed"][1])
        page.fill('input[name="deal_pace_ms"]', "90")
        assert page.locator('input[name="pace"][value="custom"]').is_checked()
    finally:
        context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_screenshots_of_the_create_form_and_registration(owner, server, browser, language):
    for size, options in SIZES.items():
        visitor = browser.new_context(**options)
        visitor.add_cookies([{"name": "django_language", "value": language, "url": server}])
        page = visitor.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{server}/accounts/register/")
        screenshot(page, CREATE_SHOTS / f"register-{language}-{size}.png", full_page=True)
        visitor.close()

        context = browser.new_context(**options)
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
        page = log_in(context, server, owner.username)
        open_form(page, server)
        form = page.locator(".lobby__create")
        screenshot(form, CREATE_SHOTS / f"create-{language}-{size}.png")
        screenshot(page, CREATE_SHOTS / f"lobby-{language}-{size}.png")
        context.close()
