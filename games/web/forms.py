from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Table

# A public table always has a turn limit: one absent player must not stall three others.
PUBLIC_TURN_LIMIT_S = 30


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
        help_text=_("Time to declare after the last card is dealt (RULES §3.4); 0 fixes trump at once."),
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

    class Meta:
        model = Table
        fields = ["name", "is_private", "rated", "deal_pace_ms", "last_chance_ms", "turn_limit_s", "allow_bots"]
        help_texts = {
            "name": _("Shown in the lobby, e.g. “Friday night game”."),
            "is_private": _("Private tables are not listed in the lobby; invite people with the table’s link."),
            "allow_bots": _("Lets the owner fill free seats with bots."),
            "rated": _("A rated match between four people changes their ratings; with a bot it is casual."),
        }
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("Friday night game")})}

    def clean(self):
        cleaned = super().clean()
        if not cleaned.get("is_private") and cleaned.get("turn_limit_s") == 0:
            self.add_error(
                "turn_limit_s",
                forms.ValidationError(
                    _(
                        "A public table needs a turn limit, so that one absent player cannot stall it. "
                        "Choose “off” only at a private table."
                    ),
                    code="public_needs_limit",
                ),
            )
        elif cleaned.get("rated") and cleaned.get("turn_limit_s") == 0:
            # Without a limit an absent player stalls the match forever: it would never be rated.
            self.add_error(
                "turn_limit_s",
                forms.ValidationError(_("A rated table needs a turn limit."), code="rated_needs_limit"),
            )
        return cleaned
