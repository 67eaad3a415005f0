"""Every page around the table, in a real chromium, on a phone and on laptops, in both
languages: no sideways scroll, no text squeezed into a column of single characters, and no
serious or critical accessibility violation (axe-core, tests/axe.py: the lobby, login,
registration, password pages, the match list, a match, a replay mid-hand and at its end,
profiles, settings, a report, the moderation pages, events, and a hand's table at each of
tests/table_points.py's points). One test per size and language visits each page once.
Also: "Play now" in the lobby lands at a table whose deal is running.

With `--screenshots`, pictures go to artifacts/screenshots/pages/ (gitignored); look at them.
"""

import re

import pytest

from games import bot_levels
from games.models import Table
from tests.axe import assert_accessible
from tests.browser import (
    PASSWORD,
    SHOTS,
    TIMEOUT_MS,
    log_in,
    logged_in_context,
    screenshot,
)
from tests.pages_data import pages_of, shared_site
from tests.table_points import POINTS

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PAGE_SHOTS = SHOTS / "pages"  # test_browser.py clears SHOTS/*.png; these stay
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SIZES = {
    "phone": PHONE,
    "1366x768": {"viewport": {"width": 1366, "height": 768}},
    "1366x650": {"viewport": {"width": 1366, "height": 650}},
    "1920x1080": {"viewport": {"width": 1920, "height": 1080}},
}
LANGUAGES = ("en", "zh-hans")
# axe leaves out 1366×650: it has 1366×768's width, so the same styles apply, and axe checks
# the whole document, not what the window shows.
A11Y_SIZES = {size: options for size, options in SIZES.items() if size != "1366x650"}

# Text laid out so narrow that it reads down, not across: a visible text node of two or more
# characters whose lines hold three characters or fewer on average, or which wraps
# inside a box narrower than 40 px. Visually hidden text (1 px boxes) does not count.
SQUEEZED = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    const box = node.parentElement;
    if (text.length < 2 || !box || !box.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    if (box.closest("script, style, option")) continue;
    let hidden = false;  // clipped away for screen readers only (.visually-hidden and the like)
    for (let el = box; el && !hidden; el = el.parentElement) hidden = getComputedStyle(el).clip !== "auto";
    if (hidden) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
    if (lines.length < 2) continue;
    const widest = Math.max(...lines.map(r => r.width));
    const tops = new Set(lines.map(r => Math.round(r.top)));
    if (widest < 40 || (tops.size >= 3 && text.length / tops.size <= 3)) {
      found.push(`${box.tagName.toLowerCase()}.${box.className}: "${text.slice(0, 40)}" in ${tops.size} lines, ${Math.round(widest)} px wide`);
    }
  }
  return found;
}"""
WIDTHS = "() => [document.scrollingElement.scrollWidth, window.innerWidth]"


@pytest.fixture
def site(server):
    """Built before Playwright starts: its event loop would refuse the write path's sync calls."""
    return shared_site(PASSWORD)


def check_page(page, name, size, problems):
    width = SIZES[size]["viewport"]["width"]
    scroll_width, inner_width = page.evaluate(WIDTHS)
    if scroll_width > inner_width or inner_width != width:  # a phone zooms out to fit a too-wide page
        problems.append(f"{name} at {size}: {scroll_width} px of content in a {width} px window")
    for squeezed in page.evaluate(SQUEEZED):
        problems.append(f"{name} at {size}: squeezed {squeezed}")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_fits_and_passes_axe_on_phones_and_laptops_in_both_languages(
    server, site, table_at, browser, size, language
):
    options = SIZES[size]
    visits = pages_of(site)
    for point in POINTS:  # a hand's table as its dealer sees it: the bury, mid-trick, a trick won, the result
        found = table_at(point)
        visits.setdefault(found.player, []).append((f"table-{point}", f"/tables/{found.table_id}/"))
    problems, visited, checked = [], 0, 0
    for who, pages in visits.items():
        # The table pages are live (a bot may declare while axe reads the page): with
        # reduced motion no card is caught mid-flight in blended colours (table.css).
        if who:
            context = logged_in_context(browser, server, who, **options, reduced_motion="reduce")
        else:
            context = browser.new_context(**options, reduced_motion="reduce")
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on(
            "console",
            lambda message, page=page: (
                "Content Security Policy" in message.text and problems.append(f"{page.url} at {size}: {message.text}")
            ),
        )
        for name, path in pages:
            response = page.goto(server + path)
            assert response.ok, f"{path} answered {response.status}"
            assert page.locator("html").get_attribute("lang") == language
            check_page(page, name, size, problems)
            if size in A11Y_SIZES:
                try:
                    assert_accessible(page, f"{name} at {size} in {language}", measured_contrast=True)
                except AssertionError as failure:
                    problems.append(str(failure))
                checked += 1
            screenshot(page, PAGE_SHOTS / f"{name}-{size}-{language}.png", full_page=True)
            visited += 1
        if size == "phone" and who == "mei":  # the folded menu opens and fits too
            page.goto(server + "/")
            assert not page.locator(".site-nav").is_visible()
            page.locator(".menu-toggle").tap()
            assert page.locator(".site-nav a[href='/matches/']").is_visible()
            check_page(page, "menu", size, problems)
            screenshot(page, PAGE_SHOTS / f"menu-open-{size}-{language}.png", full_page=True)
        context.close()
    pages = sum(len(p) for p in visits.values())
    assert visited == pages
    assert checked == (pages if size in A11Y_SIZES else 0)
    assert not problems, "\n\n".join(problems)


def test_play_now_lands_at_a_table_that_is_dealing(server, site, browser):
    context = browser.new_context(**PHONE)
    page = log_in(context, server, "jo")
    page.goto(server + "/")
    page.get_by_test_id("play-now").tap()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get(pk=int(re.search(r"/tables/(\d+)/", page.url).group(1)))
    assert table.owner.username == "jo" and table.status == Table.Status.PLAYING
    assert [seat.bot for seat in table.seats.order_by("position")][1:] == [bot_levels.default()] * 3
    page.wait_for_selector("#conn.online")
    # The deal runs: cards arrive in jo's hand one by one.
    page.wait_for_function("() => document.querySelectorAll('#hand .card-btn').length > 0", timeout=TIMEOUT_MS)
    screenshot(page, PAGE_SHOTS / "play-now-dealing-phone-en.png", full_page=True)
    page.goto(server + "/")
    rejoin = page.locator(f'[data-table="{table.pk}"] [data-action="rejoin"]')
    assert rejoin.is_visible()
    context.close()
