import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import bot_levels, engine, rulesets
from games.models import Table
from games.runtime.tables import PUBLIC_NEEDS_LIMIT, PUBLIC_TURN_LIMIT_S

# The deal's pace in players' words: (ms a card, ms to declare after the last card). The
# lobby's cards call a deal of at most 100 ms a card fast, of more than 300 relaxed.
PACES: dict[str, tuple[int, int]] = {"fast": (75, 1000), "normal": (150, 2000), "relaxed": (400, 5000)}
CUSTOM_PACE = "custom"
PACE_CHOICES = [
    ("fast", _("Fast")),
    ("normal", _("Normal")),
    ("relaxed", _("Relaxed")),
    (CUSTOM_PACE, _("My own timing")),
]


class ChoicesWithEffects(forms.RadioSelect):
    """Radio buttons, each with its own sentence of what choosing it does (`effects`, by
    the choice's key), tied to its button with aria-describedby.
    templates/games/partials/choice_field.html lays them out."""

    def __init__(self, effects: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.effects = effects

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        effect = self.effects.get(str(value))
        if effect:
            option["effect"] = str(effect)
            option["attrs"]["aria-describedby"] = f"{option['attrs']['id']}_effect"
        return option


def deal_seconds(deal_pace_ms: int) -> int:
    """How long a whole deal takes at `deal_pace_ms` a card, in whole seconds (RULES §1.3)."""
    return round(engine.DEALT_CARDS * deal_pace_ms / 1000)


def _pace_effect(name: str) -> str:
    deal_ms, window_ms = PACES[name]
    seconds = window_ms // 1000
    return ngettext(
        "The deal takes about %(deal)s seconds, then %(window)s second to declare.",
        "The deal takes about %(deal)s seconds, then %(window)s seconds to declare.",
        seconds,
    ) % {"deal": deal_seconds(deal_ms), "window": seconds}


class TableForm(forms.ModelForm):
    pace = forms.ChoiceField(
        label=_("Pace"),
        choices=PACE_CHOICES,
        initial="normal",
        required=False,  # without it, the exact timings below
    )
    deal_pace_ms = forms.IntegerField(
        label=_("Time per dealt card, in milliseconds"),
        initial=PACES["normal"][0],
        min_value=50,
        max_value=2000,
        help_text=_("With “My own timing”: 50 is brisk, 150 leaves time to declare, 500 is leisurely."),
    )
    last_chance_ms = forms.IntegerField(
        label=_("Time to declare after the deal, in milliseconds"),
        initial=PACES["normal"][1],
        min_value=0,
        max_value=10000,
    )

    turn_limit_s = forms.TypedChoiceField(
        label=_("Turn time limit"),
        choices=Table.TURN_LIMITS,
        coerce=int,
        initial=PUBLIC_TURN_LIMIT_S,
        help_text=_(
            "When a player runs out of time, a bot plays for them until they act again. "
            "“Off” is for private tables only."
        ),
    )

    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(name, label) for name, label in rulesets.PRESET_NAMES.items()],
        initial="standard",
        required=False,
        help_text=_("A set of house rules; “Advanced” below changes single rules."),
    )

    class Meta:
        model = Table
        fields = [
            "name",
            "is_private",
            "rated",
            "deal_pace_ms",
            "last_chance_ms",
            "turn_limit_s",
            "allow_bots",
            "guests_may_chat",
        ]
        help_texts = {
            "name": _("Shown in the lobby, e.g. “Friday night game”."),
            "is_private": _("Private tables are not listed in the lobby; invite people with the table’s link."),
            "allow_bots": _("Lets the owner fill free seats with bots."),
            "guests_may_chat": _(
                "Guests are visitors without an account. Unticked, they can still watch, and play at casual "
                "tables, but not chat."
            ),
            "rated": _("A rated match between four people changes their ratings; with a bot it is casual."),
        }
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("Friday night game")})}

    field_order = ["name", "is_private", "rated", "pace", "turn_limit_s", "allow_bots", "guests_may_chat", "preset"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        effects = {name: _pace_effect(name) for name in PACES} | {CUSTOM_PACE: _("The exact times under “Advanced”.")}
        self.fields["pace"].widget = ChoicesWithEffects(effects, choices=PACE_CHOICES)
        self.fields["last_chance_ms"].help_text = rulesets.option_help("last_chance_ms")
        for option in engine.OPTIONS:
            if option.name != "last_chance_ms":  # a field of its own (the table's column)
                self.fields[RULE_PREFIX + option.name] = rule_field(option)
        self.order_fields(self.field_order)

    def table_fields(self) -> list:
        """The bound fields shown first; the exact timings and single rules go under "Advanced"."""
        return [self[name] for name in self.fields if not name.startswith(RULE_PREFIX) and name not in TIMINGS]

    def paces_json(self) -> str:
        """The named paces' times for the page's script (static/js/create_table.js)."""
        return json.dumps(PACES)

    def timing_fields(self) -> list:
        return [self[name] for name in TIMINGS]

    def rule_fields(self) -> list:
        return [self[name] for name in self.fields if name.startswith(RULE_PREFIX)]

    def advanced_open(self) -> bool:
        """Whether the "Advanced" part opens: a single rule or the own timing was chosen,
        or a timing was refused."""
        if not self.is_bound:
            return False
        chosen = any(self.data.get(field.html_name) for field in self.rule_fields())
        return chosen or self.data.get("pace") in (None, CUSTOM_PACE) or any(f.errors for f in self.timing_fields())

    def chosen_rules(self) -> engine.Rules:
        """The preset's rules with the single rules chosen under "Advanced" (after clean)."""
        preset = self.cleaned_data.get("preset") or "standard"
        base = engine.preset_rules("standard" if preset == engine.CUSTOM else preset)
        values = {o.name: getattr(base, o.name) for o in engine.OPTIONS if o.name != "last_chance_ms"}
        for option in engine.OPTIONS:
            chosen = self.cleaned_data.get(RULE_PREFIX + option.name)
            if chosen not in (None, ""):
                values[option.name] = chosen
        return engine.Rules(**values, last_chance_ms=self.cleaned_data.get("last_chance_ms") or 0)

    def table_options(self) -> dict[str, Any]:
        """Keyword arguments for table_create: the model's fields and the house rules."""
        options = {name: self.cleaned_data[name] for name in self.Meta.fields}
        options["rules"] = {k: v for k, v in self.chosen_rules().differences().items() if k != "last_chance_ms"}
        return options

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("pace") in PACES:  # a named pace sets both times; "My own timing" keeps them
            cleaned["deal_pace_ms"], cleaned["last_chance_ms"] = PACES[cleaned["pace"]]
            for name in TIMINGS:
                self.errors.pop(name, None)
        if not self.errors:
            rules = self.chosen_rules()
            for reason in rulesets.conflict_reasons(rules):
                self.add_error(None, forms.ValidationError(reason, code="rules_conflict"))
            if cleaned.get("rated") and not engine.is_rateable(rules):
                # Issue #17: rated matches play the standard rules or a rateable preset.
                self.add_error("rated", forms.ValidationError(rulesets.unrateable_reason(rules), code="rules_unrated"))
        if not cleaned.get("is_private") and cleaned.get("turn_limit_s") == 0:
            self.add_error(
                "turn_limit_s",
                forms.ValidationError(_(PUBLIC_NEEDS_LIMIT), code="public_needs_limit"),  # as table_create says
            )
        elif cleaned.get("rated") and cleaned.get("turn_limit_s") == 0:
            # Without a limit an absent player stalls the match forever: it would never be rated.
            self.add_error(
                "turn_limit_s",
                forms.ValidationError(_("A rated table needs a turn limit."), code="rated_needs_limit"),
            )
        return cleaned


RULE_PREFIX = "rule_"
TIMINGS = ("deal_pace_ms", "last_chance_ms")


def _choice_key(value: object) -> str:
    return {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)


def rule_field(option: engine.rules.Option) -> forms.TypedChoiceField:
    """One house rule (docs/house-rules.md): blank keeps the preset's value; every value
    says beside it what it does."""
    text = rulesets.TEXTS[option.name]
    keys = {_choice_key(v): v for v in option.values}
    effects = {key: rulesets.value_effect(option.name, v) for key, v in keys.items()}
    return forms.TypedChoiceField(
        label=text.label,
        help_text=rulesets.option_help(option.name),
        choices=[("", _("As the chosen rules say"))]
        + [(key, rulesets.value_label(option.name, v)) for key, v in keys.items()],
        coerce=keys.__getitem__,
        empty_value=None,
        required=False,
        initial="",
        widget=ChoicesWithEffects(effects),
    )


class PlayNowForm(forms.Form):
    """ "Play now": the level of the three bots. The site remembers it for the next time."""

    level = forms.ChoiceField(
        label=_("Bots"),
        choices=bot_levels.choices,
        widget=forms.Select(attrs={"data-testid": "play-now-level"}),
        error_messages={
            "invalid_choice": _("There is no bot of level “%(value)s”."),
            "required": _("Choose the bots' level."),
        },
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, auto_id="play-now-%s", **kwargs)  # beside the table form's fields
