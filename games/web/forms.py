from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from games.models import Table


class TableForm(forms.ModelForm):
    deal_pace_ms = forms.IntegerField(
        label=_("Deal pace (ms per card)"), initial=150, validators=[MinValueValidator(50), MaxValueValidator(2000)]
    )
    last_chance_ms = forms.IntegerField(
        label=_("Last-chance window (ms)"), initial=2000, validators=[MinValueValidator(0), MaxValueValidator(10000)],
        help_text=_("Time to declare after the last card is dealt (RULES §3.4); 0 fixes trump at once."),
    )

    class Meta:
        model = Table
        fields = ["name", "is_private", "deal_pace_ms", "last_chance_ms", "turn_limit_s", "allow_bots"]
