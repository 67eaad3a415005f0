"""Refusal: every refusal of the engine (and of the site), with a stable code and a translatable message.

Templates are wrapped in gettext_noop so `makemessages` collects them; the web layer
translates the template and then formats the params. Messages never mention another
seat's cards, the kitty or the undealt deck (RULES §9).
"""

from typing import NamedTuple


def gettext_noop(s: str) -> str:
    # Marker only: xgettext collects the literal, translation happens in the web layer.
    return s


class Plural(NamedTuple):
    singular: str
    plural: str


def ngettext(singular: str, plural: str) -> Plural:
    # Marker only, like gettext_noop: xgettext collects both forms (its `ngettext:1,2`
    # keyword); the web layer picks the form for the refusal's `count` with Django's ngettext.
    return Plural(singular, plural)


# Sentences a player reads: no rule numbers in them (RULE_OF below carries the section,
# which the web layer may show as a small reference), plurals in both forms.
TEMPLATES: dict[str, str | Plural] = {
    "wrong_phase": gettext_noop("This action is not possible now ({phase})"),
    "not_your_turn": gettext_noop("It is not your turn"),
    "cards_not_in_hand": gettext_noop("You do not hold all of these cards"),
    "wrong_card_count": ngettext(
        "Play exactly {count} card, as many as were led", "Play exactly {count} cards, as many as were led"
    ),
    "empty_play": gettext_noop("Choose at least one card to play"),
    "mixed_lead": gettext_noop("A lead must come from one suit-class: all trumps or one non-trump suit"),
    "must_follow_suit": gettext_noop("You still hold {suit} cards: you must follow {suit}"),
    "must_follow_trump": gettext_noop("You still hold trumps: you must follow with trumps"),
    "must_play_all_suit": gettext_noop("You must play all your {suit} cards before other cards"),
    "must_play_all_trump": gettext_noop("You must play all your trumps before other cards"),
    "must_play_pairs": ngettext(
        "You hold pairs in the led suit: play {count} pair of it",
        "You hold pairs in the led suit: play {count} pairs of it",
    ),
    "must_play_tractor": gettext_noop("You hold a tractor in the led suit: play a tractor of {length} pairs"),
    "declaration_too_weak": gettext_noop("A declaration must be stronger than the standing one (strength {standing})"),
    "not_a_declaration": gettext_noop(
        "Declare with one level card, two identical level cards, two small jokers or two big jokers"
    ),
    "not_dealer": gettext_noop("Only the dealer buries the kitty"),
    "bury_needs_8": gettext_noop("Bury exactly 8 cards"),
    "unknown_action": gettext_noop("Unknown action {type}"),
    "bad_action": gettext_noop("Malformed action: {problem}"),
    "match_over": gettext_noop("The match is over"),
    "bad_rules": gettext_noop("Unknown rules: {problem}"),
    "joker_pair_no_override": gettext_noop(
        "At this table a joker pair declares no-trump only while nothing has been declared (a house rule)"
    ),
}

# The section of RULES.md each refusal applies.
RULE_OF = {
    "joker_pair_no_override": "3.2",
    "not_your_turn": "5.2",
    "wrong_card_count": "5.4",
    "empty_play": "5.2",
    "mixed_lead": "5.2",
    "must_follow_suit": "5.4",
    "must_follow_trump": "5.4",
    "must_play_all_suit": "5.4",
    "must_play_all_trump": "5.4",
    "must_play_pairs": "5.4",
    "must_play_tractor": "5.4",
    "declaration_too_weak": "3.2",
    "not_a_declaration": "3.1",
    "not_dealer": "4.1",
    "bury_needs_8": "4.1",
}

# Some refusals share a machine code but read better with their own sentence.
CODE_OF = {
    "must_follow_trump": "must_follow_suit",
    "must_play_all_suit": "must_follow_suit",
    "must_play_all_trump": "must_follow_suit",
    "empty_play": "wrong_card_count",
    "match_over": "wrong_phase",
    "joker_pair_no_override": "declaration_too_weak",
}


class Refusal(Exception):
    """The one refusal of the whole site (the engine, the write path, chat, moderation):
    nothing changed. `code` is stable; `template` is a translatable sentence (gettext_noop)
    that the web layer translates into its reader's language, then fills with `params`.
    Given a Plural, `plural` keeps its other form and `params["count"]` chooses between them.
    `rule` is the section of the rules a refusal of the engine applies ("5.4"), kept out of
    the sentence."""

    def __init__(self, code: str, template: str | Plural, **params: object) -> None:
        self.code = code
        self.template = template.singular if isinstance(template, Plural) else template
        self.plural: str | None = template.plural if isinstance(template, Plural) else None
        self.rule: str | None = None
        self.params = params
        english = self.plural if self.plural is not None and params.get("count") != 1 else self.template
        self.message = english.format(**params)
        super().__init__(self.message)

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "template": self.template,
            "plural": self.plural,
            "rule": self.rule,
            "params": dict(self.params),
            "message": self.message,
        }

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"


def rule_refusal(key: str, **params: object) -> Refusal:
    """The engine's refusal named by its TEMPLATES key, with the rule it applies."""
    refusal = Refusal(CODE_OF.get(key, key), TEMPLATES[key], **params)
    refusal.rule = RULE_OF.get(key)
    return refusal
