"""Thin HTTP views: lobby, table page, invite links."""
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors

from games.web import rendering
from games.web.forms import TableForm
from games.web.lobby import lobby_rows
from games.models import Table
from games.runtime.tables import table_create


def lobby(request):
    return render(request, "games/lobby.html", {"rows": lobby_rows(), "form": TableForm()})


@login_required
@require_POST
def create_table(request):
    form = TableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", {"rows": lobby_rows(), "form": form}, status=400)
    table = table_create(owner=request.user, **form.cleaned_data)
    return redirect(table_url(table))


def table_url(table) -> str:
    url = reverse("table", args=[table.pk])
    return f"{url}?invite={table.invite_code}" if table.is_private else url


@login_required
def table_page(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    invite = request.GET.get("invite")
    if not selectors.table_access(table=table, user=request.user, invite_code=invite):
        raise Http404(_("No such table."))  # private tables do not reveal that they exist
    seats = list(table.seats.select_related("user").order_by("position"))
    seat = selectors.seat_of(seats, request.user)
    view = selectors.seat_view(table, seat)
    context = rendering.table_context(table=table, seats=seats, view=view, viewer_seat=seat, user=request.user)
    ws_path = f"/ws/table/{table.pk}/" + (f"?invite={invite}" if invite else "")
    return render(request, "games/table.html", {
        **context, "regions": rendering.render_regions(context), "ws_path": ws_path,
        "invite_url": request.build_absolute_uri(table_url(table)),
    })


def invite(request, code: str):
    table = get_object_or_404(Table, invite_code=code)
    return redirect(table_url(table))
