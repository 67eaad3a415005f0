"""The form that creates a duplicate event (docs/events.md). It only reads the values; the
service (games/duplicate/service.py) decides what an event may be, and its refusals come
back as the form's errors."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import engine, rulesets
from games.duplicate import service
from games.duplicate.models import NAME_LENGTH, Event

# The presets an event may play: none whose climb can pass A (it would end a table's match).
EVENT_PRESETS = [name for name in engine.PRESETS if engine.preset_rules(name).must_play != "none"]


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_LENGTH)
    kind = forms.ChoiceField(label=_("Kind"), choices=Event.Kind.choices, initial=Event.Kind.PAIRS)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=service.MAX_ROUNDS, initial=2)
    boards_per_round = forms.IntegerField(
        label=_("Boards per round"), min_value=1, max_value=service.MAX_BOARDS_PER_ROUND, initial=2
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes per round"), min_value=service.ROUND_MINUTES[0], max_value=service.ROUND_MINUTES[1], initial=30
    )
    starts_at = forms.DateTimeField(
        label=pgettext_lazy("event start time", "Start"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    preset = forms.ChoiceField(
        label=_("House rules"), choices=[(name, rulesets.PRESET_NAMES[name]) for name in EVENT_PRESETS]
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_("A rated event changes its players' ratings board by board. It plays rateable house rules."),
    )
    is_private = forms.BooleanField(
        label=_("Private"), required=False, initial=True, help_text=_("Only staff can create public events.")
    )

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        if starts_at < timezone.now():
            raise forms.ValidationError(_("Choose a start in the future."))
        return starts_at
