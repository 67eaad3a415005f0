"""What the table's regions tell a player (games/web/rendering.py and the partials):
countdowns with their deadlines, the point cards each side won, named cards, the trick just
won held for the page, and the end-of-match screen."""

import random
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Profile
from games import engine, jinja_env
from games.models import Match, Seat, Table
from games.web import rendering
from tests.conftest import make_table, make_user, ws_client
from tests.engine.test_engine_views import game_at

pytestmark = pytest.mark.django_db

CLOCK = re.compile(r'data-testid="clock" data-deadline="(\d+)"')


def regions(table, game, seat, user):
    seats = list(table.seats.select_related("user").order_by("position"))
    view = engine.view(game, seat) if game else None
    context = rendering.table_context(table=table, seats=seats, view=view, viewer_seat=seat, user=user)
    return rendering.render_regions(context)


@pytest.fixture
def table(players):
    table = make_table(players[0], players=players, turn_limit_s=30)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    return Table.objects.get(pk=table.pk)


def test_a_persons_turn_counts_down_to_the_stored_deadline(table, players):
    game = game_at("play")
    table.deadline = timezone.now() + timedelta(seconds=20)
    shown = regions(table, game, game.turn, players[game.turn])
    expected = str(int(table.deadline.timestamp() * 1000))
    assert CLOCK.findall(shown["hand"]) == [expected]  # big, for the player on turn
    assert CLOCK.findall(shown["players"]) == [expected]  # and on their seat, for everyone
    other = regions(table, game, (game.turn + 1) % 4, players[(game.turn + 1) % 4])
    assert CLOCK.findall(other["hand"]) == [] and CLOCK.findall(other["players"]) == [expected]


def test_a_bots_turn_and_a_table_without_a_limit_show_no_countdown(table, players):
    game = game_at("play")
    table.deadline = timezone.now() + timedelta(seconds=20)
    Seat.objects.filter(table=table, position=game.turn).update(user=None, bot=Seat.Bot.BASIC)
    assert not CLOCK.search("".join(regions(table, game, None, players[0]).values()))
    table.turn_limit_s = None
    Seat.objects.filter(table=table, position=game.turn).update(user=players[game.turn], bot="")
    assert not CLOCK.search("".join(regions(table, game, None, players[0]).values()))


def test_the_pause_before_the_next_hand_counts_down(table, players):
    game = game_at("scored")
    table.deadline = timezone.now() + timedelta(seconds=8)
    center = regions(table, game, 0, players[0])["center"]
    assert CLOCK.findall(center) == [str(int(table.deadline.timestamp() * 1000))]


def test_the_last_chance_window_counts_down_to_its_deadline(table, players):
    game = game_at("deal")
    engine.apply(game, {"type": "deal", "upto": 100})
    assert game.phase == "last_chance"  # RULES §3.4
    table.deadline = timezone.now() + timedelta(milliseconds=1500)
    expected = str(int(table.deadline.timestamp() * 1000))
    for seat in (0, 2, None):  # every seat and a spectator see the same window
        center = regions(table, game, seat, players[seat] if seat is not None else players[0])["center"]
        assert CLOCK.findall(center) == [expected]
        assert 'aria-label="time left to declare"' in center
    # During the deal itself nothing is counted down.
    dealing = game_at("deal")
    assert not CLOCK.search("".join(regions(table, dealing, 0, players[0]).values()))


TRICK_NO = re.compile(r'<dd class="trick-no">(\d+)</dd>')


def test_the_trick_number_starts_at_one_before_the_first_lead(table, players):
    game = game_at("bury")
    engine.apply(game, {"type": "bury", "seat": game.dealer, "cards": game.hands[game.dealer][:8]})
    assert game.phase == "play" and not game.trick and not game.tricks
    assert TRICK_NO.findall(regions(table, game, 0, players[0])["status"]) == ["1"]  # not "Trick 0"
    rng = random.Random(5)
    seen = []
    while game.phase == "play" and len(game.tricks) < 3:
        # Mid-trick and between tricks (the next lead not made yet) alike: the trick under way.
        seen.append((len(game.tricks) + 1, TRICK_NO.findall(regions(table, game, 1, players[1])["status"])))
        engine.apply(game, {"type": "play", "seat": game.turn, "cards": engine.sample_play(game, game.turn, rng)})
    assert all(shown == [str(expected)] for expected, shown in seen), seen
    assert {expected for expected, _shown in seen} == {1, 2, 3}


def test_point_cards_of_each_side_with_the_readers_team_first(table, players):
    game = game_at("scored")
    status = regions(table, game, 1, players[1])["status"]
    won = engine.view(game, 1)["point_cards"]
    sides = re.findall(r'<div class="pc-side team-(\d)">.*?<strong class="pc-points">(\d+)</strong>', status, re.S)
    assert sides == [("1", str(engine.points(won[1]))), ("0", str(engine.points(won[0])))]


def test_cards_are_named_for_screen_readers_in_both_languages(table, players):
    game = game_at("play")
    for language, word in (("en", " of "), ("zh-hans", "")):
        with translation.override(language):
            hand = regions(table, game, 0, players[0])["hand"]
        labels = re.findall(r'role="img" aria-label="([^"]+)"', hand)
        assert len(labels) == len(game.hands[0])
        assert all(word in label or "joker" in label or "王" in label for label in labels)
        assert not re.search(r'title="[A-Z]+\d*"', hand)  # no internal codes as tooltips


def test_the_trick_just_won_is_laid_out_for_the_page_to_hold(table, players):
    game = game_at("play")
    while not (game.tricks and len(game.trick) == 1):
        engine.apply(
            game,
            {
                "type": "play",
                "seat": game.turn,
                "cards": engine.sample_play(game, game.turn, random.Random(3)),
            },
        )
    center = regions(table, game, 0, players[0])["center"]
    layer = re.search(r'<div class="trick-previous" data-trick="(\d+)" data-winner="(\w+)"', center)
    assert layer and int(layer.group(1)) == len(game.tricks)
    assert layer.group(2) in ("top", "left", "right", "bottom")


def test_the_end_of_the_match_says_who_won_and_links_the_record(table, players):
    game = game_at("scored")
    game.phase, game.winner = "finished", 0
    match = Match.objects.create(table=table, number=1)
    with translation.override("en"):
        center = regions(table, game, 0, players[0])["center"]
    assert 'data-testid="match-over"' in center
    assert "North–South win the match!" in center and "Your team won" in center
    assert f'href="/tables/{table.pk}/last-match/"' in center
    client = Client()
    client.force_login(players[0])
    assert client.get(f"/tables/{table.pk}/last-match/")["Location"] == f"/matches/{match.pk}/"


def test_the_owner_watching_a_running_match_sees_what_every_spectator_sees(table, players):
    # So spectators share one render per version whoever owns the table (games/web/room.py).
    Seat.objects.filter(table=table, position=0).update(user=None, bot=Seat.Bot.BASIC)
    table.refresh_from_db()
    game = game_at("play")
    assert table.owner_id == players[0].pk
    assert regions(table, game, None, players[0]) == regions(table, game, None, players[1])
    table.status = Table.Status.WAITING  # ...but not while it waits: the owner seats bots and starts
    assert regions(table, None, None, players[0]) != regions(table, None, None, players[1])


def test_each_language_gets_its_own_words_however_often_the_regions_render(table, players):
    game = game_at("play")
    for _round in range(2):  # the second round reads the messages the first remembered
        with translation.override("zh-hans"):
            chinese = regions(table, game, None, players[0])
        with translation.override("en"):
            english = regions(table, game, None, players[0])
        assert "庄家" in chinese["players"] and "Dealer" not in chinese["players"]
        assert "Dealer" in english["players"] and "庄家" not in english["players"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "zh-hans"])
async def test_the_first_page_load_and_a_push_show_the_same_regions(players, language):
    """One template per region (games/jinja2/games/regions/, the seat's hand.html) makes both:
    a page loaded now and the socket's first state show a seat and a spectator the same."""
    watcher = await sync_to_async(make_user)("watcher")
    table = await sync_to_async(make_table)(players[0], players=players, turn_limit_s=30)
    await sync_to_async(_stored_in_play)(table, [*players, watcher], language)
    for user in (players[0], watcher):
        page = await sync_to_async(_page)(table, user)
        client = await ws_client(f"/ws/table/{table.pk}/", user)
        pushed = (await client.receive_until(lambda m: m["type"] == "state"))["html"]
        await client.close()
        assert set(pushed) == {"players", "center", "hand", "status"}
        for name, html in pushed.items():
            assert f'<div id="{name}" class="{name}">{html}</div>' in page or f'<div id="{name}">{html}</div>' in page
        words = ("Dealer", "Trump") if language == "en" else ("庄家", "主牌")
        assert all(word in pushed["players"] + pushed["status"] for word in words), language


def _stored_in_play(table, users, language):
    Table.objects.filter(pk=table.pk).update(
        status=Table.Status.PLAYING, state=game_at("play").to_json(), deadline=timezone.now() + timedelta(seconds=20)
    )
    for user in users:  # the reader's saved choice: the page and the socket both follow it
        Profile.objects.update_or_create(user=user, defaults={"language": language})


def _page(table, user) -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = user.profile.language
    return client.get(reverse("table", args=[table.pk])).text


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_words_translated_as_the_template_compiles_read_as_django_translates_them_on_render(table, players, language):
    """A plain `_("…")` is translated, and a glossary word of literals made, when a region's
    template is compiled for a language (games/jinja_env.py LiteralWords); the markup equals
    a render that asks Django's translations for every word and calls the glossary's macro,
    in every phase and for a seat and a spectator."""
    base = jinja_env._env()
    for phase in ("deal", "bury", "play"):
        game = game_at(phase)
        for seat in (None, 1):
            user = players[seat] if seat is not None else AnonymousUser()
            seats = list(table.seats.select_related("user").order_by("position"))
            with translation.override(language):
                context = rendering.table_context(
                    table=table, seats=seats, view=engine.view(game, seat), viewer_seat=seat, user=user
                )
                compiled = rendering.render_regions(context)
                per_language, base.by_language = base.by_language, {}
                try:
                    looked_up = rendering.render_regions(context)
                finally:
                    base.by_language = per_language
            assert compiled == looked_up, (phase, seat)
    assert ("庄家" in compiled["status"]) == (language == "zh-hans")
