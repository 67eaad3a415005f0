"""The coach on the table page, in a real chromium: Hint selects the suggested cards, Why?
shows the reason under the hand in a polite live region, by mouse and by keyboard, in
both languages, on a laptop and a phone, with no serious axe-core violation in the hand panel
(screenshots in artifacts/screenshots/coach/)."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from games.models import Table
from tests import axe
from tests.browser import (
    PASSWORD,
    SHOTS,
    in_a_thread,
    log_in,
    screenshot,
)
from tests.conftest import make_table, make_user
from tests.engine.test_engine_views import game_at

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LAPTOP = {"viewport": {"width": 1366, "height": 768}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def _a_turn_to_play():
    """A casual table in the middle of a trick, its player on turn: (table, that player's name)."""
    players = [make_user(name, PASSWORD) for name in ("coached", "east", "south", "west")]
    game = game_at("play")
    names = [p.username for p in players]
    names[0], names[game.turn] = names[game.turn], names[0]  # "coached" is on turn
    seated = [next(p for p in players if p.username == n) for n in names]
    table = make_table(seated[0], players=seated, rated=False)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING, state=game.to_json())
    return table


def _hand_panel_violations(page) -> list[dict]:
    """axe-core's serious and critical findings in the hand panel (Hint, Why? and the reason),
    unmeasured contrast included (tests/axe.py); the rest of the page is test_a11y_browser's."""
    page.evaluate(axe.SETTLED)
    options = {"resultTypes": ["violations", "incomplete"]}
    results = Axe().run(page, context=".hand-panel", options=options).response
    return axe.violations(page, results=results) + axe.unmeasured_contrast(page, results=results)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_hint_selects_the_cards_and_why_says_why(server, browser, language):
    table = in_a_thread(_a_turn_to_play)
    for size, options in (("laptop", LAPTOP), ("phone", PHONE)):
        context = browser.new_context(**options, reduced_motion="reduce")
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
        page = log_in(context, server, "coached")
        page.goto(f"{server}/tables/{table.pk}/")
        page.wait_for_selector("#conn.online")
        why = page.get_by_test_id("hint-why")
        assert why.get_attribute("aria-live") == "polite" and why.is_hidden()
        if size == "laptop":  # the keyboard: Tab to Hint, Enter; then Why?
            page.locator("[data-hint]").focus()
            page.keyboard.press("Enter")
        else:
            page.locator("[data-hint]").tap()
        page.wait_for_selector('#hand .card-btn[aria-pressed="true"]')
        assert why.is_hidden()  # the reason waits for Why?
        if size == "laptop":
            page.locator("[data-hint-why]").focus()
            page.keyboard.press("Enter")
        else:
            page.locator("[data-hint-why]").tap()
        why.wait_for(state="visible")
        text = why.inner_text()
        assert len(text) > 20
        assert any("\u4e00" <= ch <= "\u9fff" for ch in text) == (language == "zh-hans"), text
        page.wait_for_selector('[data-testid="play"]:not([disabled])')  # the hinted cards are legal
        found = _hand_panel_violations(page)
        assert not found, f"{size} {language}: " + "\n".join(axe.describe(v) for v in found)
        screenshot(page, SHOTS / "coach" / f"why-{size}-{language}.png")
        context.close()
