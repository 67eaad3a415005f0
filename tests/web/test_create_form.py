"""The create-table form in players' words (issue #40): the pace as fast / normal / relaxed
(the milliseconds under "Advanced"), and every house rule's every value with its own
sentence of what it does, beside it, in both languages, agreeing with the engine."""

from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import translation

from games import engine, rulebook, rulesets
from games.models import Table
from games.web.forms import PACES, RULE_PREFIX
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
LANGUAGES = ("en", "zh-hans")


class FormPage(HTMLParser):
    """The radio buttons of a page (name, value, id, aria-describedby), every element's
    text by id, every label's text by its `for`, and every link inside an element by id."""

    def __init__(self, html: str):
        super().__init__()
        self.radios: list[dict] = []
        self.text_of: dict[str, str] = {}
        self.label_of: dict[str, str] = {}
        self.links_in: dict[str, list[str]] = {}
        self._open: list[tuple[str, str | None, str | None]] = []  # (tag, id, label-for)
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "input":
            if attrs.get("type") == "radio":
                self.radios.append(attrs)
            return
        if tag == "a":
            for _tag, element_id, _for in self._open:
                if element_id:
                    self.links_in.setdefault(element_id, []).append(attrs.get("href", ""))
        self._open.append((tag, attrs.get("id"), attrs.get("for") if tag == "label" else None))

    def handle_endtag(self, tag):
        while self._open:
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _tag, element_id, label_for in self._open:
            if element_id:
                self.text_of[element_id] = self.text_of.get(element_id, "") + data
            if label_for:
                self.label_of[label_for] = self.label_of.get(label_for, "") + data

    def choices(self, name: str) -> dict[str, tuple[str, str]]:
        """value → (its label, the sentence tied to its button) for the radios called `name`."""
        found = {}
        for radio in (r for r in self.radios if r["name"] == name):
            described = radio.get("aria-describedby")
            effect = " ".join(unescape(self.text_of.get(described, "")).split()) if described else ""
            found[radio["value"]] = (" ".join(self.label_of[radio["id"]].split()), effect)
        return found


def create_form(client, language: str) -> FormPage:
    client.cookies["django_language"] = language
    html = client.get(reverse("lobby")).text
    return FormPage(html.split('class="create-form"')[1].split("</form>")[0])


def choice_key(value) -> str:
    return {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rule_value_has_its_own_sentence_beside_it(client, language):
    client.force_login(make_user("mei"))
    page = create_form(client, language)
    with translation.override(language):
        for option in engine.OPTIONS:
            if option.name == "last_chance_ms":  # a number, under "Exact timing"
                continue
            shown = page.choices(RULE_PREFIX + option.name)
            keep = shown.pop("")  # keeps the chosen preset's value
            assert keep[0] and not keep[1], option.name
            expected = {
                choice_key(v): (rulesets.value_label(option.name, v), rulesets.value_effect(option.name, v))
                for v in option.values
            }
            assert shown == expected, option.name
            sentences = [effect for _label, effect in shown.values()]
            assert len(set(sentences)) == len(sentences) and all(sentences), f"{option.name}: one sentence for all"
            if language != "en":
                with translation.override("en"):
                    english = {rulesets.value_effect(option.name, v) for v in option.values}
                assert not english & set(sentences), f"{option.name}: not translated"
            # The question itself links to its section of the rules page, named in words.
            help_id = f"id_{RULE_PREFIX}{option.name}_helptext"
            assert page.links_in[help_id] == [rulebook.rule_url(option.rule)]
            assert "§" not in page.text_of[help_id] and "RULES" not in page.text_of[help_id]


def test_the_sentences_agree_with_the_engine():
    """What the engine does with each value, read back from the sentence beside it."""
    level_seven = {twos: engine.context("7", "H", twos) for twos in (True, False)}
    assert level_seven[True].is_trump("S2") and not level_seven[False].is_trump("S2")
    assert rulesets.value_effect("permanent_twos", True).startswith("Every 2 is a trump")
    off = rulesets.value_effect("permanent_twos", False)
    assert "lowest card of its own suit" in off and "Every 2 is a trump" not in off
    ctx = level_seven[True]
    for value in engine.rules.OPTION_BY_NAME["kitty_bonus"].values:
        rules = engine.Rules(kitty_bonus=value)
        single, pair = (engine.kitty_multiplier(lead, ctx, rules) for lead in (["S9"], ["S9", "S9"]))
        sentence = rulesets.value_effect("kitty_bonus", value)
        assert f"×{single}" in sentence and f"×{pair}" in sentence, value


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pace_is_chosen_in_words_and_the_milliseconds_wait_under_advanced(client, language):
    client.force_login(make_user("mei"))
    page = create_form(client, language)
    paces = page.choices("pace")
    assert list(paces) == ["fast", "normal", "relaxed", "custom"]
    labels = [label for label, _effect in paces.values()]
    english = ["Fast", "Normal", "Relaxed", "My own timing"]
    assert labels == english if language == "en" else not set(labels) & set(english)
    for name, (deal_ms, window_ms) in PACES.items():  # each pace says how long its deal takes
        effect = paces[name][1]
        assert str(round(engine.DEALT_CARDS * deal_ms / 1000)) in effect and str(window_ms // 1000) in effect
    assert len({effect for _label, effect in paces.values()}) == 4
    advanced = page.text_of.get("id_deal_pace_ms_helptext", "")
    assert advanced and "ms" not in " ".join(label for label, _e in paces.values())


def test_a_named_pace_sets_both_times_and_own_timing_keeps_the_typed_ones(client):
    client.force_login(make_user("mei"))
    form = {"name": "t", "turn_limit_s": 30, "allow_bots": "on", "deal_pace_ms": 999, "last_chance_ms": 7000}
    client.post(reverse("create_table"), {**form, "pace": "relaxed"})
    client.post(reverse("create_table"), {**form, "pace": "custom"})
    refused = client.post(reverse("create_table"), {**form, "pace": "custom", "deal_pace_ms": 5})
    assert refused.status_code == 400 and '<details class="rules-advanced" open' in refused.text
    assert list(Table.objects.order_by("pk").values_list("deal_pace_ms", "last_chance_ms")) == [
        (PACES["relaxed"][0], PACES["relaxed"][1]),
        (999, 7000),
    ]
    bad = client.post(reverse("create_table"), {**form, "pace": "slowest"})
    assert bad.status_code == 400 and Table.objects.count() == 2
