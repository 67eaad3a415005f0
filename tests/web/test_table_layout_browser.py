"""A player clicks "Play now" and plays against three bots, at each of four windows (two
laptops' real heights, a large screen, a phone): whenever they must act, everything needed
to act is on screen without scrolling, and nothing on the felt lies on top of anything
else, a held trick included; the side column's controls are whole and in view; the hand's
result, its countdown and Ready fit the window, and Ready starts the next hand (issues #12,
#40). A second page of the same player, in Chinese, follows the same table, and
both are screenshotted at every step (artifacts/screenshots/table/).

The decks are fixed (GAMES_DECK_SEED, DECK_SEED below): North is dealt both big jokers
early, declares them (nothing outranks them, RULES §3.1) and so is the first hand's dealer
who buries (§3.5, §4.1), at every window. After a few tricks the rest of the hand is played
for North through the write path, and the hand's last trick must stay in view, uncovered,
before its result appears. The stored table is read only as an oracle, to choose the cards.
"""

import random
import re
import time
from collections import Counter

import pytest
from playwright.sync_api import Error as PlaywrightError

from games import engine
from games.models import Table
from games.runtime import writer
from tests.axe import assert_accessible
from tests.browser import (
    PASSWORD,
    PRESSED_CODES,
    SHOTS,
    click_cards,
    in_a_thread,
    log_in,
    oracle,
    screenshot,
    wait_for,
)
from tests.conftest import make_user
from tests.web.test_pages_browser import SIZES

TABLE_SHOTS = SHOTS / "table"
TRICKS = 3  # tricks to play at each window, after the deal and the bury
# Hand 1 of this seed deals North a 2♥ at once and both big jokers by the 33rd card.
DECK_SEED = "layout272"
BIG_JOKERS = '[data-testid="declare"][data-cards="BJK,BJK"]'
# The server deals from DECK_SEED; basic bots keep the CPU free.
FIXED_DECKS = pytest.mark.server_env(GAMES_DECK_SEED=DECK_SEED, GAMES_BOT_LEVEL="basic")
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True), FIXED_DECKS]


# What must be inside the window whenever the player acts, by testid.
ALWAYS = ("hand", "trick")
TO_PLAY = ("play", "verdict", "clock")

# Boxes of the elements that must never cover one another (seat boxes, the cards on the
# table, the action bar, the cards in hand) and every card's own tappable strip.
LAYOUT = """() => {
  // What is drawn of the element: its box, cut to every scrolling or clipping box around it
  // (the side column scrolls: an open panel in it is not drawn over the hand below it).
  const box = (el) => {
    const r = el.getBoundingClientRect();
    let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      // A box laid out as its children (display: contents, the phone's side column) clips nothing.
      if ((s.overflowX === 'visible' && s.overflowY === 'visible') || s.display === 'contents') continue;
      const c = a.getBoundingClientRect();
      [left, top, right, bottom] = [Math.max(left, c.left), Math.max(top, c.top), Math.min(right, c.right), Math.min(bottom, c.bottom)];
    }
    return {x: left, y: top, w: Math.max(0, right - left), h: Math.max(0, bottom - top)};
  };
  // Drawn: laid out and not visibility: hidden (the next lead waits so while a trick is held).
  const shown = (el) => el.checkVisibility({visibilityProperty: true}) && el.getBoundingClientRect().width > 0;
  const all = (selector) => [...document.querySelectorAll(selector)].filter(shown);
  const cards = all('[data-testid="card"]').map((el) => {
    const r = el.getBoundingClientRect();  // the whole card, clipped or not: it must be in the window
    const b = {x: r.left, y: r.top, w: r.width, h: r.height};
    // The strip a finger can reach: the card's left edge, which the next card leaves open.
    // During the deal a card just dealt flies in (0.3 s) over its neighbours: one covered by
    // such a card alone is reachable once it lands.
    const hit = document.elementFromPoint(b.x + 6, b.y + b.h * 0.6);
    const over = hit && hit.closest('[data-testid="card"]');
    const landing = over && over.getAnimations({subtree: true}).some((a) => a.playState === "running");
    return {...b, code: el.dataset.card, reachable: Boolean(over === el || landing)};
  });
  return {
    seats: all('.seat').map(box),
    badges: all('.seat .badge, .seat .turn-flag, .seat .clock, .hand-panel .badge').map(box),
    messages: all('.table-message > *, .failed-throw').map(box),
    mySeat: all('.seat.is-me, .hand-panel').map(box),
    // A card still flying in from its seat is judged where it lands (it passes over the felt).
    plays: all('.trick > .slot .cards-row').filter((el) => !el.getAnimations().some((a) => a.playState === 'running')).map(box),
    held: all('.trick-previous.holding:not(.sweep) .cards-row').map(box),
    winTags: all('.trick .win-tag').filter((el) => !el.closest('.sweep')).map(box),  // a sweep goes to the winner's seat
    lastTrick: all('.last-trick[open]').map(box),
    pointCards: all('.point-cards').map(box),
    statusLine: all('.status-grid').map(box),
    result: all('[data-testid="hand-result"]:not(.after-trick)').map(box),
    actionBar: all('.action-bar').map(box),
    handRow: all('[data-testid="hand"]').map(box),
    cards: cards,
    // What lies on the felt, whole (not cut to it), and the felt: nothing may reach past its edges.
    felt: [...document.querySelectorAll('.table-felt')].map((el) => {
      const r = el.getBoundingClientRect();
      return {x: r.left, y: r.top, w: r.width, h: r.height};
    }),
    onFelt: all('.trick .cards-row, .trick .win-tag, .table-message > *')
      .filter((el) => !el.closest('.sweep') && !el.getAnimations().some((a) => a.playState === 'running'))
      .map((el) => {
        const r = el.getBoundingClientRect();
        return {x: r.left, y: r.top, w: r.width, h: r.height};
      }),
    // The side column's controls: their whole box, and what of it is drawn (not cut by a scroller).
    side: ['#chat-input', '#chat-form [type="submit"]', '[data-testid="rules-summary"] summary'].map((s) => document.querySelector(s))
      .filter((el) => el && shown(el)).map((el) => {
        const r = el.getBoundingClientRect();
        return {what: el.id || el.className || el.tagName, full: {x: r.left, y: r.top, w: r.width, h: r.height}, drawn: box(el),
                cut: el.scrollWidth > el.clientWidth + 1};
      }),
  };
}"""

# The verdict's reason, where it is drawn: what lies on top at its middle.
VERDICT_SHOWN = """() => {
  const bad = document.querySelector('[data-testid="verdict"] .bad');
  if (!bad) return null;
  const r = bad.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {x: r.left, y: r.top, width: r.width, height: r.height, text: bad.textContent.trim(),
          uncovered: Boolean(hit && hit.closest('[data-testid="verdict"]'))};
}"""

# The hand's end, as the page shows it: when its last trick was first complete, whether
# anything lay on that trick's winning cards while it was held, and when the result appeared.
WATCH_FINALE = """() => {
  window.__finale = null;
  const look = () => {
    const result = document.querySelector('.result');
    const done = document.querySelector('.trick[data-done]');
    if (!result || !done) return;
    const f = window.__finale || (window.__finale = {trick: done.dataset.done, resultAt: null, covered: [], looked: 0});
    if (f.resultAt === null && !result.classList.contains('after-trick')
        && result.checkVisibility({visibilityProperty: true})) f.resultAt = performance.now();
    if (f.resultAt === null && !done.classList.contains('sweep')) {
      const card = done.querySelector('.slot.winning .playing-card');
      if (!card) return;
      // A card still flying in from its seat passes under that seat's box (by design); it
      // is judged where it lands: look again once the flight is over.
      const play = card.closest('.played') || card;
      if (play.getAnimations().some((a) => a.playState === 'running')) return void setTimeout(look, 40);
      const r = card.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      f.looked += 1;
      if (!(hit && hit.closest('.trick'))) f.covered.push(hit ? hit.className : 'nothing');
    }
  };
  new MutationObserver(look).observe(document.getElementById('table'), {subtree: true, childList: true, attributes: true});
}"""

# Every interval a completed trick was in view (its fourth play shown, or held over the next
# lead): from the push that showed it complete (table.js parses each push first: its
# JSON.parse marks when the push came) until it was gone or sweeping. The page counts its
# hold from the end of its own work on that push, which on a busy machine ends a few hundred
# ms before this observer is called.
WATCH_TRICKS = """() => {
  window.__tricks = {};
  const parse = JSON.parse;
  JSON.parse = (...args) => { window.__pushedAt = performance.now(); return parse(...args); };
  const look = () => {
    const now = performance.now();
    const came = window.__pushedAt ?? now;
    const seen = new Set();
    const done = document.querySelector('.trick[data-done]');
    if (done) seen.add(done.dataset.done);
    const held = document.querySelector('.trick-previous.holding:not(.sweep)');
    if (held) seen.add(held.dataset.trick);
    for (const n of seen) {
      const t = window.__tricks[n] || (window.__tricks[n] = {from: came, to: null});
      t.to = null;
    }
    for (const [n, t] of Object.entries(window.__tricks)) if (!seen.has(n) && t.to === null) t.to = now;
  };
  new MutationObserver(look).observe(document.getElementById('table'), {subtree: true, childList: true, attributes: true});
  look();
}"""


BOXES = "els => els.map((e) => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; })"


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
        page.screenshot(scale="css", path=str(TABLE_SHOTS / f"failed-{re.sub(r'\W+', '-', where)}.png"), full_page=True)
        raise


def check_can_act(page, viewport, needed, where):
    assert page.evaluate("() => [window.scrollX, window.scrollY]") == [0, 0], f"{where}: the page was scrolled"
    for testid in needed:
        # All boxes in one look: a push may re-render the region between two looks.
        boxes = page.locator(f'[data-testid="{testid}"]:visible').evaluate_all(BOXES)
        assert boxes, f"{where}: no {testid} in view"
        for i, box in enumerate(boxes):
            assert inside(box, viewport), f"{where}: {testid} #{i} at {box} is outside {viewport}"
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
    phone = viewport["width"] < 700
    if not phone:  # beside the felt: the chat's input and Send, the house rules' name, whole and in view
        assert len(layout["side"]) == 3, f"{where}: the side column's controls are not all drawn: {layout['side']}"
        for control in layout["side"]:
            full, drawn = control["full"], control["drawn"]
            box = {"x": full["x"], "y": full["y"], "width": full["w"], "height": full["h"]}
            assert inside(box, viewport), f"{where}: {control['what']} at {box} is outside the window"
            assert abs(drawn["h"] - full["h"]) < 1 and abs(drawn["w"] - full["w"]) < 1, f"{where}: {control} is cut"
            assert not control["cut"], f"{where}: the text of {control['what']} is cut short"
    assert_apart(layout, where, phone)


SEEN: Counter[str] = Counter()  # how often assert_apart had each kind of element to check


def assert_apart(layout, where, phone=False):
    """The panels, the trick held over the next one and the "winning" tags lie on nothing."""
    SEEN.update(kind for kind, boxes in layout.items() if boxes)
    pairs = [
        ("lastTrick", "mySeat"),
        ("lastTrick", "handRow"),
        ("lastTrick", "seats"),
        ("lastTrick", "statusLine"),
        ("pointCards", "seats"),
        ("pointCards", "plays"),
        ("pointCards", "mySeat"),
        ("held", "seats"),
        ("held", "badges"),
        ("held", "plays"),
        ("held", "messages"),
        ("plays", "badges"),
        ("plays", "messages"),
        ("messages", "seats"),
        ("messages", "badges"),
        ("winTags", "seats"),
        ("winTags", "badges"),
        ("result", "seats"),
        ("result", "badges"),
        ("result", "actionBar"),
    ]
    for felt in layout["felt"]:
        for item in layout["onFelt"]:
            assert (
                item["x"] >= felt["x"] - 0.5
                and item["y"] >= felt["y"] - 0.5
                and item["x"] + item["w"] <= felt["x"] + felt["w"] + 0.5
                and item["y"] + item["h"] <= felt["y"] + felt["h"] + 0.5
            ), f"{where}: {item} reaches past the felt {felt}"
    if not phone:  # a phone's result is a sheet over the hand, empty by then
        pairs.append(("result", "mySeat"))
    for kind in ("seats", "winTags", "plays"):  # no two seats, tags or plays on one another
        boxes = layout[kind]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not overlap(a, b), f"{where}: two {kind} lie on one another: {a} {b}"
    for one, other in pairs:
        for a in layout[one]:
            for b in layout[other]:
                assert not overlap(a, b), f"{where}: {one} {a} lies on {other} {b}"


def declare_big_jokers(page, seat, tries=3):
    """Click North's big jokers until they lie in front of North. A bot may declare while the
    page is looked at; the click, made on the version before, is then refused as stale, the
    page is brought up to date and the button is still there: the player clicks again."""
    mine = page.locator(f'.trick .slot[data-seat="{seat}"] .declared [data-card="BJK"]').nth(1)
    for _ in range(tries):
        page.locator(BIG_JOKERS).click()
        try:
            mine.wait_for(timeout=3000)
            return
        except PlaywrightError:
            continue
    raise AssertionError(f"the big jokers were not declared after {tries} clicks")


def play_for(table_id, seat, user, done, timeout=180.0):
    """Play `seat`'s turns through the write path (the server's bots play theirs) until `done(game)`,
    which is asked again and again (it may look at the pages meanwhile)."""
    rng = random.Random(seat)  # the same plays each run, as the decks are
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table, game = oracle(table_id)
        if done(game):
            return table, game
        if game.phase in ("bury", "play") and game.turn == seat:
            if game.phase == "bury":
                action = {"type": "bury", "cards": engine.view(game, seat)["hand"][-8:]}
            else:
                action = {"type": "play", "cards": engine.sample_play(game, seat, rng)}
            in_a_thread(writer.table_act, table_id=table_id, action=action, expected_version=table.version, user=user)
        else:
            time.sleep(0.03)
    raise AssertionError(f"table {table_id} did not get there in {timeout}s")


def illegal_selection(game, seat):
    """Cards the seat holds that it may not play now (the verdict must say why)."""
    hand = engine.view(game, seat)["hand"]
    need = len(game.trick[0][1]) if game.trick else 2
    rng = random.Random(len(hand))
    for _ in range(500):
        cards = rng.sample(hand, need)
        verdict = engine.classify(game, seat, cards)
        if not verdict["legal"] and verdict["reason"]:
            return cards
    return hand[: need + 1]  # the wrong number of cards


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
    for language, page in pages.items():
        screenshot(page, TABLE_SHOTS / f"{name}-{language}.png")


def check_last_trick(pages, phone, where) -> bool:
    """Open the last trick's panel on each page (if they show one now): it lies on nothing; close it."""
    for language, page in pages.items():
        summary = page.locator(".last-trick:not([open]) summary")
        try:
            summary.click(timeout=1000)
            page.wait_for_selector(".last-trick[open]", timeout=1000)
        except PlaywrightError:  # no panel now (the trick on the table is the one just won)
            return False
        screenshot(page, TABLE_SHOTS / f"{where}-last-trick-open-{language}.png")
        assert_apart(page.evaluate(LAYOUT), f"{where} last trick open ({language})", phone)
        page.locator(".last-trick[open] summary").click()
    return True


@pytest.mark.parametrize("size", list(SIZES))
def test_play_now_then_act_without_scrolling(server, browser, size):
    options = SIZES[size]
    viewport = options["viewport"]
    phone = bool(options.get("has_touch"))
    name = "p" + re.sub(r"\W", "", size)
    user = make_user(name, PASSWORD)
    contexts = {language: browser.new_context(**options) for language in ("en", "zh-hans")}
    for language, context in contexts.items():
        context.add_cookies([{"name": "django_language", "value": language, "url": server}])
    page = log_in(contexts["en"], server, name)
    mirror = log_in(contexts["zh-hans"], server, name)  # before the deal starts: it must see it
    page.goto(server + "/")
    page.get_by_test_id("play-now").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    mirror.goto(page.url)
    pages = {"en": page, "zh": mirror}
    for p in pages.values():
        p.wait_for_selector("#conn.online")
        p.evaluate(WATCH_TRICKS)
    seat = 0  # Play now seats its player at North and fills the rest with bots
    assert Table.objects.get(pk=table_id).seats.get(position=seat).user.username == name
    step = 0
    SEEN.clear()

    def act(kind):
        nonlocal step
        step += 1
        shoot(pages, f"{size}-{step:02d}-{kind}")

    # The deal: North is dealt both big jokers (DECK_SEED); the button to declare them is
    # inside the window, under the growing hand, on both pages. A click declares them, before
    # the deal and its short window end (the picture is taken once they lie on the felt).
    for p in pages.values():
        p.wait_for_selector(BIG_JOKERS, timeout=30_000)
    for language, p in pages.items():
        assert_can_act(p, viewport, ("hand", "declare"), f"{size} deal ({language})")
    declare_big_jokers(page, seat)
    for language, p in pages.items():  # the declaration lies in front of North, for all to see
        declared = p.locator(f'.trick .slot[data-seat="{seat}"] .declared')
        declared.locator('[data-card="BJK"]').nth(1).wait_for()
        assert declared.locator("[data-card]").count() == 2
        assert inside(declared.bounding_box(), viewport), f"{size}: the declaration is outside the window"
        assert_can_act(p, viewport, ALWAYS, f"{size} declared ({language})")
    act("declared")
    table, game = oracle(table_id)
    assert game.standing and game.standing["seat"] == seat and game.standing["cards"] == ["BJK", "BJK"]
    table, game = wait_for(lambda t, g: g.phase not in ("deal", "last_chance"), table_id, timeout=60)
    assert game.dealer == seat, "the first hand's dealer is the one whose declaration stands (RULES §3.5)"

    played = 0
    checked_last_trick = False
    deadline = time.monotonic() + 120
    while played < TRICKS + 1:  # the bury, then TRICKS tricks
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
        if game.phase == "bury":  # the dealer holds 33 cards, the kitty's 8 among them (RULES §4.1)
            for p in pages.values():
                assert p.locator("#hand .card-btn").count() == 33
        if not checked_last_trick and game.phase == "play":
            checked_last_trick = check_last_trick(pages, phone, f"{size}-{step:02d}")
        if played == 1:
            # The Hint button selects what a bot would play from this seat's view: legal.
            page.locator("[data-hint]").click()
            page.wait_for_selector('[data-testid="verdict"] .ok')
            hinted = page.evaluate(PRESSED_CODES)
            assert hinted and engine.classify(game, seat, hinted)["legal"], hinted
            page.locator("[data-clear]").click()
            page.wait_for_function("() => !document.querySelector('#hand .card-btn[aria-pressed=\"true\"]')")
            # A selection that may not be played: its verdict and the reason, in view, uncovered.
            click_cards(page, illegal_selection(game, seat), tap=phone)
            page.wait_for_selector('[data-testid="verdict"] .bad')
            verdict = page.evaluate(VERDICT_SHOWN)
            assert len(verdict["text"]) > 3, verdict
            assert inside(verdict, viewport), f"{size}: the verdict {verdict} is outside {viewport}"
            assert verdict["uncovered"], f"{size}: something lies on the verdict {verdict}"
            assert_can_act(page, viewport, ALWAYS + TO_PLAY, f"{size} illegal selection")
            act("illegal")
            page.locator("[data-clear]").click()
            page.wait_for_function("() => !document.querySelector('#hand .card-btn[aria-pressed=\"true\"]')")
        if game.phase == "bury":
            cards = engine.view(game, seat)["hand"][-8:]
        else:
            cards = engine.sample_play(game, seat, random.Random(table.version))
        if played == 2 and not phone:
            select_by_keyboard(page, cards)
        else:
            click_cards(page, cards, tap=phone)
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
        if played == 2 and not phone:
            page.keyboard.press("Enter")  # Enter plays the selection from the hand
        else:
            page.get_by_test_id("play").click()
        page.wait_for_function(f"() => Number(document.getElementById('table').dataset.version) > {table.version}")
        if game.phase == "bury":  # 8 buried: 25 left
            for p in pages.values():
                p.wait_for_function("() => document.querySelectorAll('#hand .card-btn').length === 25")
        played += 1

    # Each trick completed while we watched stayed in view for at least 1.5 s (each has swept
    # away by itself, or is still in view after that long).
    page.wait_for_function(
        "() => Object.values(window.__tricks).every((t) => t.to !== null || performance.now() - t.from > 1600)",
        timeout=5000,
    )
    tricks = page.evaluate("() => window.__tricks")
    finished = {n: t for n, t in tricks.items() if t["to"] is not None}
    assert finished, f"no trick was seen complete: {tricks}"
    for number, t in finished.items():
        assert t["to"] - t["from"] >= 1450, f"trick {number} was in view for only {t['to'] - t['from']:.0f} ms"
    act("after")

    # The rest of the hand, North's cards played through the write path. While it runs the
    # panels, held tricks and tags lie on nothing; then the hand's last trick is won, and the
    # result waits until that trick has been in view 1.5 s, uncovered, and swept.
    for p in pages.values():
        p.evaluate(WATCH_FINALE)

    held_shot = False

    def look(game):
        nonlocal checked_last_trick, held_shot
        if not checked_last_trick and game.phase == "play":
            checked_last_trick = check_last_trick(pages, phone, f"{size}-{step:02d}")
        layout = page.evaluate(LAYOUT)
        assert_apart(layout, f"{size} trick {len(game.tricks)}", phone)
        if layout["held"] and not held_shot:  # a won trick held while the next lead arrives
            held_shot = True
            shoot(pages, f"{size}-{step:02d}-held")
        return game.phase in ("scored", "finished")

    play_for(table_id, seat, user, look)
    act("last-trick")
    assert checked_last_trick, "the last trick's panel was never there to open"
    for language, p in pages.items():
        p.wait_for_function("() => window.__finale && window.__finale.resultAt !== null", timeout=5000)
        finale = p.evaluate("() => ({...window.__finale, from: window.__tricks[window.__finale.trick].from})")
        shown = finale["resultAt"] - finale["from"]
        assert shown >= 1450, f"{size} ({language}): the result came {shown:.0f} ms after the last trick was won"
        assert finale["looked"], f"{size} ({language}): the last trick was never seen at rest before its result"
        assert not finale["covered"], f"{size} ({language}): the last trick was covered by {finale['covered']}"
        assert_apart(p.evaluate(LAYOUT), f"{size} result ({language})", phone)
    act("result")
    # The result with its countdown and Ready fits the window, on both pages.
    for language, p in pages.items():
        for what in (
            '[data-testid="hand-result"]',
            '[data-testid="ready"]',
            '[data-testid="hand-result"] [data-testid="clock"]',
        ):
            box = p.locator(what).bounding_box()
            assert box and inside(box, viewport), f"{size} ({language}): {what} at {box} is outside {viewport}"
    assert_accessible(mirror, f"the hand's result at {size} in Chinese")
    for kind in ("lastTrick", "pointCards", "held", "winTags", "result", "messages", "badges"):
        assert SEEN[kind], f"{size}: no {kind} was ever there to check"
    # Ready: the only person at the table is ready (bots always are), so the next hand starts at
    # once, long before the server's pause (600 s here) would have ended.
    page.get_by_test_id("ready").click()
    wait_for(lambda t, g: g.hand_no == 2, table_id, timeout=10, what="the next hand after Ready")
    for p in pages.values():
        p.wait_for_selector('[data-testid="hand-result"]', state="detached", timeout=10_000)
    for context in contexts.values():
        context.close()
