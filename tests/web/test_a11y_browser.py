"""Accessibility in a real chromium beyond the page sweep (tests/web/test_pages_browser.py
runs axe-core on every page around the table at every size and language): the check itself
finds violations; the replay's trick list does not overlap itself on the phone, and every
replay card has a spoken name and shows no internal code; stepping through a replay keeps
the focus and speaks each step; the kitty's marks at the bury are legible at every size.

With `--screenshots`, pictures go to artifacts/screenshots/a11y/ (gitignored); look at them.
"""

import pytest

from games.history import matches, steps
from tests.axe import UNMEASURED, assert_accessible, unmeasured_contrast, violations
from tests.browser import (
    PASSWORD,
    SHOTS,
    TIMEOUT_MS,
    log_in,
    logged_in_context,
    screenshot,
)
from tests.pages_data import shared_site
from tests.web.test_pages_browser import A11Y_SIZES, LANGUAGES, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

A11Y_SHOTS = SHOTS / "a11y"

# Pairs of trick-list entries whose boxes intersect (their text is drawn over each other).
OVERLAPS = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)].map(el => el.getBoundingClientRect());
  const found = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
      found.push([i, i + 1 + j]);
    }
  }));
  return found;
}"""


# Every seat's play in the shown trick made eight cards long, by repeating its own faces.
LONG_PLAYS = """() => document.querySelectorAll(".replay-played").forEach(play => {
  const faces = [...play.querySelectorAll(".hcard")];
  for (let i = 0; play.querySelectorAll(".hcard").length < 8; i++) play.append(faces[i % faces.length].cloneNode(true));
})"""
WIDTHS = "() => [document.scrollingElement.scrollWidth, window.innerWidth]"


@pytest.fixture
def site(server):
    """Built before Playwright starts: its event loop would refuse the write path's sync calls."""
    return shared_site(PASSWORD)


def test_the_check_finds_a_violation(server, browser):
    """The helper is no rubber stamp: grey-on-white text and an unnamed button fail it."""
    page = browser.new_context().new_page()
    page.set_content(
        '<!doctype html><html lang="en"><title>t</title><main><p style="color:#aaa;background:#fff">faint</p>'
        "<button></button></main></html>"
    )
    found = {v["id"] for v in violations(page)}
    assert {"color-contrast", "button-name"} <= found
    with pytest.raises(AssertionError, match="color-contrast"):
        assert_accessible(page, "a bad page")
    # Text on a gradient: no violation axe can prove, but not measured either.
    page.set_content(
        '<!doctype html><html lang="en"><title>t</title><main>'
        '<p style="color:#fff;background:linear-gradient(#2f7d4f,#1d5234)">on felt</p></main></html>'
    )
    assert violations(page) == [] and unmeasured_contrast(page)
    assert_accessible(page, "a gradient page")
    with pytest.raises(AssertionError, match="unmeasured"):
        assert_accessible(page, "a gradient page", measured_contrast=True)


@pytest.mark.parametrize("language", LANGUAGES)
def test_replay_on_a_phone_trick_list_does_not_overlap_and_cards_are_named(server, site, browser, language):
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = log_in(context, server, "mei")
    page.goto(f"{server}/hands/{site['hand'].pk}/replay/?step=100000")
    page.locator(".replay-tricks summary").tap()
    entries = page.locator(".replay-tricks li")
    assert entries.count() == site["hand_tricks"] > 1  # a whole hand's tricks
    assert page.evaluate(OVERLAPS, ".replay-tricks li") == []
    screenshot(page, A11Y_SHOTS / f"replay-tricks-phone-{language}.png", full_page=True)

    # The trick on the board: every seat's play in its own place, even a throw of eight
    # cards from each seat (the server's own card markup, repeated in the page).
    last_plays = max(  # each entry opens its trick whole, every play on the table
        int(href.split("=")[1])
        for href in page.locator(".replay-tricks li a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    )
    page.goto(f"{server}/hands/{site['hand'].pk}/replay/?step={last_plays}")
    assert page.locator(".replay-played").count() == 4
    assert page.evaluate(OVERLAPS, ".replay-played, .replay-seat") == []
    page.evaluate(LONG_PLAYS)
    assert page.locator(".replay-played .hcard").count() >= 32
    assert page.evaluate(OVERLAPS, ".replay-played, .replay-seat") == []
    assert page.evaluate(WIDTHS) == [390, 390]
    screenshot(page, A11Y_SHOTS / f"replay-long-plays-phone-{language}.png", full_page=True)

    page.goto(f"{server}/hands/{site['hand'].pk}/replay/?step=120")
    cards = page.locator(".hcard")
    assert cards.count() > 50
    names = cards.evaluate_all("els => els.map(el => [el.dataset.card, el.getAttribute('aria-label'), el.title])")
    for code, name, title in names:
        assert name and code not in name, f"{code} is named {name!r}"
        assert title == name  # the tooltip says the same, never the code
    if language == "en":
        assert any(name.endswith(" of hearts") or name.endswith(" of hearts, trump") for _, name, _ in names)
    else:
        assert any(name.startswith("红桃") for _, name, _ in names)
    context.close()


def test_stepping_through_a_replay_keeps_focus_and_speaks_each_step(server, site, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = log_in(context, server, "mei")
    page.goto(f"{server}/hands/{site['hand'].pk}/replay/?step=119")
    page.locator('a[data-key="ArrowRight"]').focus()
    page.keyboard.press("Enter")
    forward = min(stop for stop in steps.stops(matches.hand_frames(site["hand"])) if stop > 119)  # on by trick
    page.wait_for_selector(f'.replay-step[data-step="{forward}"]')
    assert page.evaluate("document.activeElement.dataset.key") == "ArrowRight"  # the new Forward link
    assert page.url.endswith(f"?step={forward}")
    spoken = page.locator("#replay-announce").text_content()
    sentence = page.locator(".replay-what .sentence").text_content().strip()
    assert spoken.startswith(sentence)
    names = page.locator(".replay-what [role=img]").evaluate_all("els => els.map(el => el.getAttribute('aria-label'))")
    assert all(name in spoken for name in names)
    assert not [
        code
        for code in page.locator(".replay-what .hcard").evaluate_all("els => els.map(el => el.dataset.card)")
        if code in spoken
    ]
    page.goto(f"{server}/hands/{site['hand'].pk}/replay/?step=1")
    page.locator('a[data-key="ArrowLeft"]').focus()
    page.keyboard.press("Enter")
    page.wait_for_selector('.replay-step[data-step="0"]')
    assert page.evaluate("document.activeElement.className") == "replay-counter"  # no Back link at step 0
    # On the match page each hand's replay link says which hand it replays.
    page.goto(f"{server}/matches/{site['hand'].match_id}/")
    assert page.get_by_role("link", name=f"Replay of hand {site['hand'].number}", exact=True).count() == 1
    context.close()


def test_the_kitty_marks_of_the_bury_are_legible_at_every_size(server, table_at, browser):
    """The bury (tests/table_points.py) at every size: each picked-up card's mark sits above
    its own card's corner and pip and inside the strip the next card leaves open, so axe
    measures it (the page sweep visits this page too, without the partially obscured check)."""
    bury = table_at("bury")
    problems = []
    for size, options in A11Y_SIZES.items():
        for language in LANGUAGES:
            context = logged_in_context(browser, server, bury.player, **options, reduced_motion="reduce")
            context.add_cookies([{"name": "django_language", "value": language, "url": server}])
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(server + f"/tables/{bury.table_id}/")
            page.wait_for_selector("#hand .card-btn .kitty-mark")
            assert page.locator("#hand .card-btn .kitty-mark").count() == 8
            try:
                # A fanned hand overlaps its cards by design: the next card may cover part of a
                # corner (axe: "partially obscured"); what this checks is that no mark, hatch or
                # tab stands under a corner's text.
                assert_accessible(
                    page,
                    f"the bury at {size} in {language}",
                    measured_contrast=True,
                    unmeasured=UNMEASURED - {"elmPartiallyObscured"},
                )
            except AssertionError as failure:
                problems.append(str(failure))
            screenshot(page, A11Y_SHOTS / f"table-bury-{size}-{language}.png", full_page=True)
            context.close()
    assert not problems, "\n\n".join(problems)
