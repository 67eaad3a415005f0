"""The hand's result explains itself: the defenders' score against the table's scale (RULES
§7.2, and the house rule level_steps), in words, with the scale and the current band marked."""

import re

import pytest
from django.test import Client
from django.utils import translation

from games import engine
from games.models import Hand, Match
from tests.engine.test_engine_views import game_at
from tests.web.test_table_rendering import regions, table  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


def scored_with(score: int, rules=engine.DEFAULT_RULES):
    game = game_at("scored")
    game.rules = rules
    game.result = dict(game.result, defenders_score=score)
    return game


def why(table, players, game, language="en") -> str:
    with translation.override(language):
        center = regions(table, game, 0, players[0])["center"]
    found = re.search(r'data-testid="result-why">(.*?)</details>', center, re.S)
    assert found, "the result has no explanation"
    return re.sub(r"\s+", " ", found.group(1))


@pytest.mark.parametrize(
    ("score", "sentence", "current"),
    [
        (0, "The defenders took no points at all: the dealers go up 3 levels.", "0"),
        (25, "The defenders scored 25, under 40: the dealers go up 2 levels.", "5–35"),
        (75, "The defenders scored 75, under 80: the dealers go up 1 level.", "40–75"),
        (80, "The defenders scored 80, 80 or more: they take over the deal.", "80–115"),
        (135, "The defenders scored 135, 120 or more: they take over the deal and go up 1 level.", "120–155"),
        (245, "The defenders scored 245, 200 or more: they take over the deal and go up 3 levels.", "200+"),
    ],
)
def test_the_standard_scale_says_why(table, players, score, sentence, current):
    text = why(table, players, scored_with(score))
    assert sentence in text
    marked = re.findall(r'aria-current="true" class="is-current"> <span class="score-scale__range">([^<]+)<', text)
    assert marked == [current]
    assert 'href="/rules/#scoring"' in text


def test_a_tables_own_scale_is_the_one_explained(table, players):
    gentle = engine.preset_rules("casual")
    assert gentle.level_steps == "gentle"
    text = why(table, players, scored_with(25, gentle))
    assert "The defenders scored 25, under 80: the dealers go up 1 level." in text
    assert "one more for each further 80" in text


def test_the_explanation_reads_in_chinese(table, players):
    text = why(table, players, scored_with(25), "zh-hans")
    assert "25" in text and "40" in text and "The defenders" not in text


def test_the_result_links_the_hands_replay_and_analysis(table, players):
    game = scored_with(25)
    with translation.override("en"):
        text = regions(table, game, 0, players[0])["center"]
    link = f'href="/tables/{table.pk}/hands/{game.result["hand_no"]}/"'
    assert link in text
    match = Match.objects.create(table=table, number=1)
    hand = Hand.objects.create(
        match=match, number=game.result["hand_no"], seed="s", deck=[], level="2", levels_before={}, first_seq=1
    )
    client = Client()
    client.force_login(players[0])
    response = client.get(f"/tables/{table.pk}/hands/{hand.number}/")
    assert response.status_code == 302 and response["Location"] == f"/hands/{hand.pk}/replay/"
    assert client.get(f"/tables/{table.pk}/hands/{hand.number + 1}/").status_code == 404
