"""Refusal: every refusal of the engine (and of the site), with a stable code and a translatable message.

Templates are wrapped in gettext_noop so `makemessages` collects them; the web layer
translates the template and then formats the params. Messages never mention another
seat's cards, the kitty or the undealt deck (RULES §9).
"""


def gettext_noop(s: str) -> str:
    # Marker only: xgettext collects the literal, translation happens in the web layer.
    return s


TEMPLATES = {
    "wrong_phase": gettext_noop("This action is not possible in the {phase} phase"),
    "not_your_turn": gettext_noop("It is not your turn (RULES §5.2)"),
    "cards_not_in_hand": gettext_noop("You do not hold all of these cards"),
    "wrong_card_count": gettext_noop("Play exactly {count} card(s), as many as were led (RULES §5.4)"),
    "empty_play": gettext_noop("Choose at least one card to play (RULES §5.2)"),
    "mixed_lead": gettext_noop("A lead must come from one suit-class: all trumps or one non-trump suit (RULES §5.2)"),
    "must_follow_suit": gettext_noop("You still hold {suit} cards: you must follow {suit} (RULES §5.4)"),
    "must_follow_trump": gettext_noop("You still hold trumps: you must follow with trumps (RULES §5.4)"),
    "must_play_all_suit": gettext_noop("You must play all your {suit} cards before other cards (RULES §5.4)"),
    "must_play_all_trump": gettext_noop("You must play all your trumps before other cards (RULES §5.4)"),
    "must_play_pairs": gettext_noop("You hold pairs in the led suit: play {count} pair(s) of it (RULES §5.4)"),
    "must_play_tractor": gettext_noop(
        "You hold a tractor in the led suit: play a tractor of {length} pairs (RULES §5.4)"
    ),
    "declaration_too_weak": gettext_noop(
        "A declaration must be stronger than the standing one (strength {standing}) (RULES §3.2)"
    ),
    "not_a_declaration": gettext_noop(
        "Declare with one level card, two identical level cards, two small jokers or two big jokers (RULES §3.1)"
    ),
    "not_dealer": gettext_noop("Only the dealer buries the kitty (RULES §4.1)"),
    "bury_needs_8": gettext_noop("Bury exactly 8 cards (RULES §4.1)"),
    "unknown_action": gettext_noop("Unknown action {type}"),
    "bad_action": gettext_noop("Malformed action: {problem}"),
    "match_over": gettext_noop("The match is over"),
    "bad_rules": gettext_noop("Unknown rules: {problem}"),
    "joker_pair_no_override": gettext_noop(
        "At this table a joker pair declares no-trump only while nothing has been declared (house rule, RULES §3.2)"
    ),
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
    that the web layer translates into its reader's language, then fills with `params`."""

    def __init__(self, code: str, template: str, **params: object) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.message = template.format(**params)
        super().__init__(self.message)

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "template": self.template, "params": dict(self.params), "message": self.message}

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"


def rule_refusal(key: str, **params: object) -> Refusal:
    """The engine's refusal named by its TEMPLATES key."""
    return Refusal(CODE_OF.get(key, key), TEMPLATES[key], **params)
