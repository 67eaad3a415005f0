"""Four people in four real browsers play a complete hand by clicking (Playwright + chromium).

The worker's live server (tests/browser.py) runs against the test database. Each user logs
in through the login page, sits by clicking "Sit here"; the owner starts the match; the
dealer buries 8 cards and everyone plays every trick by clicking cards and buttons. The test reads the stored
table only as an oracle to choose which cards to click (`engine.sample_play`).
Screenshots go to artifacts/screenshots/ (gitignored).
"""

import random
import re
import time
from collections import Counter

import pytest

from games import engine
from tests.browser import (
    PASSWORD,
    PRESSED,
    PRESSED_CODES,
    SHOTS,
    TIMEOUT_MS,
    at_version,
    click_cards,
    log_in,
    oracle,
    screenshot,
    toggle_card,
    wait_for,
)
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NAMES = ("north", "east", "south", "west")
CARD_CODE = re.compile(r'data-card="([A-Z0-9]+)"')


# --- helpers ---------------------------------------------------------------------------


def shot(page, name):
    """The whole page on a laptop; on the phone, the screen the player sees: a full-page
    capture resizes the emulated phone's viewport, and Chromium may give the page back
    zoomed in (measured: scale 1 → 1.128 after one capture), which puts later taps off
    target. The phone's page is checked at rest before each tap (assert_phone_at_rest)."""
    phone = page.evaluate("matchMedia('(pointer: coarse)').matches")
    screenshot(page, SHOTS / f"{name}.png", full_page=not phone)


def hand_codes(page) -> list[str]:
    return page.locator("#hand .card-btn").evaluate_all("els => els.map(e => e.dataset.card)")


def page_codes(page) -> list[str]:
    return CARD_CODE.findall(page.content())


# A phone's page at rest: drawn at scale 1, the visual viewport where the layout viewport
# is, and no sideways scroll (a page that pans puts taps off target); "wide" names the
# elements that reach past the screen's edge, clipped or not, to say which one did it.
PHONE_AT_REST = """() => ({scale: visualViewport.scale, left: visualViewport.offsetLeft, top: visualViewport.offsetTop,
  width: document.documentElement.scrollWidth, screen: innerWidth,
  wide: Array.from(document.querySelectorAll('body *'))
    .filter((e) => e.checkVisibility({visibilityProperty: true}) && e.getBoundingClientRect().right > innerWidth + 1)
    .slice(0, 3).map((e) => e.tagName + '.' + e.className)})"""


def assert_phone_at_rest(page, where):
    rest = page.evaluate(PHONE_AT_REST)
    assert rest["scale"] == 1 and rest["left"] == 0 and rest["top"] == 0, (
        f"{where}: the phone's page is zoomed or panned: {rest}"
    )
    assert rest["width"] <= rest["screen"], f"{where}: the phone's page is wider than its screen: {rest}"


def clear_selection(page, *, tap=False):
    button = page.locator("#hand [data-clear]")
    button.tap() if tap else button.click()
    page.wait_for_function("() => !document.querySelector('#hand .card-btn[aria-pressed=\"true\"]')")


class Watch:
    """What the pages did besides what the test looks at: console errors, closed sockets.
    Dumped (with a screenshot of every page) when the test fails."""

    def __init__(self):
        self.pages, self.log = {}, []

    def add(self, page, name):
        self.pages[name] = page
        page.on("console", lambda m: m.type in ("error", "warning") and self.log.append(f"{name} console: {m.text}"))
        page.on("pageerror", lambda e: self.log.append(f"{name} page error: {e}"))
        page.on("websocket", lambda ws: ws.on("close", lambda _ws: self.log.append(f"{name} socket closed: {ws.url}")))

    def closed_table_sockets(self):
        return [line for line in self.log if "socket closed" in line and "/ws/table/" in line and "/chat/" not in line]

    def dump(self):
        for name, page in self.pages.items():
            try:
                shot(page, f"99-failure-{name}")
                pressed = page.evaluate(PRESSED_CODES)
                self.log.append(
                    f"{name} at version {page.locator('#table').get_attribute('data-version')}, "
                    f"pressed {pressed}, selection: {page.locator('#selection').inner_text(timeout=1000)!r}"
                )
            except Exception as error:  # the page may be gone: report what we have
                self.log.append(f"{name}: {error}")
        print("\n".join(self.log))


def visible_to(game, seat) -> set[str]:
    """Card codes this seat may see now (RULES §9): own hand, tricks, areas, flip, own kitty."""
    view = engine.view(game, seat)
    codes = set(view["hand"]) | set(view["kitty"] or ())
    for cards in view["declaration_areas"].values():
        codes |= set(cards)
    for _seat, cards in view["trick"]:
        codes |= set(cards)
    if view["last_trick"]:
        for _seat, cards in view["last_trick"]["plays"]:
            codes |= set(cards)
    for cards in view["point_cards"]:  # points won in earlier tricks: played, so public
        codes |= set(cards)
    if view["last_failed_throw"]:
        codes |= set(view["last_failed_throw"]["attempted"])
    if view["flipped"]:
        codes.add(view["flipped"])
    return codes


def assert_hand_shown(page, game, seat):
    """The hand area shows exactly this seat's cards, sorted (RULES §2.6), and nothing
    else on the page shows a card the seat may not see (RULES §9)."""
    shown = hand_codes(page)
    assert Counter(shown) == Counter(game.hands[seat]), f"seat {seat}'s hand area is not its own hand"
    ctx = engine.context(game.level, game.trump)
    assert shown == ctx.sort(shown), f"seat {seat}'s hand is not sorted"
    marked = page.locator("#hand .card-btn").evaluate_all(
        "els => els.map(e => e.querySelector('.playing-card').classList.contains('trump'))"
    )
    assert marked == [ctx.is_trump(code) for code in shown], f"seat {seat}'s trumps are not marked"
    leaked = set(page_codes(page)) - visible_to(game, seat)
    assert not leaked, f"seat {seat}'s page shows {leaked}"


# --- the test --------------------------------------------------------------------------


def test_four_browsers_play_a_complete_hand(server, browser):
    watch = Watch()
    try:
        play_a_hand(server, browser, watch)
    except BaseException:
        watch.dump()
        raise


def play_a_hand(server, browser, watch):
    for old_shot in SHOTS.glob("*.png"):
        old_shot.unlink()
    for name in NAMES:
        make_user(name, PASSWORD)
    desktop = {"viewport": {"width": 1280, "height": 860}}
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
    contexts = [browser.new_context(**(phone if seat == 3 else desktop)) for seat in range(4)]
    # West plays on a phone, in Chinese: taps instead of clicks, translated page.
    contexts[3].add_cookies([{"name": "django_language", "value": "zh-hans", "url": server}])
    pages = [log_in(context, server, name, watch) for context, name in zip(contexts, NAMES)]
    touch = [False, False, False, True]

    # The owner creates the table through the lobby's form.
    owner = pages[0]
    owner.goto(f"{server}/")
    owner.fill('input[name="name"]', "Browser table")
    owner.click('[data-testid="rules-advanced"] > summary')  # the exact timing, for a quick test
    owner.fill('input[name="deal_pace_ms"]', "50")
    owner.fill('input[name="last_chance_ms"]', "1500")
    owner.select_option('select[name="turn_limit_s"]', "60")  # a public table has a turn limit
    owner.click('form[action="/tables/new/"] button[type="submit"]')
    owner.wait_for_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/", owner.url).group(1))
    for page in pages[1:]:
        page.goto(f"{server}/tables/{table_id}/")
    for page in pages:
        page.wait_for_selector("#conn.online")

    # Everyone sits by clicking "Sit here" on their seat, once their page shows the seats taken
    # before (a click on an older version is refused as stale, as it would be for anyone).
    for seat, page in enumerate(pages):
        for taken in range(seat):
            page.wait_for_selector(f'.seat[data-seat="{taken}"]:not(.is-free)', state="attached")
        sit = page.locator(f'[data-action="sit"][data-seat="{seat}"]')
        sit.tap() if touch[seat] else sit.click()
        page.wait_for_selector(f'.seat.is-me[data-seat="{seat}"]', state="attached")
    start = owner.locator('[data-action="start_match"]')
    start.wait_for()
    owner.wait_for_function("() => !document.querySelector('[data-action=start_match]').disabled")
    shot(owner, "01-seated")
    start.click()

    # The deal: the dealt count grows while the cards arrive one by one.
    owner.wait_for_selector(".dealt", timeout=TIMEOUT_MS)
    first_count = int(re.search(r"\d+", owner.locator(".dealt").inner_text()).group())
    owner.wait_for_function(  # the next cards arrive
        "n => Number(document.querySelector('.dealt').textContent.match(/\\d+/)[0]) > n", arg=first_count
    )
    shot(owner, "02-deal-north")
    shot(pages[3], "02-deal-west-phone-zh")
    second_count = int(re.search(r"\d+", owner.locator(".dealt").inner_text()).group())
    # Checked at the end, so one run also reports on everything after the deal.
    deal_counts = (first_count, second_count)
    _table, game = oracle(table_id)
    if game.phase == "deal":
        mine = hand_codes(owner)
        assert len(mine) <= 25 and set(mine) <= set(game.deck[:100])

    # Somebody declares as soon as a declare button shows up (clicking it).
    declared = False
    deadline = time.monotonic() + 12
    while not declared and time.monotonic() < deadline:
        _table, game = oracle(table_id)
        if game.phase not in ("deal", "last_chance"):
            break
        for seat, page in enumerate(pages):
            button = page.locator('[data-action="declare"]').first
            if button.count():
                try:
                    button.tap(timeout=1000) if touch[seat] else button.click(timeout=1000)
                except Exception:  # the region was re-rendered under the pointer: try again
                    continue
                declared = True
                break
        time.sleep(0.05)
    if declared:
        owner.wait_for_selector(".trick .declared [data-card]", timeout=TIMEOUT_MS)
        shot(owner, "03-declared-north")
        shot(pages[3], "03-declared-west-phone-zh")

    # The bury: the dealer holds 33 cards, picks exactly 8 and confirms.
    table, game = wait_for(lambda t, g: g.phase == "bury", table_id, what="the bury")
    dealer = game.dealer
    page = pages[dealer]
    at_version(page, table.version)
    page.wait_for_selector('[data-action="bury"]')
    assert page.locator("#hand .card-btn").count() == 33
    assert_hand_shown(page, game, dealer)
    for seat, other in enumerate(pages):
        if seat != dealer:
            at_version(other, table.version)
            assert_hand_shown(other, game, seat)
            assert other.locator('[data-action="bury"]').count() == 0
    bury_button = page.locator('[data-action="bury"]')
    to_bury = engine.view(game, dealer)["hand"][-8:]
    click_cards(page, to_bury[:7], tap=touch[dealer])
    page.wait_for_selector("#selection .bad")
    assert bury_button.is_disabled()
    click_cards(page, to_bury[7:], tap=touch[dealer])
    page.wait_for_function("() => !document.querySelector('[data-action=bury]').disabled")
    shot(page, f"04-bury-{NAMES[dealer]}")
    rest = Counter(game.hands[dealer]) - Counter(to_bury)
    ninth = next(iter(rest))
    click_cards(page, [ninth], tap=touch[dealer])  # a 9th card: illegal again
    page.wait_for_selector("#selection .bad")
    assert bury_button.is_disabled()
    toggle_card(page, ninth, pressed=True, tap=touch[dealer])
    page.wait_for_function("() => !document.querySelector('[data-action=bury]').disabled")
    bury_button.tap() if touch[dealer] else bury_button.click()

    # The play: whoever's turn it is picks a legal play (the oracle) and clicks it.
    rng = random.Random(2024)
    checked_illegal = checked_chinese = False
    tricks_shot = set()
    throws_shot = 0
    while True:
        table, game = wait_for(lambda t, g: g.phase != "bury", table_id, what="the end of the bury")
        if game.phase != "play":
            break
        seat = game.turn
        page = pages[seat]
        at_version(page, table.version)
        play_button = page.locator('[data-action="play"]')
        play_button.wait_for()
        if len(game.tricks) in (0, 12) and not game.trick:
            assert_hand_shown(page, game, seat)
        cards = engine.sample_play(game, seat, rng)
        # Nothing is pre-selected when a turn starts, even right after winning a trick
        # with cards whose identical twins are still in hand.
        assert page.evaluate(PRESSED) == 0, "a card is still selected from the previous play"
        if seat == 3 and not checked_chinese:  # West's page speaks Chinese, pushes included
            assert play_button.inner_text().strip() == "出牌"
            checked_chinese = True
        if len(game.tricks) == 4 and len(game.trick) == 1:
            # The last trick, on demand, on a page that is not on turn.
            watcher = pages[(seat + 1) % 4]
            at_version(watcher, table.version)
            summary = watcher.locator(".last-trick summary")
            if touch[(seat + 1) % 4]:
                assert_phone_at_rest(watcher, "before the last trick is opened")
                summary.tap()
            else:
                summary.click()
            shown = watcher.locator(".last-trick [data-card]").count()
            assert shown == sum(len(c) for _s, c in game.tricks[-1]["plays"])
            shot(watcher, f"06-last-trick-open-{NAMES[(seat + 1) % 4]}")
        if not checked_illegal:
            illegal = illegal_selection(game, seat)
            if illegal:
                click_cards(page, illegal, tap=touch[seat])
                page.wait_for_selector("#selection .bad")
                page.wait_for_function("() => document.querySelector('[data-action=play]').disabled")
                shot(page, f"05-illegal-selection-{NAMES[seat]}")
                clear_selection(page, tap=touch[seat])
                checked_illegal = True
        click_cards(page, cards, tap=touch[seat])
        page.wait_for_function("() => !document.querySelector('[data-action=play]').disabled")
        assert engine.classify(game, seat, cards)["legal"]
        trick_no = len(game.tricks)
        if len(game.trick) == 3 and trick_no in (1, 10) and trick_no not in tricks_shot:
            tricks_shot.add(trick_no)
            shot(page, f"06-trick{trick_no + 1}-{NAMES[seat]}-selected")
            for other_seat, other in enumerate(pages):
                if other_seat != seat:
                    shot(other, f"06-trick{trick_no + 1}-{NAMES[other_seat]}")
        if touch[seat]:
            assert_phone_at_rest(page, f"trick {len(game.tricks) + 1}")
        play_button.tap() if touch[seat] else play_button.click()
        after, game = wait_for(lambda t, g, v=table.version: t.version > v, table_id, what="the play")
        if game.last_failed_throw and game.last_failed_throw["trick_no"] == len(game.tricks) + 1 and throws_shot < 2:
            throws_shot += 1  # a random throw failed: everyone is told (RULES §5.3)
            for other in pages:
                at_version(other, after.version)
                other.locator(".failed-throw").wait_for()
            shot(pages[0], f"06-failed-throw-{throws_shot}-north")
            shot(pages[3], f"06-failed-throw-{throws_shot}-west-phone-zh")

    # The end of the hand: every page shows the result panel.
    table, game = oracle(table_id)
    assert game.phase in ("scored", "finished")
    result = game.result
    for seat, page in enumerate(pages):
        at_version(page, table.version)
        panel = page.locator(".result")
        panel.wait_for()
        text = panel.inner_text()
        assert page.locator(".result .defenders-score").inner_text() == str(result["defenders_score"])
        assert ("闲家总分" if touch[seat] else "Defenders' score") in text
        for team in ("0", "1"):
            assert f"{result['levels_before'][team]} → {result['levels_after'][team]}" in text
        kitty_shown = page.locator(".result .kitty-cards [data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        assert Counter(kitty_shown) == Counter(result["buried"])
        shot(page, f"07-hand-over-{NAMES[seat]}")
    assert not watch.closed_table_sockets(), watch.log
    assert not [line for line in watch.log if "Content Security Policy" in line], watch.log
    for context in contexts:
        context.close()
    assert 0 <= deal_counts[0] < deal_counts[1] <= 100, f"the dealt count did not grow during the deal: {deal_counts}"


def illegal_selection(game, seat) -> list[str] | None:
    """A selection from the hand that may not be played now, or None if none is handy."""
    hand = game.hands[seat]
    if game.trick:
        need = len(game.trick[0][1])
        return hand[: need + 1] if len(hand) > need else None  # one card too many
    ctx = engine.context(game.level, game.trump)
    trumps = [c for c in hand if ctx.is_trump(c)]
    others = [c for c in hand if not ctx.is_trump(c)]
    return [trumps[0], others[0]] if trumps and others else None  # a mixed lead
