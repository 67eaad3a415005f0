"""A moderator's page of an event's board results (docs/events.md): each result of a board no
table can still be playing (games/duplicate/watching.py), and a form to score it as if the
defenders had another score. The write is service.result_adjust (audit-logged, pushed to the
event page after commit); a refusal is shown and changes nothing."""

from django import forms
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.duplicate import selectors, service, watching
from games.duplicate.models import BoardResult, Event
from games.moderation.forms import ReasonForm
from games.moderation.user_views import moderator_required, perform


class AdjustForm(ReasonForm):
    defenders_score = forms.IntegerField(label=gettext_lazy("Defenders' points"), min_value=-1000, max_value=1000)


def adjustable_results(event: Event) -> list[BoardResult]:
    """The event's results on boards every table of their round has finished."""
    released = {r.pk: watching.released_boards(r) for r in event.event_rounds.all()}
    rows = (
        BoardResult.objects.filter(board__event=event)
        .select_related("board", "event_table")
        .order_by("board__number", "event_table__number")
    )
    return [row for row in rows if row.board.number in released[row.event_table.round_id]]


@moderator_required
def event_results(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    if request.method == "POST":
        results = {row.pk: row for row in adjustable_results(event)}
        try:
            result = results[int(request.POST.get("result", ""))]
        except (KeyError, ValueError):
            raise Http404(_("No such result.")) from None
        form = AdjustForm(request.POST)
        perform(
            request,
            form,
            lambda f: service.result_adjust(
                moderator=request.user,
                result_id=result.pk,
                defenders_score=f.cleaned_data["defenders_score"],
                reason=f.cleaned_data["reason"],
            ),
            _("The result is adjusted."),
        )
        return redirect("event_results_moderate", event_id=event.pk)
    names = selectors.entry_names(event)
    rows = [
        {
            "result": row,
            "north_south": [names.get(e) for e in dict.fromkeys((row.event_table.seats[0], row.event_table.seats[2]))],
            "east_west": [names.get(e) for e in dict.fromkeys((row.event_table.seats[1], row.event_table.seats[3]))],
        }
        for row in adjustable_results(event)
    ]
    return render(request, "games/event_results_moderate.html", {"event": event, "rows": rows})
