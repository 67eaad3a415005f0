"""At the table the game's words explain themselves (the `term` macro of the regions, `{% term %}`
in the Django partials, games/glossary.py): the phase names, dealer, defenders, level,
trump, kitty, bury, point cards, the throw in the verdict and the kitty bonus in the hand's
result — on the first page load and in the websocket's pushes, in both languages. A region
that did not change renders the same markup (the tooltips' ids name their place), and no
id repeats on the page."""

import re
from collections import Counter

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine
from games.engine import apply
from games.glossary import TERMS
from games.models import Table
from games.web import rendering
from tests.conftest import make_table, ws_client
from tests.engine.test_engine_views import game_at
from tests.table_driver import play_until

TERM = re.compile(r'<a class="term" href="/rules/#term-([\w-]+)" data-term="\1" aria-describedby="([\w-]+)">')
TIP_ID = re.compile(r'<span class="term-tip" role="tooltip" id="([\w-]+)">')
LANGUAGES = ("en", "zh-hans")

# The words a new player meets at the table, by what the table shows (the reader is a seat).
WORDS_BY_PHASE = {
    "deal": {"declare"},  # "dealing": the time to declare, in the status line and on the felt
    "last_chance": {"last-chance"},
    "bury": {"bury", "dealer", "level", "trump", "point-cards"},
    "play": {"dealer", "defenders", "level", "trump", "point-cards"},
    "scored": {"kitty-bonus", "defenders"},
}


def terms_in(html: str) -> set[str]:
    return {key for key, _tip in TERM.findall(html)}


def game_in(phase: str) -> engine.Game:
    if phase != "last_chance":
        return game_at(phase)
    game = engine.Game.new()
    apply(game, {"type": "start_hand", "seed": "v"})
    apply(game, {"type": "deal", "upto": 100})
    assert game.phase == "last_chance"
    return game


def render(table, game, seat, user, language) -> dict[str, str]:
    seats = list(table.seats.select_related("user").order_by("position"))
    with translation.override(language):
        context = rendering.table_context(
            table=table, seats=seats, view=engine.view(game, seat), viewer_seat=seat, user=user
        )
        return rendering.render_regions(context)


@pytest.fixture
def table(players):
    table = make_table(players[0], players=players)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    return Table.objects.get(pk=table.pk)


@pytest.mark.django_db
@pytest.mark.parametrize("phase", list(WORDS_BY_PHASE))
def test_the_regions_explain_the_words_of_each_phase_in_both_languages(table, players, phase):
    game = game_in(phase)
    seat = game.dealer if game.dealer is not None else 0  # the dealer also sees the kitty's mark
    for language in LANGUAGES:
        regions = render(table, game, seat, players[seat], language)
        page = "".join(regions.values())
        assert WORDS_BY_PHASE[phase] <= terms_in(page), (phase, language, terms_in(page))
        # Every word's tooltip is on the page, once, with the definition in the reader's language.
        described = [tip for _key, tip in TERM.findall(page)]
        assert sorted(described) == sorted(TIP_ID.findall(page))
        assert not [i for i, n in Counter(described).items() if n > 1], "a tooltip id repeats"
        with translation.override(language):
            definition = str(TERMS[sorted(WORDS_BY_PHASE[phase])[0]].definition)
        assert definition in page
        # Rendered again: the same markup, so an unchanged region is not pushed again.
        assert render(table, game, seat, players[seat], language) == regions
    if phase == "bury":
        assert "kitty" in terms_in(regions["hand"])  # "from the kitty", the picked-up cards' mark


@pytest.mark.django_db
def test_the_words_keep_the_reader_s_language(table, players):
    game = game_in("play")
    english = render(table, game, 0, players[0], "en")["status"]
    chinese = render(table, game, 0, players[0], "zh-hans")["status"]
    assert ">Trump</a>" in english and ">Level rank</a>" in english
    assert "主牌" in chinese and "Trump</a>" not in chinese
    assert str(TERMS["trump"].definition) in english


@pytest.mark.django_db
def test_the_first_page_load_shows_the_words_and_loads_their_script(table, players, settings):
    game = game_in("play")
    Table.objects.filter(pk=table.pk).update(state=game.to_json())
    for language in LANGUAGES:
        client = Client()
        client.force_login(players[0])
        client.cookies["django_language"] = language
        page = client.get(reverse("table", args=[table.pk])).text
        assert WORDS_BY_PHASE["play"] <= terms_in(page), language
        ids = re.findall(r'\bid="([^"]+)"', page)
        assert not [i for i, n in Counter(ids).items() if n > 1], "an id repeats on the page"
        assert "js/glossary.js" in page


@pytest.mark.django_db(transaction=True)
async def test_the_pushes_carry_the_words_from_the_deal_to_the_play(players, fast_clock):
    table = await sync_to_async(make_table)(players[0], players=players, window_ms=300)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players]
    await clients[0].send({"action": "start_match", "version": table.version})
    await play_until(clients, table.pk, lambda g: g.phase == "play" and len(g.tricks) >= 1)
    seen: set[str] = set()
    for client in clients:
        await client.drain()  # what the table pushed while it was played
        for message in client.received:
            if message["type"] == "state":
                seen |= terms_in("".join(message["html"].values()))
    assert {"declare", "bury", "dealer", "defenders", "level", "trump", "point-cards"} <= seen, seen
    for client in clients:
        await client.close()
