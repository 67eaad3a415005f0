"""Every card's spoken name (games/words/card_names.py), in English and Chinese, and the
replay's card faces that carry it instead of the internal code."""

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games import engine
from games.engine.cards import CODES
from games.words.card_names import card_name
from games.words.faces import card_face

HEARTS_LEVEL_2 = engine.context("2", "H")  # trump: hearts, jokers and every 2


def name(code, ctx=None, language="en"):
    with translation.override(language):
        return card_name(card_face(code, ctx))


@pytest.mark.parametrize(
    ("code", "english", "chinese"),
    [
        ("H10", "10 of hearts", "红桃10"),
        ("S2", "2 of spades", "黑桃2"),
        ("DJ", "jack of diamonds", "方块J"),
        ("CQ", "queen of clubs", "梅花Q"),
        ("SK", "king of spades", "黑桃K"),
        ("HA", "ace of hearts", "红桃A"),
        ("BJK", "big joker", "大王"),
        ("SJK", "small joker", "小王"),
    ],
)
def test_names_in_both_languages(code, english, chinese):
    assert name(code) == english
    assert name(code, language="zh-hans") == chinese


def test_a_trump_says_so():
    assert name("H10", HEARTS_LEVEL_2) == "10 of hearts, trump"
    assert name("H10", HEARTS_LEVEL_2, "zh-hans") == "红桃10，主"
    assert name("BJK", HEARTS_LEVEL_2) == "big joker, trump"
    assert name("C2", HEARTS_LEVEL_2, "zh-hans") == "梅花2，主"  # a level card of another suit
    assert name("S10", HEARTS_LEVEL_2) == "10 of spades"


def test_every_card_has_a_distinct_name_without_its_code():
    for language in ("en", "zh-hans"):
        names = {code: name(code, language=language) for code in CODES}
        assert len(set(names.values())) == len(CODES)
        assert not [code for code, spoken in names.items() if code in spoken]


def test_the_cached_name_follows_the_active_language():
    assert name("DQ") == "queen of diamonds"
    assert name("DQ", language="zh-hans") == "方块Q"
    assert name("DQ") == "queen of diamonds"


def test_history_card_is_one_named_image_with_no_code_in_sight():
    with translation.override("zh-hans"):
        html = render_to_string("games/partials/history_card.html", {"card": card_face("BJK", HEARTS_LEVEL_2)})
    assert 'role="img"' in html and 'aria-label="大王，主"' in html and 'title="大王，主"' in html
    assert 'title="BJK"' not in html and html.count("BJK") == 1  # only the data attribute scripts read
