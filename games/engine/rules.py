"""Rules: the table's ruleset as one immutable value that every rule consults.

The default `Rules()` is exactly ../shared/RULES.md. Each option names the RULES section
it changes; docs/house-rules.md writes down what every value does. A Game carries its
Rules and serialises them with the state (versioned), so a replay needs nothing else.
Labels and explanations for people live outside the engine (games/rulesets.py).
"""

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import rule_refusal

RULES_VERSION = 1
LAST_CHANCE_MAX_MS = 600_000  # what a stored table may hold; the create form offers 0-10 s


@dataclass(frozen=True, slots=True)
class Rules:
    """One ruleset. Every field is an option of OPTIONS; the defaults are RULES.md."""

    permanent_twos: bool = True  # RULES §2.2 (decision V2)
    no_declaration: str = "flip"  # RULES §3.4 (decision V3)
    overrides: str = "strength"  # RULES §3.2
    first_dealer: str = "final_declarer"  # RULES §3.5
    throw_penalty: str = "components"  # RULES §5.3 (decision V4)
    kitty_bonus: str = "power"  # RULES §6.1 (decision V6)
    level_steps: str = "standard"  # RULES §7.2
    must_play: str = "a"  # RULES §8.1
    last_chance_ms: int = 2000  # RULES §3.4 [choice]
    match_end: str = "pass_a"  # RULES §8.4

    def to_json(self) -> dict[str, Any]:
        return {"version": RULES_VERSION, **asdict(self)}

    def shared_json(self) -> dict[str, Any]:
        """`to_json`, made once per ruleset and shared: like a snapshot (Game.snapshot), it
        must never be changed in place. Every stored state carries its rules, and the server
        stores one per action."""
        made = _SHARED_JSON.get(self)
        if made is None:
            made = _SHARED_JSON[self] = self.to_json()
        return made

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> "Rules":
        """Rules from their JSON (absent: the default). Unknown options or values raise
        a Refusal, so a stored or submitted ruleset is never half understood."""
        if not data:
            return DEFAULT_RULES
        if not isinstance(data, Mapping):
            raise rule_refusal("bad_rules", problem="rules are a JSON object")
        # Every action parses the stored state's rules: the same few rulesets, each checked
        # once. The key holds each value's type too (True == 1, but only True is allowed).
        key = tuple((k, type(v), v) for k, v in data.items())
        remember = True
        try:
            return _PARSED[key]
        except KeyError:
            pass
        except TypeError:  # a value that is no JSON scalar: checked (and refused) every time
            remember = False
        version = data.get("version", RULES_VERSION)
        if version != RULES_VERSION:
            raise rule_refusal("bad_rules", problem=f"unknown rules version {version!r}")
        rules = check_rules({k: v for k, v in data.items() if k != "version"})
        if remember and len(_PARSED) < _PARSED_MAX:
            _PARSED[key] = rules
        return rules

    def differences(self) -> dict[str, Any]:
        """The options whose value is not the default, in OPTIONS order."""
        return {o.name: getattr(self, o.name) for o in OPTIONS if getattr(self, o.name) != o.default}


_SHARED_JSON: dict[Rules, dict[str, Any]] = {}
_PARSED: dict[tuple[tuple[str, type, Any], ...], Rules] = {}  # a valid ruleset's JSON items → its Rules
_PARSED_MAX = 4096  # options × values: far more rulesets than tables ever use


@dataclass(frozen=True, slots=True)
class Option:
    """One option: its values (or, for a number, an inclusive range), default and the
    RULES section it changes."""

    name: str
    values: tuple[Any, ...]
    default: Any
    rule: str
    number_range: tuple[int, int] | None = None

    def allows(self, value: object) -> bool:
        if self.number_range is not None:
            low, high = self.number_range
            return type(value) is int and low <= value <= high
        return any(type(value) is type(v) and value == v for v in self.values)

    def to_json(self) -> dict[str, Any]:
        values: Any = list(self.values)
        if self.number_range is not None:
            values = {"min": self.number_range[0], "max": self.number_range[1]}
        return {"name": self.name, "values": values, "default": self.default, "rule": self.rule}


OPTIONS: tuple[Option, ...] = (
    Option("permanent_twos", (True, False), True, "§2.2"),
    Option("no_declaration", ("flip", "redeal", "no_trump"), "flip", "§3.4"),
    Option("overrides", ("strength", "partner_reinforce", "no_joker_override"), "strength", "§3.2"),
    Option("first_dealer", ("final_declarer", "first_declarer"), "final_declarer", "§3.5"),
    Option("throw_penalty", ("components", "none", "per_card_back"), "components", "§5.3"),
    Option("kitty_bonus", ("power", "by_pairs", "double"), "power", "§6.1"),
    Option("level_steps", ("standard", "gentle"), "standard", "§7.2"),
    Option("must_play", ("a", "5_10_k", "none"), "a", "§8.1"),
    Option("last_chance_ms", (0, 1000, 2000, 3000, 5000), 2000, "§3.4", (0, LAST_CHANCE_MAX_MS)),
    Option("match_end", ("pass_a", "dealer_at_a"), "pass_a", "§8.4"),
)
OPTION_BY_NAME = {o.name: o for o in OPTIONS}
assert [o.name for o in OPTIONS] == [f.name for f in fields(Rules)]
assert all(o.default == f.default for o, f in zip(OPTIONS, fields(Rules)))

DEFAULT_RULES = Rules()

# Presets: name -> the options that differ from RULES.md ("custom" is any combination).
PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    # QQ 升级-like: no permanent 2s, redeal when nobody declares, the partner may reinforce
    # (对家保), the first declarer deals the first hand (抢庄), 10 points a card taken back,
    # kitty doubling by pairs.
    "qq": {
        "permanent_twos": False,
        "no_declaration": "redeal",
        "overrides": "partner_reinforce",
        "first_dealer": "first_declarer",
        "throw_penalty": "per_card_back",
        "kitty_bonus": "by_pairs",
    },
    # The classic two-deck game without permanent 2s (seed 004's "2不为固定常主").
    "classic": {"permanent_twos": False},
    # A relaxed evening: no throw penalty, kitty ×2, gentler level steps, 5/10/K no-skip.
    "casual": {"throw_penalty": "none", "kitty_bonus": "double", "level_steps": "gentle", "must_play": "5_10_k"},
}
CUSTOM = "custom"
# Presets whose matches may be rated (games/runtime/records.py, docs/ratings.md): the
# full rulesets that large groups of players know. "casual" softens the scoring (no throw
# penalty, kitty ×2, gentle steps) and a custom set is no agreed game: neither is rated.
RATEABLE = frozenset({"standard", "qq", "classic"})


def preset_rules(name: str, last_chance_ms: int | None = None) -> Rules:
    """The Rules of preset `name` (KeyError for an unknown one)."""
    rules = replace(DEFAULT_RULES, **PRESETS[name])
    return rules if last_chance_ms is None else replace(rules, last_chance_ms=last_chance_ms)


def preset_of(rules: Rules) -> str:
    """The preset whose rules these are (the last-chance window aside), else "custom"."""
    base = replace(rules, last_chance_ms=DEFAULT_RULES.last_chance_ms)
    for name in PRESETS:
        if preset_rules(name) == base:
            return name
    return CUSTOM


def is_rateable(rules: Rules) -> bool:
    """Whether a match under `rules` may be rated: a rateable preset's rules (the
    last-chance window aside, as `preset_of`: it is a pace, not a rule of scoring)."""
    return preset_of(rules) in RATEABLE


def conflicts(rules: Rules) -> list[str]:
    """Codes of option combinations that make no sense together (the form refuses them;
    games/rulesets.py words the reason)."""
    out = []
    # "Nothing must be played" ends a match the moment a climb passes A, as defenders too;
    # "only as dealer at A" says a match ends by winning at A as dealer: they contradict.
    if rules.must_play == "none" and rules.match_end == "dealer_at_a":
        out.append("must_play_none_vs_dealer_at_a")
    return out


def check_rules(values: Mapping[str, Any]) -> Rules:
    """Rules from option values (missing = default); refuses unknown names and values,
    and combinations that make no sense (`conflicts`)."""
    for name, value in values.items():
        option = OPTION_BY_NAME.get(name)
        if option is None:
            raise rule_refusal("bad_rules", problem=f"unknown option {name[:40]!r}")
        if not option.allows(value):
            raise rule_refusal("bad_rules", problem=f"{name} cannot be {str(value)[:40]!r}")
    rules = replace(DEFAULT_RULES, **values)
    clash = conflicts(rules)
    if clash:
        raise rule_refusal("bad_rules", problem=f"{clash[0]} (options that contradict each other)")
    return rules


def catalogue() -> dict[str, Any]:
    """`manage.py rulesets --json`: every option and every preset (and whether it is rateable)."""
    return {
        "options": [o.to_json() for o in OPTIONS],
        "presets": [{"name": n, "options": dict(o), "rateable": n in RATEABLE} for n, o in PRESETS.items()]
        + [{"name": CUSTOM, "options": {}, "rateable": False}],
    }


__all__ = [
    "CUSTOM",
    "DEFAULT_RULES",
    "OPTIONS",
    "PRESETS",
    "RATEABLE",
    "Option",
    "Rules",
    "catalogue",
    "check_rules",
    "conflicts",
    "is_rateable",
    "preset_of",
    "preset_rules",
]
