"""The lessons in a real chromium against a real server: a visitor opens /learn/, takes
lessons 1–3 by clicking and by keyboard (one wrong move answered with its explanation, read
out through the live region), and sees the progress on /learn/; axe-core finds no serious
or critical violation on /learn/ nor on a lesson; every lesson fits a phone and a laptop in
both languages.

Screenshots go to artifacts/screenshots/lessons/ (gitignored); look at them.
"""

import re

import pytest

from games.lessons.catalogue import LESSONS
from tests.axe import assert_accessible
from tests.browser import (
    SHOTS,
    TIMEOUT_MS,
    screenshot,
)
from tests.lessons.test_lessons import MISTAKES
from tests.web.test_pages_browser import LANGUAGES, PHONE, SQUEEZED, WIDTHS

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

LESSON_SHOTS = SHOTS / "lessons"
SIZES = {"390x844": PHONE, "1366x768": {"viewport": {"width": 1366, "height": 768}}}


def visitor(browser, server, size="1366x768", language="en"):
    context = browser.new_context(**SIZES[size])
    context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return context, page


def pick(page, *codes):
    """Pick cards as a person does: at a card's open left edge (the next card covers the rest)."""
    for code in codes:
        button = page.locator(f'.hand .card-btn[data-card="{code}"][aria-pressed="false"]').first
        button.click(position={"x": 8, "y": button.bounding_box()["height"] * 0.6})
        page.wait_for_selector(f'.hand .card-btn[data-card="{code}"][aria-pressed="true"]')


def answer(page) -> str:
    page.wait_for_selector("[data-testid=explanation]")
    return page.locator("[data-testid=explanation]").inner_text()


def test_a_visitor_takes_lessons_one_to_three_and_sees_the_progress(server, browser):
    context, page = visitor(browser, server)
    page.goto(server + "/learn/")
    assert page.locator("[data-testid=lesson]").count() == len(LESSONS)
    page.locator("[data-testid=lesson]").first.click()
    page.wait_for_url(re.compile(r"/learn/cards-and-points/$"))

    # Lesson 1: a wrong card first; the answer says why, on the page and in the live region.
    pick(page, "S5")
    page.get_by_test_id("play").click()
    assert "Your ♠5 is worth 5 points" in answer(page)
    page.wait_for_function("() => document.getElementById('lesson-announce').textContent.includes('♠5')")
    assert page.locator(".lesson-feedback.is-short").is_visible()
    pick(page, "SK")
    page.get_by_test_id("play").click()
    page.wait_for_selector(".lesson-feedback.is-done")
    assert "adds 10 points" in answer(page)
    page.get_by_test_id("next-lesson").click()

    # Lesson 2 by keyboard alone: Tab into the hand, arrows to the ♦7, Space picks, Enter plays.
    page.wait_for_url(re.compile(r"/learn/trumps/$"))
    page.locator(".hand .card-btn").first.focus()
    codes = page.locator(".hand .card-btn").evaluate_all("els => els.map(e => e.dataset.card)")
    for _ in range(codes.index("D7")):
        page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "D7"
    page.keyboard.press("Space")
    page.keyboard.press("Enter")
    page.wait_for_selector(".lesson-feedback.is-done")
    assert "♦7 is a trump above the ♥A" in answer(page)
    page.get_by_test_id("next-lesson").click()

    # Lesson 3: a move the engine refuses, in its own words, then the right one.
    page.wait_for_url(re.compile(r"/learn/following-suit/$"))
    pick(page, "H9")
    page.get_by_test_id("play").click()
    page.wait_for_selector(".lesson-feedback.is-refused")
    assert "You still hold ♣ cards: you must follow ♣" in answer(page)
    pick(page, "C4")
    page.get_by_test_id("play").click()
    page.wait_for_selector(".lesson-feedback.is-done")

    page.goto(server + "/learn/")
    states = page.get_by_test_id("lesson-state").all_inner_texts()
    assert [s.strip("✓ ") for s in states[:4]] == ["Done", "Done", "Done", "Not done yet"]
    assert "3 of 12 lessons done" in page.get_by_test_id("learn-progress").inner_text()
    assert "Continue with lesson 4" in page.get_by_test_id("continue").inner_text()
    context.close()


def submit(page, testid):
    """Press a button of the board and wait for the server's answer to be on the page."""
    page.get_by_test_id(testid).click()
    page.wait_for_selector("#lesson-board:not([aria-busy])", state="attached")


def test_a_visitor_plays_the_guided_hand_by_its_tips(server, browser):
    """Lesson 12 on a phone: at each turn the tip's cards are picked with its button and
    played, from the declaration to the last trick; the hand's score is explained."""
    context, page = visitor(browser, server, "390x844")
    page.goto(server + "/learn/guided-hand/")
    moves, shots = 0, set()
    while not page.locator(".lesson-feedback.is-done").count():
        assert page.get_by_test_id("tip").is_visible()
        phase = page.get_by_test_id("hand").get_attribute("data-phase")
        if phase not in shots:  # the deal, the bury and the play, once each
            shots.add(phase)
            screenshot(page, LESSON_SHOTS / f"12-guided-hand-{phase}-390x844-en.png", full_page=True)
        if page.get_by_test_id("suggest").count():
            submit(page, "suggest")
            submit(page, "play")
        else:
            submit(page, "pass")
        assert not page.locator(".lesson-feedback.is-refused").count(), answer(page)
        moves += 1
        assert moves < 60
    assert shots >= {"last_chance", "bury", "play"}
    assert "The defenders scored" in answer(page)
    screenshot(page, LESSON_SHOTS / "12-guided-hand-over-390x844-en.png", full_page=True)
    page.goto(server + "/learn/")
    assert "1 of 12 lessons done" in page.get_by_test_id("learn-progress").inner_text()
    context.close()


def test_the_lessons_pass_axe(server, browser):
    for size in SIZES:
        for language in LANGUAGES:
            context, page = visitor(browser, server, size, language)
            page.goto(server + "/learn/")
            assert_accessible(page, f"/learn/ at {size}, {language}")
            page.goto(server + "/learn/pairs/")
            assert_accessible(page, f"a lesson at {size}, {language}")
            pick(page, "D4", "D4")
            page.get_by_test_id("play").click()
            page.wait_for_selector(".lesson-feedback.is-short")
            assert_accessible(page, f"a lesson's answer at {size}, {language}")
            context.close()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_lesson_fits_phones_and_laptops_in_both_languages(server, browser, size, language):
    """Each lesson as it opens and with the answer to a wrong move, screenshot for review."""
    problems = []
    context, page = visitor(browser, server, size, language)
    for number, lesson in enumerate(LESSONS, start=1):
        page.goto(f"{server}/learn/{lesson.slug}/")
        check(page, f"lesson {number}", size, problems)
        name = f"{number:02d}-{lesson.slug}-{size}-{language}"
        screenshot(page, LESSON_SHOTS / f"{name}.png", full_page=True)
        if lesson.slug in MISTAKES:
            wrong, _status, _words = MISTAKES[lesson.slug][0]
            pick(page, *wrong.split())
            page.get_by_test_id("play").click()
            page.wait_for_selector("[data-testid=explanation]")
            check(page, f"lesson {number}'s answer", size, problems)
            screenshot(page, LESSON_SHOTS / f"{name}-answer.png", full_page=True)
    page.goto(server + "/learn/")
    check(page, "/learn/", size, problems)
    screenshot(page, LESSON_SHOTS / f"00-learn-{size}-{language}.png", full_page=True)
    context.close()
    assert not problems, "\n".join(problems)


def check(page, name, size, problems):
    width = SIZES[size]["viewport"]["width"]
    scroll_width, inner_width = page.evaluate(WIDTHS)
    if scroll_width > inner_width or inner_width != width:
        problems.append(f"{name} at {size}: {scroll_width} px of content in a {width} px window")
    for squeezed in page.evaluate(SQUEEZED):
        problems.append(f"{name} at {size}: squeezed {squeezed}")
