from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games import bot_levels, engine, rulesets
from games.models import Table
from games.runtime.tables import PUBLIC_NEEDS_LIMIT, PUBLIC_TURN_LIMIT_S


class TableForm(forms.ModelForm):
    deal_pace_ms = forms.IntegerField(
        label=_("Deal pace (ms per card)"),
        initial=150,
        min_value=50,
        max_value=2000,
        help_text=_("50 is brisk, 150 leaves time to declare, 500 is leisurely."),
    )
    last_chance_ms = forms.IntegerField(
        label=_("Last-chance window (ms)"),
        initial=2000,
        min_value=0,
        max_value=10000,
        help_text=_("Time to declare after the last card is dealt; 0 fixes trump at once."),
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["last_chance_ms"].help_text = rulesets.option_help("last_chance_ms")
        for option in engine.OPTIONS:
            if option.name != "last_chance_ms":  # a field of its own (the table's column)
                self.fields[RULE_PREFIX + option.name] = rule_field(option)

    def table_fields(self) -> list:
        """The bound fields shown first; the single rules go under "Advanced"."""
        return [self[name] for name in self.fields if not name.startswith(RULE_PREFIX)]

    def rule_fields(self) -> list:
        return [self[name] for name in self.fields if name.startswith(RULE_PREFIX)]

    def rules_changed(self) -> bool:
        """Whether any single rule was chosen (the "Advanced" part then opens)."""
        return self.is_bound and any(self.data.get(field.html_name) for field in self.rule_fields())

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


def _choice_key(value: object) -> str:
    return {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)


def rule_field(option: engine.rules.Option) -> forms.TypedChoiceField:
    """One house rule (docs/house-rules.md): blank keeps the preset's value."""
    text = rulesets.TEXTS[option.name]
    keys = {_choice_key(v): v for v in option.values}
    return forms.TypedChoiceField(
        label=text.label,
        help_text=rulesets.option_help(option.name),
        choices=[("", _("as the preset"))] + [(key, rulesets.value_label(option.name, v)) for key, v in keys.items()],
        coerce=keys.__getitem__,
        empty_value=None,
        required=False,
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
