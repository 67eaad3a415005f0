""" "Play now" (games/web/views.py) and the lobby cards (games/web/lobby_cards.py)."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import bot_levels
from games.models import Match, Seat, Table, TableEvent
from games.runtime import presence
from tests.conftest import make_table, make_user

pytestmark = pytest.mark.django_db


def test_play_now_seats_the_user_with_three_bots_and_starts_the_deal(client):
    user = make_user("mei")
    client.force_login(user)
    response = client.post(reverse("play_now"))
    table = Table.objects.get(owner=user)
    assert response.status_code == 302 and response.url == reverse("table", args=[table.pk])
    seats = list(table.seats.order_by("position"))
    assert seats[0].user == user and not seats[0].bot
    assert [seat.bot for seat in seats[1:]] == [bot_levels.default()] * 3  # none chosen yet: the site's
    assert table.status == Table.Status.PLAYING and table.state is not None
    assert not table.is_private and table.turn_limit_s == 30  # public: a bot plays for an absent player
    assert table.state["phase"] == "deal" and table.deal_started_at is not None
    assert Match.objects.filter(table=table).count() == 1 and table.matches.get().hands.count() == 1
    # Through the one write path: every step is in the table's log, as the owner.
    logged = list(TableEvent.objects.filter(table=table).order_by("seq").values_list("action__type", "actor"))
    assert logged[:5] == [("sit", user.pk)] + [("add_bot", user.pk)] * 3 + [("start_match", user.pk)]
    assert table.version == len(logged)
    page = client.get(response.url)
    assert page.status_code == 200


def test_play_now_deals_at_the_sites_pace_and_a_table_made_with_its_own_keeps_it(client, settings):
    settings.GAMES_DEAL_PACE_MS = 60
    user = make_user("mei")
    client.force_login(user)
    client.post(reverse("play_now"))
    assert Table.objects.get(owner=user).deal_pace_ms == 60
    assert make_table(user, pace_ms=400).deal_pace_ms == 400


def test_play_now_is_a_post_and_needs_a_login(client):
    response = client.post(reverse("play_now"))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not Table.objects.exists()
    client.force_login(make_user("mei"))
    assert client.get(reverse("play_now")).status_code == 405
    assert not Table.objects.exists()


def test_play_now_needs_the_csrf_token():
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("mei"))
    assert client.post(reverse("play_now")).status_code == 403
    assert not Table.objects.exists()


def test_a_visitor_meets_the_front_door_and_a_player_play_now(client):
    anonymous = client.get(reverse("lobby")).text
    assert 'data-testid="front-door"' in anonymous and 'data-testid="play-now"' not in anonymous
    assert f'action="{reverse("play_as_guest")}"' in anonymous and 'data-testid="play-as-guest"' in anonymous
    for way in (reverse("learn"), reverse("rules"), reverse("login"), reverse("register")):
        assert f'href="{way}"' in anonymous, way
    client.force_login(make_user("mei"))
    html = client.get(reverse("lobby")).text
    assert f'action="{reverse("play_now")}"' in html and 'data-testid="play-now"' in html


def text(html):
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def card(html, table):
    start = html.index(f'data-table="{table.pk}"')
    return html[start : html.index("</article>", start)]


def test_lobby_cards_say_who_sits_where_in_words(client):
    owner, guest = make_user("owner"), make_user("guest")
    table = make_table(owner, players=[owner, None, None, None], turn_limit_s=30, pace_ms=80)
    Seat.objects.filter(table=table, position=1).update(bot=Seat.Bot.STRONG)
    Seat.objects.filter(table=table, position=3).update(bot=Seat.Bot.BASIC)
    client.force_login(guest)
    html = card(client.get(reverse("lobby")).text, table)
    words = text(html)
    assert "North · owner" in words and "East · strong bot" in words and "West · basic bot" in words
    assert "South · free seat" in words
    assert "Waiting for players" in html and "3/4 seated" in html
    assert "Fast deal (about 8 s)" in html and "30 seconds a turn" in html and "Bots allowed" in html
    assert 'data-action="sit"' in html
    client.cookies["django_language"] = "zh-hans"
    chinese = card(client.get(reverse("lobby")).text, table)
    assert "东 · 高级机器人" in text(chinese) and "等待玩家" in chinese


def played_now(client, user) -> Table:
    """`user` clicked Play now: their table, its deal started."""
    client.force_login(user)
    client.post(reverse("play_now"))
    return Table.objects.get(owner=user)


def test_a_running_table_offers_rejoin_to_its_player_and_watch_to_others(client):
    mei, other = make_user("mei"), make_user("other")
    table = played_now(client, mei)
    presence.user_seen(user_id=mei.pk, channel_name="mei-socket", table_id=table.pk)
    mine = card(client.get(reverse("lobby")).text, table)
    assert 'data-action="rejoin"' in mine and "Playing" in mine
    client.force_login(other)
    theirs = card(client.get(reverse("lobby")).text, table)
    assert 'data-action="watch"' in theirs and 'data-action="rejoin"' not in theirs
    # Its player is there, thinking for ten minutes at a table without a turn limit: playing.
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now() - timedelta(minutes=10), deadline=None)
    assert "Playing" in card(client.get(reverse("lobby")).text, table)
    # Elsewhere on the site, with nobody watching: paused at once, without waiting for the clock.
    presence.user_seen(user_id=mei.pk, channel_name="mei-socket", table_id=None)
    Table.objects.filter(pk=table.pk).update(updated_at=timezone.now())
    assert "Paused — nobody connected" in card(client.get(reverse("lobby")).text, table)
    presence.user_gone(user_id=mei.pk, channel_name="mei-socket")
    assert "Paused — nobody connected" in card(client.get(reverse("lobby")).text, table)


def test_a_bots_only_table_reads_as_paused_when_its_clock_stands_still(client):
    mei = make_user("mei")
    table = played_now(client, mei)
    Seat.objects.filter(table=table, user=mei).update(user=None, bot="basic")
    assert "Playing" in card(client.get(reverse("lobby")).text, table)
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(minutes=2))
    assert "Paused — nobody connected" in card(client.get(reverse("lobby")).text, table)


def test_lobby_cards_never_show_cards(client):
    table = played_now(client, make_user("mei"))
    assert table.state["phase"] == "deal"
    html = card(client.get(reverse("lobby")).text, table)
    assert "data-card" not in html and "playing-card" not in html
    assert not set("♠♥♦♣🃏") & set(html)  # no card face, no suit, no trump


def test_a_refused_step_keeps_nothing_and_says_why(client, monkeypatch):
    from games.web import views

    monkeypatch.setattr(views, "PLAY_NOW_BOT_SEATS", (1, 1))  # a seat twice
    client.force_login(make_user("mei"))
    response = client.post(reverse("play_now"), follow=True)
    assert response.redirect_chain == [(reverse("lobby"), 302)]
    assert "Could not start a game: That seat is taken." in response.text
    assert not Table.objects.exists() and not TableEvent.objects.exists()
