"""The rules page (/rules/) in a real chromium, as a visitor sees it: axe-core finds no serious
or critical violation, nothing is wider than the window, and the glossary words explain
themselves to the keyboard (focus shows the tip, Escape hides it), to the mouse (the tip stays
inside the window) and to a finger (the first tap shows it, the second follows the link), on a
phone (390×844) and a laptop (1366×768), in English and Chinese.

Screenshots of every section go to artifacts/screenshots/rules/ (gitignored); look at them.
"""

import pytest

from games.rulebook import ANCHORS
from tests.axe import assert_accessible
from tests.browser import SHOTS, TIMEOUT_MS, screenshot
from tests.web.test_pages_browser import LANGUAGES, PHONE, SQUEEZED, WIDTHS

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

RULES_SHOTS = SHOTS / "rules"
SIZES = {"phone": PHONE, "1366x768": {"viewport": {"width": 1366, "height": 768}}}
FOCUSED_TERM = "() => document.activeElement.matches('a.term') && document.activeElement.dataset.term"
BOX = "(el) => { const r = el.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom, innerWidth, innerHeight]; }"


def open_rules(browser, server, size, language):
    context = browser.new_context(**SIZES[size], reduced_motion="reduce")
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    response = page.goto(f"{server}/rules/")
    assert response.ok, response.status
    return context, page


def tip_of(page, term):
    return page.locator(f"#{term.get_attribute('aria-describedby')}")


def inside_window(box) -> bool:
    left, right, top, bottom, width, height = box
    return left >= 0 and right <= width and top >= 0 and bottom <= height


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_the_rules_page_is_accessible_and_fits(server, browser, size, language):
    context, page = open_rules(browser, server, size, language)
    for anchor in ("top", *ANCHORS):  # the screen a reader lands on from each line of the contents
        if anchor != "top":
            page.evaluate("(id) => document.getElementById(id).scrollIntoView()", anchor)
        screenshot(page, RULES_SHOTS / f"{anchor}-{size}-{language}.png")
    assert_accessible(page, f"/rules/ at {size} in {language}", measured_contrast=True)
    scroll_width, inner_width = page.evaluate(WIDTHS)
    assert scroll_width <= inner_width == SIZES[size]["viewport"]["width"]
    assert page.evaluate(SQUEEZED) == []
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_keyboard_reaches_a_term_whose_tip_shows_on_focus(server, browser, language):
    context, page = open_rules(browser, server, "1366x768", language)
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_TERM):
            break
    else:
        raise AssertionError("no glossary term is reached with the Tab key")
    term = page.locator(":focus")
    tip = tip_of(page, term)
    assert tip.is_visible() and tip.get_attribute("role") == "tooltip"
    assert inside_window(tip.evaluate(BOX))
    screenshot(page, RULES_SHOTS / f"term-focus-1366x768-{language}.png")
    page.keyboard.press("Escape")
    assert tip.is_hidden()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert tip.is_visible()
    # The contents are links to the sections: Enter on one goes there.
    page.locator('.rules-toc a[href="#glossary"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash === '#glossary'")
    assert page.locator("#glossary-title").is_visible()
    context.close()


def test_a_tip_under_the_mouse_stays_inside_the_window(server, browser):
    context, page = open_rules(browser, server, "1366x768", "en")
    terms = page.locator("#pairs-tractors a.term")
    rightmost = max(range(terms.count()), key=lambda i: terms.nth(i).evaluate(BOX)[1])
    term = terms.nth(rightmost)
    term.scroll_into_view_if_needed()
    assert tip_of(page, term).is_hidden()
    term.hover()
    tip = tip_of(page, term)
    assert tip.is_visible()
    left, right, *_rest, width, _height = tip.evaluate(BOX)
    assert left >= 0 and right <= width
    tip.hover()  # the pointer may move onto the tip to read it (WCAG 1.4.13)
    assert tip.is_visible()
    context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tap_shows_the_definition_and_a_second_tap_follows_the_link(server, browser, language):
    context, page = open_rules(browser, server, "phone", language)
    term = page.locator('#kitty a.term[data-term="kitty"]').first
    term.scroll_into_view_if_needed()
    term.tap()
    tip = tip_of(page, term)
    assert tip.is_visible() and page.evaluate("location.hash") == ""
    assert inside_window(tip.evaluate(BOX))
    screenshot(page, RULES_SHOTS / f"term-tap-phone-{language}.png")
    page.locator("#kitty h2").tap()  # a tap elsewhere closes it
    assert tip.is_hidden()
    term.tap()
    assert tip.is_visible()
    term.tap()
    page.wait_for_function("() => location.hash === '#term-kitty'")
    assert page.locator("#term-kitty").is_visible()
    context.close()
