"""The table page's per-player choices and endings, in a real chromium: the sound toggle and
the four-colour deck are remembered per account (the deck recolours the replay too), forced
moves are played only for who asked, the last-chance window counts down, and a player
removed by a moderator is told why instead of "reconnecting…" forever (issue #12)."""

import re

import pytest
from django.test import Client

from accounts.models import Profile
from games.moderation import tables as moderation
from tests.browser import (
    PASSWORD,
    TIMEOUT_MS,
    in_a_thread,
    log_in,
)
from tests.conftest import make_moderator, make_user

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def play_now(page, server) -> int:
    page.goto(server + "/")
    page.get_by_test_id("play-now").click()
    page.wait_for_url(re.compile(r"/tables/\d+/$"))
    page.wait_for_selector("#conn.online")
    return int(re.search(r"/tables/(\d+)/", page.url).group(1))


def test_sound_toggle_is_remembered_for_the_account(server, browser):
    user = make_user("listener", PASSWORD)
    page = log_in(browser.new_context(), server, "listener")
    play_now(page, server)
    toggle = page.locator("[data-sound-toggle]")
    assert toggle.get_attribute("aria-pressed") == "true"  # sounds are on by default
    with page.expect_response(lambda r: "/accounts/preferences/" in r.url and r.ok):
        toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    assert Profile.objects.get(user=user).sound is False
    # Another device of the same player starts with sounds off.
    other = log_in(browser.new_context(), server, "listener")
    other.goto(page.url)
    assert other.locator("[data-sound-toggle]").get_attribute("aria-pressed") == "false"


def test_four_colour_deck_from_the_settings_page(server, browser):
    make_user("colours", PASSWORD)
    page = log_in(browser.new_context(), server, "colours")
    page.goto(server + "/accounts/settings/")
    page.check('input[name="four_colour"]')
    page.click('main button[type="submit"]')
    page.wait_for_selector(".message")
    play_now(page, server)
    assert page.locator("body").get_attribute("data-deck") == "four-colour"
    # A diamond and a club, once dealt, are blue and green, not red and black.
    page.wait_for_function(
        "() => document.querySelector('#hand .s-D') && document.querySelector('#hand .s-C')", timeout=30_000
    )
    colours = page.evaluate(
        "() => ['s-D', 's-C', 's-H', 's-S'].map(s => getComputedStyle(document.querySelector('#hand .' + s) "
        "|| document.body).color)"
    )
    assert colours[0] == "rgb(26, 85, 196)" and colours[1] == "rgb(22, 129, 58)", colours


def test_a_kicked_player_is_told_why_and_stops_reconnecting(server, browser):
    user = make_user("rowdy", PASSWORD)
    moderator = make_moderator("mod")
    page = log_in(browser.new_context(), server, "rowdy")
    table_id = play_now(page, server)
    in_a_thread(
        moderation.seat_kick, moderator=moderator, table_id=table_id, user_id=user.pk, reason="Spamming the chat"
    )
    ended = page.locator("#ended")
    ended.wait_for(state="visible", timeout=TIMEOUT_MS)
    assert "Spamming the chat" in ended.inner_text()
    assert "reconnecting" not in page.locator("#conn").inner_text()
    # Opened again, the page is refused (the kick stands), and nothing reconnects.
    page.wait_for_timeout(1500)
    assert "reconnecting" not in page.locator("#conn").inner_text()
    assert Client().get(f"/tables/{table_id}/").status_code in (302, 404)


# --- the four-colour deck on the replay, the last-chance countdown, forced plays ---------

DIAMOND_CLUB = """() => ['D', 'C'].map(s => {
  const card = document.querySelector('.hcard[data-card^="' + s + '"]');
  return card && getComputedStyle(card).color;
})"""


def test_four_colour_deck_recolours_the_replays_cards_for_who_chose_it(server, browser):
    from django.test import override_settings

    from tests.conftest import make_table
    from tests.history.test_replay import FAST, drive

    players = [make_user(name, PASSWORD) for name in ("fourcol", "plain", "south", "west")]
    Profile.objects.update_or_create(user=players[0], defaults={"four_colour": True})

    def one_hand():
        table = make_table(players[0], players=players)
        with override_settings(**FAST):
            drive(table, players, hands=1)
        return table

    table = in_a_thread(one_hand)
    hand = table.matches.get().hands.get()
    colours = {}
    for name in ("fourcol", "plain"):
        page = log_in(browser.new_context(), server, name)
        page.goto(f"{server}/hands/{hand.pk}/replay/?step=120")  # every hand still holds cards
        colours[name] = page.evaluate(DIAMOND_CLUB)
        assert (page.locator("body").get_attribute("data-deck") == "four-colour") == (name == "fourcol")
    assert colours["fourcol"] == ["rgb(26, 85, 196)", "rgb(22, 129, 58)"], colours  # ♦ blue, ♣ green
    assert colours["plain"] == ["rgb(198, 40, 40)", "rgb(34, 34, 34)"], colours  # ♦ red, ♣ black


def test_the_last_chance_window_counts_down_on_the_page(server, browser):
    from games.models import Table
    from games.runtime import writer
    from tests.conftest import make_table

    players = [make_user(name, PASSWORD) for name in ("waiter", "east", "south", "west")]
    table = in_a_thread(make_table, owner=players[0], players=players, pace_ms=20, window_ms=15_000)
    in_a_thread(
        writer.table_act, table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0]
    )
    page = log_in(browser.new_context(), server, "waiter")
    page.goto(f"{server}/tables/{table.pk}/")
    clock = page.locator('.table-message [data-testid="clock"]')
    clock.wait_for(state="visible", timeout=TIMEOUT_MS)  # the 100th card is out: RULES §3.4
    deadline = Table.objects.get(pk=table.pk).deadline
    assert clock.get_attribute("data-deadline") == str(int(deadline.timestamp() * 1000))
    page.wait_for_function(
        "() => /^\\d+$/.test(document.querySelector('.table-message [data-testid=\"clock\"] .clock-s').textContent)"
    )
    left = int(clock.locator(".clock-s").inner_text())
    assert 0 < left <= 15, left


def seat_zero_forced(play_forced: bool):
    """Four people at a table, played on (through the write path) until North's turn comes
    with exactly one legal play; North has "play forced moves for me" on or off."""
    from django.test import override_settings

    from games import engine
    from games.runtime import writer
    from tests.conftest import make_table
    from tests.table_driver import drive

    players = [make_user(name, PASSWORD) for name in ("north", "east", "south", "west")]
    Profile.objects.update_or_create(user=players[0], defaults={"play_forced": play_forced})

    def play_on():
        # Private and without a turn limit: nothing but North's own page may play North's turn.
        table = make_table(players[0], players=players, pace_ms=1, window_ms=0, is_private=True, turn_limit_s=0)
        with override_settings(GAMES_DEAL_LEAD_IN_MS=0, GAMES_NEXT_HAND_DELAY_MS=0, GAMES_BOT_DELAY_MS=0):
            writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
            return drive(
                table.pk,
                dict(enumerate(players)),
                lambda g: g.phase == "play" and g.turn == 0 and engine.forced_play(g, 0) is not None,
            )

    table, game = in_a_thread(play_on)
    return table, game, engine.forced_play(game, 0)


def test_a_forced_play_is_made_for_a_player_who_asked_for_it(server, browser):
    from games import engine
    from games.models import Table, TableEvent

    table, game, forced = seat_zero_forced(True)
    page = log_in(browser.new_context(), server, "north")
    page.goto(f"{server}/tables/{table.pk}/?invite={table.invite_code}")
    # No click: the page asks, the server finds the only legal play and plays it.
    page.wait_for_function(
        "v => Number(document.getElementById('table').dataset.version) > v", arg=table.version, timeout=TIMEOUT_MS
    )
    stored = Table.objects.get(pk=table.pk)
    after = engine.Game.from_json(stored.state)
    assert stored.version == table.version + 1
    assert TableEvent.objects.get(table=table, seq=stored.version).action["cards"] == forced
    assert len(after.hands[0]) == len(game.hands[0]) - len(forced)


def test_no_forced_play_is_made_for_a_player_who_did_not_ask(server, browser):
    from games.models import Table

    table, _game, _forced = seat_zero_forced(False)
    page = log_in(browser.new_context(), server, "north")
    page.goto(f"{server}/tables/{table.pk}/?invite={table.invite_code}")
    page.wait_for_selector("#conn.online")
    page.wait_for_selector(".hand-panel.my-turn", state="attached")
    page.wait_for_timeout(3000)  # a page that wants forced plays asks at once (the test above)
    assert Table.objects.get(pk=table.pk).version == table.version  # nothing played for them
    assert page.locator("#table").get_attribute("data-version") == str(table.version)
