"""Every rule reference a player meets links to the section of the rules page (`/rules/`)
that explains it, in words, and no page shows a bare "§5.4" (games/rulebook.py,
games/templatetags/rule_links.py).

The references are collected, not listed by hand: the engine's refusals (RULE_OF) and
house-rule options, every section cited in the templates and in games/ code, and every
link to the rules page in the pages players see — a table's refusal and throw verdicts,
the create-table form, the rules lists of the lobby, the table and the match page — in
both languages. A refused play over the table's socket carries the same link.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import engine, rulebook
from games.engine.errors import RULE_OF
from games.models import Match, Table
from games.runtime import writer
from games.runtime.commands import Issuer
from games.templatetags.rule_links import LINK_WORDS, rule_link_words
from games.web import rendering
from tests.conftest import make_table, ws_client
from tests.table_driver import drive, play_until

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "zh-hans")
SECTION = r"\d+(?:\.\d+)*"
# A section cited in a source: "§5.4" (comments, docstrings), {% rule_link "5.3" %},
# rule_link_html("5.3"), rule="5.3" (a refusal or a template's `with`), "rule": "5.3".
CITATIONS = (
    re.compile(rf"§\s*({SECTION})"),
    re.compile(rf"""rule_(?:link|link_html|link_words|url|anchor)\s*\(?\s*["']§?({SECTION})["']"""),
    re.compile(rf"""\brule["']?\s*[=:]\s*["']§?({SECTION})["']"""),
)
RULES_LINK = re.compile(r"^/rules/#([\w-]+)$")
# What a player must never read: a section number instead of words.
BARE = re.compile(rf"§|RULES\s*{SECTION}|Rulebook section|规则第\s*{SECTION}")


def _sources() -> list[Path]:
    """The templates and the site's Python: everything that may put words on a player's page."""
    templates = sorted((ROOT / "templates").rglob("*.html"))
    python = sorted(p for p in (ROOT / "games").rglob("*.py") if "migrations" not in p.parts)
    return templates + python


def cited_sections() -> dict[str, set[str]]:
    """Every RULES section cited in the sources, with the files citing it."""
    found: dict[str, set[str]] = {}
    for path in _sources():
        source = path.read_text()
        for pattern in CITATIONS:
            for section in pattern.findall(source):
                found.setdefault(section, set()).add(str(path.relative_to(ROOT)))
    return found


class PageText(HTMLParser):
    """A page as a player meets it: its text and attribute values (an href is an address,
    not text), the anchors of its links to the rules page's sections and the glossary words
    it links (`term-<key>` anchors of the same page)."""

    def __init__(self, html: str):
        super().__init__()
        self.texts: list[str] = []
        self.anchors: list[str] = []
        self.terms: list[str] = []
        self.ids: set[str] = set()
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "href":
                match = RULES_LINK.match(value or "")
                if match and match.group(1).startswith("term-"):
                    self.terms.append(match.group(1).removeprefix("term-"))
                elif match:
                    self.anchors.append(match.group(1))
            elif name == "id":
                self.ids.add(value or "")
            elif value:
                self.texts.append(value)

    def handle_data(self, data):
        self.texts.append(data)

    def bare_references(self) -> list[str]:
        return [text.strip() for text in self.texts if BARE.search(text)]


def rules_page_ids(language: str) -> set[str]:
    client = Client()
    client.cookies["django_language"] = language
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return PageText(response.text).ids


def assert_links_resolve(pages: dict[str, str], language: str) -> set[str]:
    """Each page's rules links point at sections the rules page has, and no page shows a
    bare section number. The anchors linked, all pages together."""
    ids = rules_page_ids(language)
    linked: set[str] = set()
    for name, html in pages.items():
        page = PageText(html)
        assert not page.bare_references(), f"{name} ({language}) shows {page.bare_references()[:3]}"
        assert set(page.anchors) <= ids, f"{name} ({language}) links to missing sections {set(page.anchors) - ids}"
        missing = {f"term-{key}" for key in page.terms} - ids
        assert not missing, f"{name} ({language}) links to missing glossary words {missing}"
        linked |= set(page.anchors)
    return linked


# --- the references in the code ------------------------------------------------------


def test_every_section_of_the_rules_page_has_link_words_in_both_languages():
    assert set(LINK_WORDS) == set(rulebook.ANCHORS)
    for language, prefix in (("en", "rules: "), ("zh-hans", "规则：")):
        with translation.override(language):
            words = {rule_link_words(sections[0]) for _anchor, sections in rulebook.SECTIONS}
        assert all(w.startswith(prefix) for w in words) and len(words) == len(rulebook.ANCHORS), words
    with translation.override("zh-hans"):
        assert rule_link_words("5.4") == "规则：跟牌"


@pytest.mark.django_db
def test_every_cited_section_resolves_to_a_section_of_the_rules_page_in_both_languages():
    cited = cited_sections()
    # The scan reads templates as well as code: the throw verdict cites its rule by number.
    assert "templates/games/partials/selection.html" in cited.get("5.3", set())
    sections = set(cited) | set(RULE_OF.values()) | {o.rule.lstrip("§") for o in engine.OPTIONS}
    for language in LANGUAGES:
        ids = rules_page_ids(language)
        for section in sorted(sections):
            anchor = rulebook.rule_anchor(section)
            assert anchor in ids, f"RULES §{section} ({cited.get(section)}) → #{anchor}: no such section ({language})"


# --- the references on the pages --------------------------------------------------------


def _verdicts(game: engine.Game) -> dict[str, str]:
    """The verdict under the hand, as the table's socket renders it, for a refusal of the
    rules (a play out of turn) and for a throw (legal to try, checked when played)."""
    mover = game.turn
    waiting = (mover + 1) % 4
    verdicts = {"refusal": rendering.render_selection(engine.classify(game, waiting, game.hands[waiting][:1]))}
    ctx = game.play_context()
    by_suit: dict[str, list[str]] = {}
    for card in dict.fromkeys(game.hands[mover]):  # one of each: singles of one suit-class
        by_suit.setdefault(ctx.suit_class(card), []).append(card)
    for cards in by_suit.values():
        throw = engine.classify(game, mover, cards[:1] + cards[-1:])
        if len(cards) >= 2 and throw["shape"] == "throw" and throw["legal"]:
            verdicts["throw"] = rendering.render_selection(throw)
            break
    return verdicts


@pytest.mark.django_db
def test_the_pages_players_see_link_every_rule_they_cite(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 60_000
    listed = make_table(players[0], rules=engine.preset_rules("qq").differences())  # a lobby card
    table = make_table(players[0], players=players, rules={"level_steps": "gentle"})
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, issuer=Issuer.SYSTEM)
    table, game = drive(table.pk, dict(enumerate(players)), lambda g: g.phase == "play" and not g.trick)
    assert game.turn is not None and game.phase == "play"
    match = Match.objects.get(table=table)
    options = {rulebook.rule_anchor(o.rule) for o in engine.OPTIONS}

    for language in LANGUAGES:
        client = Client()
        client.force_login(players[game.turn])
        client.cookies["django_language"] = language
        pages = {
            "lobby": client.get(reverse("lobby")).text,
            "table": client.get(reverse("table", args=[table.pk])).text,
            "match": client.get(reverse("match_detail", args=[match.pk])).text,
        }
        assert f'data-table="{listed.pk}"' in pages["lobby"]
        with translation.override(language):
            verdicts = _verdicts(game)
        pages.update(verdicts)
        linked = assert_links_resolve(pages, language)
        assert options <= linked
        for name in ("lobby", "table", "match"):  # every house rule, with its section, on each
            assert options <= set(PageText(pages[name]).anchors), name
        form = pages["lobby"].split('data-testid="rules-advanced"')[1].split("</details>")[0]
        anchors_in_form = set(PageText(form).anchors)
        assert {rulebook.rule_anchor(o.rule) for o in engine.OPTIONS if o.name != "last_chance_ms"} <= anchors_in_form
        refusal = PageText(verdicts["refusal"])
        assert refusal.anchors == [rulebook.rule_anchor(RULE_OF["not_your_turn"])]
        with translation.override(language):
            assert rule_link_words(RULE_OF["not_your_turn"]) in verdicts["refusal"]
        throw = PageText(verdicts["throw"])
        assert throw.anchors == ["throws"] and throw.terms == ["throw"]  # the word explains itself too


def test_the_option_help_describes_the_choice_not_one_value():
    from games import rulesets

    twos = rulesets.TEXTS["permanent_twos"]  # on: every 2 is a trump; off: an ordinary card
    assert "trump" in str(twos.explanation) and "ordinary card" in str(twos.explanation)
    for name, text in rulesets.TEXTS.items():
        english = [str(text.explanation), *map(str, text.values.values())]
        with translation.override("zh-hans"):
            chinese = [str(text.explanation), *map(str, text.values.values())]
        assert not any(BARE.search(words) for words in english + chinese), name
        assert chinese[0] != english[0], f"{name}: the explanation has no Chinese translation"


# --- the table's socket -----------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_refused_play_carries_the_link_to_its_rule(players, fast_clock):
    from accounts.services import profile_set_language

    table = await sync_to_async(make_table)(players[0], players=players)
    clients = [await ws_client(f"/ws/table/{table.pk}/", user) for user in players]
    await clients[0].send({"action": "start_match", "version": table.version})
    table, game = await play_until(clients, table.pk, lambda g: g.phase == "play" and not g.trick)
    waiting = (game.turn + 1) % 4
    await sync_to_async(profile_set_language)(user=players[waiting], language="zh-hans")
    chinese = await ws_client(f"/ws/table/{table.pk}/", players[waiting])
    for client in (clients[waiting], chinese):
        await client.drain()
        await client.send({"action": "play", "cards": game.hands[waiting][:1], "version": table.version})
        refusal = await client.receive_until(lambda m: m["type"] == "error")
        assert refusal["code"] == "not_your_turn" and refusal["rule"] == RULE_OF["not_your_turn"]
        assert refusal["rule_url"] == rulebook.rule_url(refusal["rule"]) == "/rules/#leading"
        assert not BARE.search(refusal["message"]) and not BARE.search(refusal["rule_text"])
    assert refusal["rule_text"] == "规则：首家出牌"
    with translation.override("en"):
        assert rule_link_words("5.2") == "rules: leading a trick"
    assert clients[waiting].received[-1]["rule_text"] == "rules: leading a trick"
    # The verdict under the hand, pushed over the same socket, links to the same section.
    await chinese.send({"action": "classify", "cards": game.hands[waiting][:1]})
    verdict = await chinese.receive_until(lambda m: m["type"] == "selection")
    assert PageText(verdict["html"]).anchors == ["leading"] and "规则：首家出牌" in verdict["html"]
    assert await sync_to_async(Table.objects.filter(pk=table.pk, version=table.version).exists)()
    for client in clients + [chinese]:
        await client.close()
