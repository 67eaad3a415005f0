from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Table


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

    class Meta:
        model = Table
        fields = ["name", "is_private", "deal_pace_ms", "last_chance_ms", "turn_limit_s", "allow_bots"]
        help_texts = {
            "name": _("Shown in the lobby, e.g. “Friday night game”."),
            "is_private": _("Private tables are not listed in the lobby; invite people with the table’s link."),
            "turn_limit_s": _("When a player runs out of time, a bot plays for them until they act again."),
            "allow_bots": _("Lets the owner fill free seats with bots."),
        }
        widgets = {"name": forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("Friday night game")})}
