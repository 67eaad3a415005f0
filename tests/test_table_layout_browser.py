"""A player clicks "Play now" and plays against three bots, at each of four windows (two
laptops' real heights, a large screen, a phone): whenever they must act, everything needed
to act is on screen without scrolling, and nothing on the felt lies on top of anything
else (issue #12). A second page of the same player, in Chinese, follows the same table, and
both are screenshotted at every step (artifacts/screenshots/table/).

The stored table is read only as an oracle, to choose legal cards to click.
"""

import random
import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from games import engine
from games.models import Table
from tests.axe import assert_accessible
from tests.conftest import make_user
from tests.test_browser import (  # noqa: F401  (fixtures: a live server, chromium, real password hashers)
    PASSWORD,
    SHOTS,
    TIMEOUT_MS,
    browser,
    click_cards,
    log_in,
    oracle,
    server,
    server_password_hashers,
)
from tests.test_pages_browser import SIZES

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TABLE_SHOTS = SHOTS / "table"
TRICKS = 3  # tricks to play at each window, after the deal and the bury

# What must be inside the window whenever the player acts, by testid.
ALWAYS = ("hand", "trick")
TO_PLAY = ("play", "verdict", "clock")

# Boxes of the elements that must never cover one another (seat boxes, the cards on the
# table, the action bar, the cards in hand) and every card's own tappable strip.
LAYOUT = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
  const shown = (el) => el.checkVisibility() && el.getBoundingClientRect().width > 0;
  const all = (selector) => [...document.querySelectorAll(selector)].filter(shown);
  const cards = all('[data-testid="card"]').map((el) => {
    const b = box(el);
    // The strip a finger can reach: the card's left edge, which the next card leaves open.
    const hit = document.elementFromPoint(b.x + 6, b.y + b.h * 0.6);
    return {...b, code: el.dataset.card, reachable: Boolean(hit && hit.closest('[data-testid="card"]') === el)};
  });
  return {
    seats: all('.seat').map(box),
    plays: all('.trick > .slot .cards-row').map(box),
    actionBar: all('.action-bar').map(box),
    handRow: all('[data-testid="hand"]').map(box),
    cards: cards,
  };
}"""

# Every interval a completed trick was in view: from the moment it was complete (its
# fourth play shown, or held over the next lead) until it was gone.
WATCH_TRICKS = """() => {
  window.__tricks = {};
  const look = () => {
    const now = performance.now();
    const seen = new Set();
    const done = document.querySelector('.trick[data-done]');
    if (done) seen.add(done.dataset.done);
    const held = document.querySelector('.trick-previous.holding:not(.sweep)');
    if (held) seen.add(held.dataset.trick);
    for (const n of seen) {
      const t = window.__tricks[n] || (window.__tricks[n] = {from: now, to: null});
      t.to = null;
    }
    for (const [n, t] of Object.entries(window.__tricks)) if (!seen.has(n) && t.to === null) t.to = now;
  };
  new MutationObserver(look).observe(document.getElementById('table'), {subtree: true, childList: true, attributes: true});
  look();
}"""


def inside(box, viewport) -> bool:
    return (
        box["x"] >= -0.5
        and box["y"] >= -0.5
        and box["x"] + box["width"] <= viewport["width"] + 0.5
        and box["y"] + box["height"] <= viewport["height"] + 0.5
    )


def overlap(a, b) -> bool:
    return (
        a["x"] < b["x"] + b["w"] - 1
        and b["x"] < a["x"] + a["w"] - 1
        and a["y"] < b["y"] + b["h"] - 1
        and b["y"] < a["y"] + a["h"] - 1
    )


def assert_can_act(page, viewport, needed, where):
    """Every element of `needed` (testids) and every card of the hand is inside the window,
    without scrolling, and nothing on the felt or the action bar covers anything else."""
    try:
        check_can_act(page, viewport, needed, where)
    except AssertionError:
        TABLE_SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(TABLE_SHOTS / f"failed-{re.sub(r'\W+', '-', where)}.png"), full_page=True)
        raise


def check_can_act(page, viewport, needed, where):
    assert page.evaluate("() => [window.scrollX, window.scrollY]") == [0, 0], f"{where}: the page was scrolled"
    for testid in needed:
        elements = page.locator(f'[data-testid="{testid}"]:visible')
        assert elements.count(), f"{where}: no {testid} in view"
        for i in range(elements.count()):
            box = elements.nth(i).bounding_box()
            assert box and inside(box, viewport), f"{where}: {testid} #{i} at {box} is outside {viewport}"
    layout = page.evaluate(LAYOUT)
    for card in layout["cards"]:
        box = {"x": card["x"], "y": card["y"], "width": card["w"], "height": card["h"]}
        assert inside(box, viewport), f"{where}: card {card['code']} at {box} is outside the window"
        assert card["reachable"], f"{where}: card {card['code']} is covered where it would be tapped"
    for seat in layout["seats"]:
        for play in layout["plays"]:
            assert not overlap(seat, play), f"{where}: a play {play} lies on a seat box {seat}"
        for other in layout["seats"]:
            assert other is seat or not overlap(seat, other), f"{where}: seat boxes overlap"
    for bar in layout["actionBar"]:
        for row in layout["handRow"]:
            assert not overlap(bar, row), f"{where}: the action bar {bar} covers the hand {row}"


def select_by_keyboard(page, cards):
    """Tab into the hand (one tab stop), walk it with the arrow keys, select with Space."""
    codes = page.locator("#hand .card-btn").evaluate_all("e => e.map(b => b.dataset.card)")
    wanted = list(cards)
    page.locator('#hand .card-btn[tabindex="0"]').focus()
    page.keyboard.press("Home")
    for index, code in enumerate(codes):
        if code in wanted:
            page.keyboard.press("Space")
            wanted.remove(code)
        if not wanted:
            break
        page.keyboard.press("ArrowRight")
        focused = page.evaluate("() => document.activeElement.dataset.card")
        assert focused == codes[index + 1], f"the arrow key moved to {focused}, not {codes[index + 1]}"
    assert (
        page.evaluate("() => getComputedStyle(document.activeElement.querySelector('.playing-card')).boxShadow")
        != "none"
    )


def shoot(pages, name):
    TABLE_SHOTS.mkdir(parents=True, exist_ok=True)
    for language, page in pages.items():
        page.screenshot(path=str(TABLE_SHOTS / f"{name}-{language}.png"))


@pytest.mark.parametrize("size", list(SIZES))
def test_play_now_then_act_without_scrolling(server, browser, size):
    options = SIZES[size]
    viewport = options["viewport"]
    name = "p" + re.sub(r"\W", "", size)
    make_user(name, PASSWORD)
    contexts = {language: browser.new_context(**options) for language in ("en", "zh-hans")}
    for language, context in contexts.items():
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = log_in(contexts["en"], server, name)
    page.goto(server + "/")
    page.get_by_test_id("play-now").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    mirror = log_in(contexts["zh-hans"], server, name)
    mirror.goto(page.url)
    pages = {"en": page, "zh": mirror}
    for p in pages.values():
        p.wait_for_selector("#conn.online")
        p.evaluate(WATCH_TRICKS)
    seat = 0  # Play now seats its player at North and fills the rest with bots
    assert Table.objects.get(pk=table_id).seats.get(position=seat).user.username == name
    step = 0

    def act(kind):
        nonlocal step
        step += 1
        shoot(pages, f"{size}-{step:02d}-{kind}")

    # The deal: the declare buttons appear, inside the window, under the growing hand.
    declared = False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        table, game = oracle(table_id)
        if game.phase not in ("deal", "last_chance"):
            break
        if not declared and page.get_by_test_id("declare").count():
            try:
                for p in pages.values():
                    p.wait_for_selector('[data-testid="declare"]', timeout=2000)
                    assert_can_act(p, viewport, ("hand", "declare"), f"{size} deal")
            except (AssertionError, PlaywrightError):
                if any(p.get_by_test_id("declare").count() for p in pages.values()):
                    raise
                continue  # the option went away while we looked (a bot declared higher)
            act("deal-declare")
            try:
                page.get_by_test_id("declare").first.click(timeout=1000)
                declared = True
            except PlaywrightError:  # a higher declaration (a bot's) took the option away: look again
                continue
        time.sleep(0.1)

    played = 0
    deadline = time.monotonic() + 120
    while played < TRICKS + (1 if game.dealer == seat else 0):
        assert time.monotonic() < deadline, "the hand did not get far enough"
        table, game = oracle(table_id)
        if game.phase not in ("bury", "play") or game.turn != seat:
            time.sleep(0.05)
            continue
        for p in pages.values():
            p.wait_for_selector(f'#table[data-version="{table.version}"] .hand-panel.my-turn [data-testid="play"]')
        # A player looks at the trick just won, held over the new one, until it sweeps away
        # by itself (a tap would skip it): 1.5 s and the sweep at most.
        page.wait_for_function(
            "() => !document.querySelector('.trick-previous.holding:not(.sweep)') && Object.values(window.__tricks)"
            ".every(t => t.to !== null || performance.now() - t.from > 1600)",
            timeout=3000,
        )
        if played == 1:
            # The Hint button selects what a bot would play from this seat's view: legal.
            page.locator("[data-hint]").click()
            page.wait_for_selector('[data-testid="verdict"] .ok')
            hinted = page.locator('#hand .card-btn[aria-pressed="true"]').evaluate_all(
                "e => e.map(b => b.dataset.card)"
            )
            assert hinted and engine.classify(game, seat, hinted)["legal"], hinted
            page.locator("[data-clear]").click()
            page.wait_for_function("() => !document.querySelector('#hand .card-btn[aria-pressed=\"true\"]')")
        if game.phase == "bury":
            cards = engine.view(game, seat)["hand"][-8:]
        else:
            cards = engine.sample_play(game, seat, random.Random(table.version))
        if played == 2 and not options.get("has_touch"):
            select_by_keyboard(page, cards)
        else:
            click_cards(page, cards, tap=bool(options.get("has_touch")))
        page.wait_for_selector('[data-testid="verdict"] .ok')
        if played == 0:  # the table during play (or the bury), as axe-core sees it, in both languages
            for language, p in pages.items():
                assert_accessible(p, f"table at {size} in {language}")
        for language, p in pages.items():
            needed = ALWAYS + TO_PLAY
            if p is mirror:
                needed = ALWAYS + ("play", "clock")  # the mirror selected nothing
            assert_can_act(p, viewport, needed, f"{size} {game.phase} ({language})")
        act(game.phase)
        if played == 2 and not options.get("has_touch"):
            page.keyboard.press("Enter")  # Enter plays the selection from the hand
        else:
            page.get_by_test_id("play").click()
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.version) > {table.version}")
        played += 1

    # Each trick completed while we watched stayed in view for at least 1.5 s.
    time.sleep(2)
    tricks = page.evaluate("() => window.__tricks")
    finished = {n: t for n, t in tricks.items() if t["to"] is not None}
    assert finished, f"no trick was seen complete: {tricks}"
    for number, t in finished.items():
        assert t["to"] - t["from"] >= 1450, f"trick {number} was in view for only {t['to'] - t['from']:.0f} ms"
    act("after")
    for context in contexts.values():
        context.close()
