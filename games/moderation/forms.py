"""Forms of the moderation pages and the report page: validation only (writes: moderation.py)."""

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

DURATIONS = {"1h": timedelta(hours=1), "1d": timedelta(days=1), "7d": timedelta(days=7), "30d": timedelta(days=30)}
DURATION_CHOICES = [
    ("", _("until lifted")),
    ("1h", _("1 hour")),
    ("1d", _("1 day")),
    ("7d", _("7 days")),
    ("30d", _("30 days")),
]


class ReasonForm(forms.Form):
    """Every moderator action asks why; the reason goes to the audit log (and to the user)."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=300,
        widget=forms.TextInput(attrs={"size": 50}),
        error_messages={"required": _("Give a reason.")},
    )


class SanctionForm(ReasonForm):
    """A ban or a mute: a reason and how long."""

    duration = forms.ChoiceField(label=_("For"), choices=DURATION_CHOICES, required=False)

    def expires_at(self):
        span = DURATIONS.get(self.cleaned_data.get("duration") or "")
        return timezone.now() + span if span else None


class UserChoiceForm(ReasonForm):
    """A reason and one of the users offered (kick: the table's players; lift a kick: the kicked)."""

    user = forms.TypedChoiceField(label=_("Player"), coerce=int)

    def __init__(self, *args, users=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].choices = [(user.pk, user.username) for user in users]


class ReportForm(forms.Form):
    reason = forms.CharField(
        label=_("What happened?"),
        max_length=1000,
        widget=forms.Textarea(attrs={"rows": 5}),
        error_messages={"required": _("Give a reason.")},
    )
