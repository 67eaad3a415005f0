"""The replay, the match list, a match, the leaderboard and friends in a real chromium: the
replay moves trick by trick with the arrow keys, old single-card step links open where they
always did, and every page passes axe-core (no serious or critical violation) and fits
1366×650, 1366×768, 1920×1080 and a 390×844 phone in both languages, empty pages included.

Screenshots go to artifacts/screenshots/history/ (gitignored); look at them.
"""

import pytest

from games.history import matches, steps
from tests.axe import assert_accessible
from tests.browser import (
    PASSWORD,
    SHOTS,
    TIMEOUT_MS,
    log_in,
    logged_in_context,
    screenshot,
)
from tests.conftest import make_user
from tests.pages_data import shared_site
from tests.web.test_pages_browser import LANGUAGES, SIZES, check_page

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

HISTORY_SHOTS = SHOTS / "history"


@pytest.fixture
def site(server):
    """Built before Playwright starts: its event loop would refuse the write path's sync calls."""
    built = shared_site(PASSWORD)
    make_user("newcomer", PASSWORD)  # no match, no friend: the empty pages
    built["chapters"] = steps.chapters(matches.hand_frames(built["hand"]))
    return built


def trick(site, number: int) -> steps.Chapter:
    return next(c for c in site["chapters"] if c.kind == steps.TRICK and c.trick_no == number)


def counter(page) -> str:
    return page.get_by_test_id("replay-counter").text_content().strip()


def test_arrow_keys_move_trick_by_trick_and_old_step_links_keep_their_place(server, site, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = log_in(context, server, "mei")
    replay = f"{server}/hands/{site['hand'].pk}/replay/"
    total = sum(c.kind == steps.TRICK for c in site["chapters"])
    seventh, eighth = trick(site, 7), trick(site, 8)
    # An old link to trick 7's second play: that very play, inside trick 7, card by card unfolded.
    old = seventh.first + 1
    page.goto(f"{replay}?step={old}")
    assert page.locator(".replay-step").get_attribute("data-step") == str(old)
    assert page.locator(".replay-played").count() == 2
    assert counter(page) == f"Trick 7 of {total}"
    assert page.locator(".replay-fine").get_attribute("open") is not None

    page.keyboard.press("ArrowRight")  # trick 7 whole, its winner said
    page.wait_for_selector(f'.replay-step[data-step="{seventh.stop}"]')
    assert page.url.endswith(f"?step={seventh.stop}")
    assert page.locator(".replay-played").count() == 4 and counter(page) == f"Trick 7 of {total}"
    assert page.get_by_test_id("trick-won-by").is_visible()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'.replay-step[data-step="{eighth.stop}"]')
    assert counter(page) == f"Trick 8 of {total}"
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'.replay-step[data-step="{seventh.stop}"]')
    page.go_back()  # the address bar's history steps back as well
    page.wait_for_selector(f'.replay-step[data-step="{eighth.stop}"]')

    # The deal is one step, which unfolds card by card.
    page.goto(replay)
    page.keyboard.press("ArrowRight")
    deal = site["chapters"][0]
    page.wait_for_selector(f'.replay-step[data-step="{deal.stop}"]')
    assert counter(page) == "The deal"
    page.locator(".replay-fine summary").click()
    page.locator('a[data-fine="prev"]').click()
    page.wait_for_selector(f'.replay-step[data-step="{deal.stop - 1}"]')
    assert page.locator(".replay-fine").get_attribute("open") is not None
    assert page.evaluate("document.activeElement.dataset.fine") == "prev"
    page.keyboard.press("Shift+ArrowRight")  # card by card from the keyboard too
    page.wait_for_selector(f'.replay-step[data-step="{deal.stop}"]')
    assert page.locator(".replay-fine").get_attribute("open") is not None
    context.close()


def test_trick_wording_in_chinese(server, site, browser):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": server}])
    page = log_in(context, server, "mei")
    total = sum(c.kind == steps.TRICK for c in site["chapters"])
    page.goto(f"{server}/hands/{site['hand'].pk}/replay/?trick=7")
    assert page.locator(".replay-step").get_attribute("data-step") == str(trick(site, 7).stop)
    assert counter(page) == f"第 7 轮（共 {total} 轮）"
    context.close()


def pages(site) -> dict[str, list[tuple[str, str]]]:
    hand = site["hand"]
    replay = f"/hands/{hand.pk}/replay/"
    return {
        "mei": [
            ("replay-deal", f"{replay}?step={site['chapters'][0].stop}"),
            ("replay-trick", f"{replay}?trick=7"),
            ("replay-end", f"{replay}?step=100000"),
            ("my-matches", "/matches/"),
            ("match", f"/matches/{hand.match_id}/"),
            ("leaderboard", "/leaderboard/"),
            ("friends", "/friends/"),
        ],
        "newcomer": [("my-matches-empty", "/matches/"), ("friends-empty", "/friends/")],
    }


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", list(SIZES))
def test_history_pages_are_accessible_and_fit_every_window_in_both_languages(server, site, browser, size, language):
    problems, checked = [], 0
    for who, paths in pages(site).items():
        context = logged_in_context(browser, server, who, **SIZES[size])
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        for name, path in paths:
            response = page.goto(server + path)
            assert response.ok, f"{path} answered {response.status}"
            check_page(page, name, size, problems)
            try:
                assert_accessible(page, f"{name} at {size} in {language}", measured_contrast=True)
            except AssertionError as failure:
                problems.append(str(failure))
            screenshot(page, HISTORY_SHOTS / f"{name}-{size}-{language}.png", full_page=True)
            checked += 1
        context.close()
    assert checked == sum(len(p) for p in pages(site).values())
    assert not problems, "\n\n".join(problems)
