"""Thin views of duplicate events (docs/events.md): the list, an event's page with
registration (a partner confirms or declines), check-in and standings, and its results once
finished. Every write is a service of games/duplicate/service.py; a refusal is shown as a
message and changes nothing."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.guests import is_guest
from games.duplicate import selectors, service
from games.duplicate.models import Event, EventTable
from games.engine import Refusal
from games.web.event_forms import EventForm
from games.web.event_regions import reader_regions, shared_regions
from games.web.event_watch import watch_context
from games.words.refusals import refusal_text


def event_groups(user, limit: int | None = None) -> list[tuple[str, str, list[Event]]]:
    """The events the user may see as (key, title, events): upcoming and running soonest
    first, finished latest first; `limit` of each (the lobby shows a few)."""
    shown = list(selectors.visible_events(user))
    groups = [
        ("upcoming", _("Upcoming"), [e for e in shown if e.status == Event.Status.REGISTRATION]),
        ("running", _("Running"), [e for e in shown if e.status == Event.Status.RUNNING]),
        ("finished", _("Finished"), [e for e in shown if e.status == Event.Status.FINISHED][::-1]),
    ]
    return [(key, title, rows[:limit]) for key, title, rows in groups]


def events_list(request):
    return render(request, "games/events.html", {"groups": event_groups(request.user)})


def visible_event(request, event_id: int) -> Event:
    event = get_object_or_404(Event, pk=event_id)
    if not selectors.event_access(event=event, user=request.user):
        raise Http404(_("No such event."))  # private events do not reveal that they exist
    return event


def event_page(request, event_id: int):
    event = visible_event(request, event_id)
    own = reader_regions(event, request.user, get_token(request))
    context = {
        "event": event,
        "regions": shared_regions(event),
        "my_table": own["my-table"],
        "registration": own["registration"],
        "ws_path": f"/ws/event/{event.pk}/",
    }
    return render(request, "games/event.html", context)


def event_watch(request, event_id: int, event_table_id: int):
    """A table of the event as a spectator sees it: each board only once no table can still
    be playing it (games/duplicate/watching.py)."""
    event = visible_event(request, event_id)
    event_table = get_object_or_404(
        EventTable.objects.select_related("round__event"), pk=event_table_id, round__event=event
    )
    return render(
        request,
        "games/event_watch.html",
        {
            "event": event,
            "watch": watch_context(event_table),
            "ws_path": f"/ws/event/{event.pk}/tables/{event_table.pk}/",
        },
    )


@login_required
def event_create(request):
    """A new event: staff create public ones, anyone signed in a private one (not guests,
    who play against bots)."""
    if is_guest(request.user):
        messages.info(request, _("Create an account to run events: your guest games stay yours."))
        return redirect("register")
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = service.event_create(created_by=request.user, **form.cleaned_data)
        except Refusal as refusal:
            form.add_error(None, refusal_text(refusal))
        else:
            return redirect("event", event_id=event.pk)
    return render(request, "games/event_new.html", {"form": form}, status=400 if form.errors else 200)


def _act(request, event: Event, write) -> None:
    try:
        write()
    except Refusal as refusal:
        messages.error(request, refusal_text(refusal))


@login_required
@require_POST
def event_register(request, event_id: int):
    event = visible_event(request, event_id)
    partner = None
    if event.kind == Event.Kind.PAIRS:
        username = request.POST.get("partner", "").strip()
        partner = get_user_model().objects.filter(username=username, is_active=True).first()
        if partner is None:
            messages.error(request, _("There is no player called “%(name)s”.") % {"name": username[:150]})
            return redirect("event", event_id=event.pk)
    _act(request, event, lambda: service.event_register(event_id=event.pk, user=request.user, partner=partner))
    return redirect("event", event_id=event.pk)


def reader_action(write):
    """A POST view of the reader's own part in an event (check in, withdraw, confirm or
    decline a pair): `write`, a service taking the event and the reader, decides."""

    @login_required
    @require_POST
    def view(request, event_id: int):
        event = visible_event(request, event_id)
        _act(request, event, lambda: write(event_id=event.pk, user=request.user))
        return redirect("event", event_id=event.pk)

    return view


event_check_in = reader_action(service.event_check_in)
event_withdraw = reader_action(service.event_withdraw)
event_partner_confirm = reader_action(service.event_partner_confirm)
event_partner_decline = reader_action(service.event_partner_decline)
