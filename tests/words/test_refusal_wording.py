"""What a refused player reads (games/engine/errors.py, games/words/refusals.py): a sentence with
no rule numbers and no "card(s)", in the right plural form in both languages; the rule's
section travels beside it."""

import pytest
from django.utils import translation

from games.engine.errors import RULE_OF, TEMPLATES, Plural, Refusal, rule_refusal
from games.words.refusals import refusal_text

PARAMS = {"phase": "play", "count": 2, "suit": "♠", "length": 2, "standing": 3, "type": "x", "problem": "x"}


def test_no_template_carries_a_rule_number_or_a_bracketed_plural():
    for key, template in TEMPLATES.items():
        forms = template if isinstance(template, Plural) else (template,)
        for form in forms:
            assert "§" not in form and "RULES" not in form and "(s)" not in form, key


def test_rule_sections_travel_beside_the_sentence():
    refusal = rule_refusal("must_follow_suit", suit="♠")
    assert refusal.rule == "5.4" == RULE_OF["must_follow_suit"]
    assert refusal.to_json()["rule"] == "5.4"
    assert rule_refusal("unknown_action", type="x").rule is None


@pytest.mark.parametrize(
    ("count", "english", "chinese"),
    [
        (1, "Play exactly 1 card, as many as were led", "请出 1 张牌，与首家出的张数相同"),
        (5, "Play exactly 5 cards, as many as were led", "请出 5 张牌，与首家出的张数相同"),
    ],
)
def test_plural_forms_in_both_languages(count, english, chinese):
    refusal = rule_refusal("wrong_card_count", count=count)
    assert refusal.message == english
    with translation.override("en"):
        assert refusal_text(refusal) == english
    with translation.override("zh-hans"):
        assert refusal_text(refusal) == chinese


def test_every_rule_refusal_reads_well_in_chinese():
    with translation.override("zh-hans"):
        for key in TEMPLATES:
            text = refusal_text(rule_refusal(key, **PARAMS))
            assert "§" not in text and text != rule_refusal(key, **PARAMS).message, key  # translated


def test_a_site_refusal_without_plural_or_rule_is_unchanged():
    refusal = Refusal("seat_taken", "That seat is taken.")
    assert refusal.plural is None and refusal.rule is None and refusal.message == "That seat is taken."


def test_a_phase_is_named_in_words_not_by_its_code():
    from django.utils import translation

    from games.engine.errors import rule_refusal
    from games.words.refusals import refusal_text

    refusal = rule_refusal("wrong_phase", phase="bury")
    with translation.override("en"):
        assert refusal_text(refusal) == "This action is not possible now (dealer buries)"
    with translation.override("zh-hans"):
        text = refusal_text(refusal)
        assert "bury" not in text and "扣底" in text, text
