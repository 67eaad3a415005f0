"""House rules in words, for people: every option's name, one-line explanation and value
labels, the presets' names, the reasons a combination is refused, and a table's rules as
a short summary and as the full list. The rules themselves live in the engine
(games/engine/rules.py); docs/house-rules.md writes down exactly what each value does.
"""

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games import engine
from games.templatetags.rule_links import rule_link_html

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as Promise  # a lazy translation
else:
    from django.utils.functional import Promise


@dataclass(frozen=True)
class OptionText:
    label: Promise  # the option's name
    explanation: Promise  # one line: what it decides (its RULES section is the Option's `rule`, linked beside it)
    values: dict[Any, Promise]  # value -> its label (a number option: None -> its template)
    summary: dict[Any, Promise]  # value -> the words in a table's summary (non-default values)


# What each value does, in players' words (the create-table form shows each beside its
# value). Written from docs/house-rules.md and checked against the engine's meaning.
EFFECTS: dict[str, dict[Any, Promise]] = {
    "permanent_twos": {
        True: _("Every 2 is a trump, just below the level cards."),
        False: _("A 2 is the lowest card of its own suit; only jokers, level cards and the trump suit are trumps."),
    },
    "no_declaration": {
        "flip": _("The kitty's 4th card is turned up: its suit is trump, a joker means no-trump."),
        "redeal": _("The same dealer deals the hand again; after 3 redeals the kitty's 4th card is turned up."),
        "no_trump": _("The hand is played with no trump suit; jokers and level cards are still trumps."),
    },
    "overrides": {
        "strength": _("A stronger declaration overrides; only the declarer may reinforce their own."),
        "partner_reinforce": _("As by strength, and the declarer's partner may reinforce it with the same card too."),
        "no_joker_override": _("A joker pair only declares no-trump while nothing stands; it never overrides."),
    },
    "first_dealer": {
        "final_declarer": _("The player whose declaration stands at the end of the deal deals the first hand."),
        "first_declarer": _("The first player to declare deals the first hand, even if someone overrides later."),
    },
    "throw_penalty": {
        "components": _("The thrower's side pays 10 points for every card of each part another player could beat."),
        "none": _("No penalty: the throw is simply cut down to the part that must be played."),
        "per_card_back": _("The thrower's side pays 10 points for every card taken back into the hand."),
    },
    "kitty_bonus": {
        "power": _("Doubled for each card of the last lead's longest part: a single ×2, a pair ×4, at most ×64."),
        "by_pairs": _("Singles ×2, one pair ×4, and doubled again for every further pair in the last lead, no limit."),
        "double": _("Always ×2, whatever the last trick was."),
    },
    "level_steps": {
        "standard": _("The dealers climb up to 3 levels; the defenders take over at 80 and climb 1 more per 40."),
        "gentle": _(
            "Smaller jumps: the dealers climb at most 2 levels; the defenders take over at 80, climb 1 level at "
            "120 and 1 more per further 80."
        ),
    },
    "must_play": {
        "a": _("A climb of several levels stops at A, and a hand must be won at A."),
        "5_10_k": _("A climb stops at 5, 10, K and A: each of them must be played."),
        "none": _("No level must be played: a team that climbs past A wins the match."),
    },
    "match_end": {
        "pass_a": _("A team at A wins the match by winning a hand, as dealers or as defenders."),
        "dealer_at_a": _("A team at A wins the match only as dealers; as defenders it takes over the deal."),
    },
}


TEXTS: dict[str, OptionText] = {
    "permanent_twos": OptionText(
        _("2s are permanent trumps"),
        _("Whether every 2 is a trump, just below the level cards, or an ordinary card of its suit."),
        {True: _("on (常主)"), False: _("off: 2s are ordinary cards")},
        {True: _("2s are trump"), False: _("2s are ordinary cards")},
    ),
    "no_declaration": OptionText(
        _("Nobody declared"),
        _("What happens when nobody has declared trump by the end of the deal."),
        {
            "flip": _("turn up the kitty's 4th card"),
            "redeal": _("deal the hand again"),
            "no_trump": _("play no-trump"),
        },
        {
            "flip": _("kitty card sets trump if nobody declares"),
            "redeal": _("redeal if nobody declares"),
            "no_trump": _("no-trump if nobody declares"),
        },
    ),
    "overrides": OptionText(
        _("Declarations"),
        _("Which declarations override or reinforce the standing one."),
        {
            "strength": _("by strength"),
            "partner_reinforce": _("the partner may also reinforce (对家保)"),
            "no_joker_override": _("joker pairs only declare no-trump, never override"),
        },
        {
            "strength": _("stronger declarations override"),
            "partner_reinforce": _("partner may reinforce"),
            "no_joker_override": _("joker pairs never override"),
        },
    ),
    "first_dealer": OptionText(
        _("First hand's dealer"),
        _("Who deals the first hand of a match."),
        {"final_declarer": _("the final declarer"), "first_declarer": _("the first declarer (抢庄)")},
        {"final_declarer": _("final declarer deals first"), "first_declarer": _("first declarer deals first")},
    ),
    "throw_penalty": OptionText(
        _("Failed-throw penalty"),
        _("What a throw that does not stand costs."),
        {
            "components": _("10 a card of each beatable part"),
            "none": _("none"),
            "per_card_back": _("10 per card taken back"),
        },
        {
            "components": _("failed throws cost 10 a beatable card"),
            "none": _("no throw penalty"),
            "per_card_back": _("failed throws cost 10 a card taken back"),
        },
    ),
    "kitty_bonus": OptionText(
        _("Kitty bonus"),
        _("How the kitty's points multiply when the defenders win the last trick."),
        {
            "power": _("doubles per card, up to ×64"),
            "by_pairs": _("doubles per pair, no limit"),
            "double": _("always ×2"),
        },
        {
            "power": _("kitty ×2 to ×64"),
            "by_pairs": _("kitty doubles per pair"),
            "double": _("kitty ×2"),
        },
    ),
    "level_steps": OptionText(
        _("Level steps"),
        _("How many levels a hand is worth for the defenders' points."),
        {
            "standard": _("standard: dealers climb up to 3"),
            "gentle": _("gentler: dealers climb up to 2"),
        },
        {"standard": _("standard level steps"), "gentle": _("gentle level steps")},
    ),
    "must_play": OptionText(
        _("Must-play levels"),
        _("Levels a team cannot skip when it climbs several at once."),
        {
            "a": _("A must be played"),
            "5_10_k": _("5, 10, K and A must be played"),
            "none": _("none: climbing past A wins"),
        },
        {"a": _("A must be played"), "5_10_k": _("5, 10 and K must be played"), "none": _("climbing past A wins")},
    ),
    "last_chance_ms": OptionText(
        _("Last-chance window"),
        _("Time to declare after the last card is dealt; 0 fixes trump at once."),
        {None: _("%(ms)s ms")},
        {None: _("%(ms)s ms to declare after the deal")},
    ),
    "match_end": OptionText(
        _("How a match ends"),
        _("What a team at A must do to win the match."),
        {"pass_a": _("win a hand at A, as dealer or defenders"), "dealer_at_a": _("win a hand at A as dealer")},
        {"pass_a": _("win a hand at A to win"), "dealer_at_a": _("win at A as dealer to win")},
    ),
}
assert list(TEXTS) == [o.name for o in engine.OPTIONS]
assert all(set(EFFECTS[o.name]) == set(o.values) for o in engine.OPTIONS if o.name != "last_chance_ms")


def value_effect(name: str, value: Any) -> str:
    """What choosing `value` of option `name` does, in one sentence."""
    return str(EFFECTS[name][value])


PRESET_NAMES: dict[str, Promise] = {
    "standard": _("Standard (the rulebook)"),
    "qq": _("QQ 升级 style"),
    "classic": _("Classic: no permanent 2s"),
    "casual": _("Casual"),
    engine.CUSTOM: _("Custom"),
}

CONFLICTS: dict[str, Promise] = {
    "must_play_none_vs_dealer_at_a": _(
        "“Climbing past A wins” ends a match without playing A, but “win at A as dealer” asks for a hand "
        "at A: choose one of them."
    ),
}


def value_label(name: str, value: Any) -> str:
    text = TEXTS[name]
    if name == "last_chance_ms":
        return str(text.values[None]) % {"ms": value}
    return str(text.values[value])


def _summary_words(name: str, value: Any) -> str:
    text = TEXTS[name]
    if name == "last_chance_ms":
        return str(text.summary[None]) % {"ms": value}
    return str(text.summary[value])


def summary(rules: engine.Rules) -> list[str]:
    """The table's rules in a few words: the 2s, what happens when nobody declares, and
    every other option that differs from the rulebook ("2s are trump · redeal if …")."""
    words = [_summary_words("permanent_twos", rules.permanent_twos)]
    words.append(_summary_words("no_declaration", rules.no_declaration))
    for name in rules.differences():
        if name not in ("permanent_twos", "no_declaration"):
            words.append(_summary_words(name, getattr(rules, name)))
    return words


def full_list(rules: engine.Rules) -> list[dict[str, Any]]:
    """Every option with the table's value: label, value label, explanation, rule, changed."""
    return [
        {
            "name": o.name,
            "label": str(TEXTS[o.name].label),
            "value": value_label(o.name, getattr(rules, o.name)),
            "explanation": str(TEXTS[o.name].explanation),
            "rule": o.rule,
            "changed": getattr(rules, o.name) != o.default,
        }
        for o in engine.OPTIONS
    ]


def option_help(name: str) -> SafeString:
    """An option's explanation and the link to the rules page's section it changes: the
    create-table form's help text (made in the reader's language, as the form is)."""
    return format_html("{} {}", TEXTS[name].explanation, rule_link_html(engine.rules.OPTION_BY_NAME[name].rule))


def preset_label(rules: engine.Rules) -> str:
    return str(PRESET_NAMES[engine.preset_of(rules)])


def rateable_names() -> str:
    """The rateable presets' names, in the active language: "Standard · QQ · Classic"."""
    return " · ".join(str(PRESET_NAMES[name]) for name in engine.PRESETS if name in engine.RATEABLE)


def unrateable_reason(rules: engine.Rules) -> str:
    """Why a rated table cannot play `rules` (a custom set or a preset not rateable)."""
    names = rateable_names()
    message = _(
        "Only these rules can be rated: %(rateable)s. “%(preset)s” makes a casual table: "
        "untick “Rated” or choose one of them."
    )
    return str(message) % {"rateable": names, "preset": preset_label(rules)}


def conflict_reasons(rules: engine.Rules) -> list[str]:
    return [str(CONFLICTS[code]) for code in engine.conflicts(rules)]


def rules_of_table(table) -> engine.Rules:
    """The rules a table plays: its running (or last) match's, from the engine state;
    before any match, the ones its next match will start with."""
    state = table.state
    if state is not None:
        return engine.Rules.from_json(state.get("rules"))
    return table.game_rules()


def described(rules: engine.Rules) -> dict[str, Any]:
    """What the rules partial shows: the preset's name, the summary and the full list.
    Shared, read-only: the lobby renders one per table on every change, so the words are
    worked out once per ruleset and language."""
    return _described(rules, get_language())


@lru_cache(maxsize=512)
def _described(rules: engine.Rules, language: str | None) -> dict[str, Any]:
    return {"preset": preset_label(rules), "summary": summary(rules), "full": full_list(rules)}
