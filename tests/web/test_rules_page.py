"""The rules page (/rules/) and the glossary, server side: every section of games/rulebook.py
and every glossary word on the page in both languages, the pictures' claims checked against
the engine, and the `{% term %}` tag's markup."""

import re
from html import unescape
from itertools import pairwise
from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from games import engine
from games.glossary import TERMS
from games.rulebook import ANCHORS, term_url
from games.templatetags.glossary import term_html
from games.web.rules_views import GLOSSARY, TITLES

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "zh-hans")
SECTION_TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games" / "rules"
# The words the issue names; more may be added, none of these removed.
REQUIRED_TERMS = {
    *("declare", "override", "reinforce", "dealer", "defenders", "partner", "level", "level-card", "trump"),
    *("trump-suit", "no-trump", "permanent-trumps", "kitty", "bury", "kitty-bonus", "single", "pair"),
    *("tractor", "throw", "follow", "ruff", "discard", "point-cards", "trick", "hand", "match", "last-chance"),
}
EXAMPLE = re.compile(
    r'<span class="rules-cards" data-cards="([^"]*)" data-level="([^"]*)" data-trump="([^"]*)" data-shape="([^"]*)">'
)


def rules_html(client, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_section_of_the_rulebook_is_on_the_page_once_for_a_visitor(client, language):
    html = rules_html(client, language)
    assert f'<html lang="{language}">' in html
    for anchor in ANCHORS:
        assert html.count(f'id="{anchor}"') == 1, anchor
        assert html.count(f'<a href="#{anchor}">') >= 1, f"the contents link to {anchor}"
    # Every link inside the page lands on something that is there.
    for target in set(re.findall(r'href="#([^"]+)"', html)):
        assert f'id="{target}"' in html, target


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_glossary_word_has_its_entry_with_both_words(client, language):
    html = rules_html(client, language)
    for key, term in TERMS.items():
        entry = re.search(rf'<dt id="term-{key}">(.*?)</dt>\s*<dd>(.*?)</dd>', html, re.S)
        assert entry, key
        words, definition = unescape(entry[1]), unescape(entry[2])
        assert term.english in words and all(word in words for word in term.chinese), key
        with translation.override(language):
            assert str(term.definition) in definition, key


def test_the_glossary_has_the_issue_s_words_each_placed_in_a_section():
    assert not REQUIRED_TERMS - set(TERMS)
    for key, term in TERMS.items():
        assert term.english and term.chinese and str(term.definition), key
        assert term.anchor in ANCHORS, key


def test_every_definition_is_translated():
    for key, term in TERMS.items():
        with translation.override("zh-hans"):
            chinese = str(term.definition)
        with translation.override("en"):
            english = str(term.definition)
        assert chinese != english and re.search(r"[\u4e00-\u9fff]", chinese), key


def test_each_language_writes_every_section_and_no_other():
    expected = {f"{anchor}.html" for anchor in ANCHORS if anchor != GLOSSARY}
    for language in ("en", "zh_hans"):
        assert {path.name for path in (SECTION_TEMPLATES / language).glob("*.html")} == expected, language
    assert set(TITLES) == set(ANCHORS)


@pytest.mark.parametrize("language", LANGUAGES)
def test_what_the_pictures_claim_is_what_the_engine_plays(client, language):
    """Each card picture that says what it shows (data-shape) is that shape for the engine
    (RULES §5.1), in the level and trump the picture names."""
    examples = EXAMPLE.findall(rules_html(client, language))
    claims = [(cards, level, trump, shape) for cards, level, trump, shape in examples if shape]
    assert len(claims) >= 15 and any(shape == "tractor" for *_, shape in claims)
    for cards, level, trump, shape in claims:
        assert engine.shape_of(cards.split(), engine.context(level, trump))["shape"] == shape, (cards, level, trump)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_level_table_is_the_engine_s(client, language):
    html = rules_html(client, language)
    rows = [(int(low), int(high)) for low, high in re.findall(r'<tr data-low="(\d+)" data-high="(\d+)">', html)]
    assert rows[:4] == [(0, 0), (1, 39), (40, 79), (80, 119)] and rows[-1] == (200, 239)
    for (_low, high), (next_low, _high) in pairwise(rows):
        assert next_low == high + 1  # no score left out
    cell = re.search(r'<tr data-low="1" data-high="39">(.*?)</tr>', html, re.S)[1]
    assert engine.level_change(25) == ("dealer", 2)
    assert (
        "dealers deal again, <strong>+2</strong>" if language == "en" else "庄家继续坐庄，升 <strong>2</strong> 级"
    ) in cell


def test_the_trump_order_picture_follows_the_engine(client):
    html = rules_html(client, "en")
    order = re.search(r'<span class="rules-order" data-level="7" data-trump="H">(.*?)</span>\s*</p>', html, re.S)[1]
    shown = re.findall(r'data-card="([A-Z0-9]+)"', order)
    ctx = engine.context("7", "H")
    assert shown[:3] == ["BJK", "SJK", "H7"] and shown[-1] == "H3"
    assert shown == ctx.sort(shown) and len(shown) == len(set(shown)) == sum(map(ctx.is_trump, engine.CODES))


def test_the_rules_page_is_in_the_menu_and_the_footer(client):
    html = rules_html(client, "en")
    assert f'<a href="{reverse("rules")}" aria-current="page">Rules</a>' in html
    assert html.count(f'href="{reverse("rules")}"') == 2
    assert '<a href="/rules/" aria-current="page">规则</a>' in rules_html(client, "zh-hans")


def test_a_term_links_to_its_entry_and_carries_its_definition():
    html = term_html("kitty")
    tip_id = re.search(r'aria-describedby="([^"]+)"', html)[1]
    assert f'<a class="term" href="{term_url("kitty")}" data-term="kitty" aria-describedby="{tip_id}">kitty</a>' in html
    assert f'<span class="term-tip" role="tooltip" id="{tip_id}">' in html
    assert str(TERMS["kitty"].definition) in unescape(html) and term_url("kitty") == "/rules/#term-kitty"
    assert tip_id != re.search(r'aria-describedby="([^"]+)"', term_html("kitty"))[1]  # one id per use
    with translation.override("zh-hans"):
        chinese, definition = term_html("kitty"), str(TERMS["kitty"].definition)
    assert ">底牌</a>" in chinese and "牌堆最后的 8 张" in definition and definition in unescape(chinese)


def test_a_term_escapes_its_text_and_refuses_an_unknown_word():
    html = term_html("bury", '<img src=x onerror="alert(1)">')
    assert "<img" not in html and 'onerror="' not in html
    assert unescape(html).count('<img src=x onerror="alert(1)">') == 1  # shown as text
    with pytest.raises(KeyError):
        term_html("kity")


def test_the_term_tag_in_a_template():
    html = Template('{% load glossary %}The dealer {% term "bury" "buries" %} eight.').render(Context())
    assert html.startswith('The dealer <span class="term-wrap"><a class="term" href="/rules/#term-bury"')
    assert ">buries</a>" in html and html.endswith("</span></span> eight.")
