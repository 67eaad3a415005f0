"""Bot levels per seat (games/bot_levels.py, games/runtime/seating.py) and the level "Play
now" seats, remembered per player (games/web/views.py, accounts.Profile.bot_level)."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from games import bot_levels, bots
from games.engine import Refusal
from games.models import Seat, Table, TableEvent
from games.runtime import writer
from tests.conftest import make_table, make_user

pytestmark = pytest.mark.django_db


# --- which levels, and the default ------------------------------------------------------


def test_the_levels_offered_are_the_bots_levels_but_random():
    assert bot_levels.offered() == tuple(level for level in bots.LEVELS if level != "random")
    assert bot_levels.offered()[:3] == ("novice", "basic", "strong")  # weakest first


def test_the_default_is_basic_or_else_the_strongest_level_there_is(settings, monkeypatch):
    assert settings.GAMES_BOT_LEVEL == "basic"  # not the strongest: a newcomer's first hands
    assert bot_levels.default() == "basic" and bot_levels.remembered("") == "basic"
    settings.GAMES_BOT_LEVEL = "expert"
    monkeypatch.setattr(bots, "LEVELS", ("random", "basic", "strong"))  # a build without expert
    assert bot_levels.default() == "strong"
    assert bot_levels.remembered("") == bot_levels.remembered("expert") == "strong"
    assert bot_levels.remembered("basic") == "basic"
    monkeypatch.setattr(bots, "LEVELS", ("random", "basic", "strong", "expert"))  # with it
    assert bot_levels.default() == "expert" and bot_levels.remembered("") == "expert"


def test_levels_read_in_both_languages():
    assert bot_levels.seat_label("strong") == "strong bot"
    with translation.override("zh-hans"):
        assert bot_levels.seat_label("strong") == "高级机器人"
        assert bot_levels.seat_label("expert") == "专家机器人"
        assert dict(bot_levels.choices())["basic"] == "初级"
        assert bot_levels.seat_label("novice") == "新手机器人" and dict(bot_levels.choices())["novice"] == "新手"
    assert bot_levels.seat_label("novice") == "novice bot" and dict(bot_levels.choices())["novice"] == "Novice"


# --- the owner chooses per seat; the server checks ----------------------------------------


def _act(table, action, user):
    return writer.table_act(table_id=table.pk, action=action, expected_version=None, user=user)


def _refusal(table, action, user) -> str:
    before = (Table.objects.get(pk=table.pk).version, list(table.seats.order_by("position").values_list("bot")))
    events = TableEvent.objects.filter(table=table).count()
    with pytest.raises(Refusal) as refused:
        _act(table, action, user)
    after = (Table.objects.get(pk=table.pk).version, list(table.seats.order_by("position").values_list("bot")))
    assert after == before and TableEvent.objects.filter(table=table).count() == events  # nothing changed
    return refused.value.code


def test_the_owner_seats_each_level_and_bad_levels_change_nothing(players):
    owner = players[0]
    table = make_table(owner, players=[owner])
    _act(table, {"type": "add_bot", "seat": 1, "level": "basic"}, owner)
    _act(table, {"type": "add_bot", "seat": 2, "level": "strong"}, owner)
    _act(table, {"type": "add_bot", "seat": 3}, owner)  # none named: the site's default
    assert [s.bot for s in table.seats.order_by("position")] == ["", "basic", "strong", bot_levels.default()]
    _act(table, {"type": "remove_bot", "seat": 3}, owner)
    for level in ("random", "grandmaster", "", None, 3, ["basic"]):
        assert _refusal(table, {"type": "add_bot", "seat": 3, "level": level}, owner) == "bad_bot"


def test_the_owner_changes_a_bots_level_while_the_table_waits(players):
    owner, guest = players[0], players[1]
    table = make_table(owner, players=[owner, guest])
    _act(table, {"type": "add_bot", "seat": 2, "level": "strong"}, owner)
    applied = _act(table, {"type": "bot_level", "seat": 2, "level": "basic"}, owner)
    assert table.seats.get(position=2).bot == "basic"
    logged = TableEvent.objects.get(table=table, seq=applied.version)
    assert logged.action == {"type": "bot_level", "seat": 2, "level": "basic"} and logged.actor_id == owner.pk
    assert _refusal(table, {"type": "bot_level", "seat": 2, "level": "random"}, owner) == "bad_bot"
    assert _refusal(table, {"type": "bot_level", "seat": 2, "level": "nope"}, owner) == "bad_bot"
    assert _refusal(table, {"type": "bot_level", "seat": 2}, owner) == "bad_bot"
    assert _refusal(table, {"type": "bot_level", "seat": 1, "level": "strong"}, owner) == "no_bot"  # a person
    assert _refusal(table, {"type": "bot_level", "seat": 3, "level": "strong"}, owner) == "no_bot"  # empty
    assert _refusal(table, {"type": "bot_level", "seat": 9, "level": "strong"}, owner) == "bad_seat"
    assert _refusal(table, {"type": "bot_level", "seat": 2, "level": "strong"}, guest) == "not_owner"
    _act(table, {"type": "add_bot", "seat": 3, "level": "basic"}, owner)
    _act(table, {"type": "start_match"}, owner)
    assert _refusal(table, {"type": "bot_level", "seat": 2, "level": "strong"}, owner) == "match_running"


def test_the_table_shows_each_seats_level_and_the_owners_lists(client, players):
    owner = players[0]
    table = make_table(owner, players=[owner])
    _act(table, {"type": "add_bot", "seat": 1, "level": "strong"}, owner)
    client.force_login(owner)
    page = client.get(reverse("table", args=[table.pk])).text
    east = re.search(r'<section data-bot-level="strong" class="seat [^"]*" data-seat="1".*?</section>', page, re.S)
    # A bot has a name of its own at the table, its level on the line below (games/words/seats.py).
    assert east and "Iris" in east.group(0) and "strong bot" in east.group(0)
    # The owner's list on the bot's seat shows its level; on a free seat, the default.
    assert re.search(r'data-action="bot_level" data-seat="1">.*?<option value="strong" selected>', east.group(0))
    south = re.search(r'<section class="seat [^"]*" data-seat="2".*?</section>', page, re.S).group(0)
    assert f'<option value="{bot_levels.default()}" selected>' in south and 'data-level-from="bot-level-2"' in south
    assert '<option value="novice">Novice</option>' in south
    assert 'value="random"' not in page
    client.force_login(players[1])  # anyone else sees the level, not the lists
    page = client.get(reverse("table", args=[table.pk])).text
    assert "Iris" in page and "strong bot" in page and 'data-testid="bot-level"' not in page
    with translation.override("zh-hans"):
        client.cookies["django_language"] = "zh-hans"
        page = client.get(reverse("table", args=[table.pk])).text
        assert "艾瑞丝" in page and "高级机器人" in page
    _act(table, {"type": "bot_level", "seat": 1, "level": "novice"}, owner)
    page = client.get(reverse("table", args=[table.pk])).text
    assert "石子" in page and "新手机器人" in page  # another level, another name


# --- Play now: the player's level, remembered -------------------------------------------------


def _play_now(client, **data):
    return client.post(reverse("play_now"), data, follow=True)


def _bots_of_latest(user) -> list[str]:
    table = Table.objects.filter(owner=user).latest("pk")
    return [s.bot for s in table.seats.order_by("position")][1:]


def test_play_now_seats_the_chosen_level_and_remembers_it(client):
    mei = make_user("mei")
    client.force_login(mei)
    lobby = client.get(reverse("lobby")).text
    assert f'<option value="{bot_levels.default()}" selected>' in lobby  # nothing chosen yet
    assert '<option value="novice">Novice</option>' in lobby
    _play_now(client, level="basic")
    assert _bots_of_latest(mei) == ["basic"] * 3
    assert Profile.objects.get(user=mei).bot_level == "basic"
    assert '<option value="basic" selected>' in client.get(reverse("lobby")).text  # remembered
    _play_now(client)  # a form without the list (an old page): the remembered level
    assert _bots_of_latest(mei) == ["basic"] * 3
    _play_now(client, level="strong")
    assert _bots_of_latest(mei) == ["strong"] * 3 and Profile.objects.get(user=mei).bot_level == "strong"
    _play_now(client, level="novice")
    assert _bots_of_latest(mei) == ["novice"] * 3 and Profile.objects.get(user=mei).bot_level == "novice"


def test_play_now_refuses_a_level_that_is_not_offered_and_changes_nothing(client):
    mei = make_user("mei")
    client.force_login(mei)
    _play_now(client, level="basic")
    tables = Table.objects.count()
    for level, why in (
        ("random", "There is no bot of level “random”."),
        ("grandmaster", "There is no bot of level “grandmaster”."),
        ("", "Choose the bots&#x27; level."),
    ):
        response = _play_now(client, level=level)
        assert response.redirect_chain == [(reverse("lobby"), 302)]
        assert f"Could not start a game: {why}" in response.text
        assert Table.objects.count() == tables and Profile.objects.get(user=mei).bot_level == "basic"


def test_a_remembered_level_no_longer_offered_falls_back_to_the_default(client):
    mei = make_user("mei")
    Profile.objects.update_or_create(user=mei, defaults={"bot_level": "retired"})
    client.force_login(mei)
    _play_now(client)
    assert _bots_of_latest(mei) == [bot_levels.default()] * 3


def test_a_refused_play_now_keeps_no_remembered_level(client, monkeypatch):
    from games.web import views

    monkeypatch.setattr(views, "PLAY_NOW_BOT_SEATS", (1, 1))  # a seat twice: refused mid-way
    mei = make_user("mei")
    client.force_login(mei)
    response = _play_now(client, level="basic")
    assert "Could not start a game: That seat is taken." in response.text
    assert not Table.objects.exists() and not Profile.objects.filter(user=mei, bot_level="basic").exists()


def test_the_seat_levels_are_the_models_bot_values():
    # The model's named levels (admin, bench) are levels the bots offer.
    assert {Seat.Bot.NOVICE, Seat.Bot.BASIC, Seat.Bot.STRONG} <= set(bot_levels.offered())
