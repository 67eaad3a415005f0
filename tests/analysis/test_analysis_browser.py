"""The analysis in a real chromium: a hand is scored, its replay says the analysis is
coming, a real `analysis_worker` process analyses it, and the replay then shows at the
player's decisions what they played, what the bot suggests and the points at stake, with
their three costliest mistakes marked; the match page shows each player's accuracy.

Screenshots go to artifacts/screenshots/analysis/ (gitignored); look at them.
"""

import signal

import pytest
from django.test import override_settings

from games.analysis.models import HandAnalysis
from games.history import matches, steps
from games.models import Hand
from tests.analysis.test_analysis import BUDGET
from tests.analysis.test_analysis_worker import _wait, _worker
from tests.browser import (
    SHOTS,
    log_in,
    screenshot,
)
from tests.conftest import make_table, make_user
from tests.history.test_replay import FAST, drive
from tests.web.test_pages_browser import LANGUAGES, SIZES, check_page

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ANALYSIS_SHOTS = SHOTS / "analysis"


@pytest.fixture
def scored(server):
    """A finished hand of four people (made before Playwright starts its event loop)."""
    with override_settings(**FAST, GAMES_ANALYSIS_BUDGET=BUDGET):
        people = [make_user(name) for name in ("mei", "jo", "a_player_with_a_rather_long_name", "li")]
        table = make_table(people[0], players=people)
        drive(table, people, hands=1, seed=21)
    return Hand.objects.get(match__table=table, finished_at__isnull=False)


def test_the_replay_shows_the_analysis_once_the_worker_has_run(server, scored, browser):
    hand = scored
    replay = f"{server}/hands/{hand.pk}/replay/"
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = log_in(context, server, "mei")
    page.goto(replay + "?step=130")
    assert page.get_by_test_id("analysis-queued").is_visible()  # no worker yet: it waits
    worker = _worker()
    try:
        _wait(lambda: HandAnalysis.objects.get(hand=hand).status == "done", 180, "the analysis", worker)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(20)
    analysis = HandAnalysis.objects.get(hand=hand)
    mine = sorted((d for d in analysis.decisions.all() if d.seat == 0 and d.lost > 0), key=lambda d: -d.lost)[:3]
    assert mine, "random plays lose points somewhere"
    page.goto(replay)
    mistakes = page.get_by_test_id("replay-mistakes")
    assert mistakes.is_visible()
    first = mistakes.locator("h3").first
    assert "(you)" in first.inner_text()
    own = mistakes.locator("ol").first.get_by_test_id("mistake")
    assert own.count() == len(mine)
    own.first.locator("a").click()  # stepping by script swaps the frame in
    box = page.get_by_test_id("replay-analysis")
    box.wait_for()
    assert page.get_by_test_id("costly-mistake").is_visible()
    assert float(page.get_by_test_id("points-lost").inner_text()) == round(mine[0].lost, 1)
    shown = box.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
    assert sorted(shown) == sorted(mine[0].played + mine[0].suggested)
    step = int(page.url.split("step=")[1])
    page.keyboard.press("ArrowRight")  # on by trick (games/history/steps.py): this trick whole, or the next
    forward = min(stop for stop in steps.stops(matches.hand_frames(hand)) if stop > step)
    page.wait_for_function(f"() => document.querySelector('.replay-step').dataset.step === '{forward}'")
    screenshot(page, ANALYSIS_SHOTS / "after-stepping-1366x768-en.png", full_page=True)
    context.close()

    problems = []
    for size, options in SIZES.items():
        for language in LANGUAGES:
            context = browser.new_context(**options)
            context.add_cookies([{"name": "django_language", "value": language, "url": server}])
            page = log_in(context, server, "mei")
            page.goto(f"{replay}?step={step}")
            assert page.get_by_test_id("replay-analysis").is_visible()
            check_page(page, "replay", size, problems)
            screenshot(page, ANALYSIS_SHOTS / f"replay-{size}-{language}.png", full_page=True)
            page.goto(f"{server}/matches/{hand.match_id}/")
            table = page.get_by_test_id("accuracy")
            assert table.is_visible()
            for summary in analysis.seats.values():
                assert f"{summary['accuracy']}%" in table.inner_text()
            check_page(page, "match", size, problems)
            screenshot(page, ANALYSIS_SHOTS / f"match-{size}-{language}.png", full_page=True)
            context.close()
    assert not problems, "\n".join(problems)
