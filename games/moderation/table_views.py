"""Thin views: the per-table moderation page and its actions, and the report page for a table.

Room actions go through games/moderation/tables.py (the table's write path); chat and
kick-lifting through games/moderation/users.py. Every moderation view is
`moderator_required` (403 without the `accounts.moderate` permission).
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games import selectors
from games.models import ChatMessage, Table
from games.moderation import tables as moderation
from games.moderation import users as user_moderation
from games.moderation.forms import ReasonForm, UserChoiceForm
from games.moderation.models import Kick, ModerationLog, Report
from games.moderation.user_views import moderator_required, perform, report_page
from games.words.seats import SEAT_NAMES

RECENT_CHAT = 100


def _kickable(table):
    """The table's seated players, then anyone who chatted there (spectators)."""
    seated = [seat.user for seat in table.seats.select_related("user").order_by("position") if seat.user_id]
    chatted = (
        get_user_model()
        .objects.filter(chat_messages__table=table)
        .exclude(pk__in=[user.pk for user in seated])
        .distinct()
        .order_by("username")
    )
    return seated + list(chatted)


def _kicked(table):
    return [kick.user for kick in Kick.objects.active().filter(table=table).select_related("user")]


@moderator_required
def table_page(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    context = {
        "table": table,
        "seats": [
            (SEAT_NAMES[seat.position], seat) for seat in table.seats.select_related("user").order_by("position")
        ],
        "matches": table.matches.order_by("-number")[:10],
        "chat": ChatMessage.objects.filter(table=table)
        .select_related("user", "deleted_by")
        .order_by("-created_at", "-pk")[:RECENT_CHAT],
        "log": ModerationLog.objects.filter(table=table).select_related("moderator", "target_user")[:50],
        "reports": Report.objects.filter(table=table).select_related("reporter")[:50],
        "close_form": ReasonForm(prefix="close"),
        "kick_form": UserChoiceForm(prefix="kick", users=_kickable(table)),
        "unkick_form": UserChoiceForm(prefix="unkick", users=_kicked(table)),
    }
    return render(request, "moderation/table.html", context)


@require_POST
@moderator_required
def table_close(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    form = ReasonForm(request.POST, prefix="close")
    perform(
        request,
        form,
        lambda f: moderation.table_close(
            moderator=request.user,
            table_id=table.pk,
            reason=f.cleaned_data["reason"],
        ),
        _("The table is closed; everyone at it was told why and disconnected."),
    )
    return redirect("moderation_table", table_id=table.pk)


@require_POST
@moderator_required
def seat_kick(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    form = UserChoiceForm(request.POST, prefix="kick", users=_kickable(table))
    perform(
        request,
        form,
        lambda f: moderation.seat_kick(
            moderator=request.user,
            table_id=table.pk,
            user_id=f.cleaned_data["user"],
            reason=f.cleaned_data["reason"],
        ),
        _("The player is removed from the table."),
    )
    return redirect("moderation_table", table_id=table.pk)


@require_POST
@moderator_required
def kick_lift(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    kicked = _kicked(table)
    form = UserChoiceForm(request.POST, prefix="unkick", users=kicked)
    perform(
        request,
        form,
        lambda f: user_moderation.kick_lift(
            moderator=request.user,
            table=table,
            reason=f.cleaned_data["reason"],
            user=next(user for user in kicked if user.pk == f.cleaned_data["user"]),
        ),
        _("The player may enter the table again."),
    )
    return redirect("moderation_table", table_id=table.pk)


@require_POST
@moderator_required
def chat_delete(request, message_id: int):
    message = get_object_or_404(ChatMessage.objects.select_related("user", "table"), pk=message_id)
    form = ReasonForm(request.POST, prefix="delete")
    perform(
        request,
        form,
        lambda f: user_moderation.chat_message_delete(
            moderator=request.user,
            message=message,
            reason=f.cleaned_data["reason"],
        ),
        _("The message is deleted."),
    )
    return redirect("moderation_table", table_id=message.table_id)


@login_required
@require_http_methods(["GET", "POST"])
def report_table(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    if not selectors.table_access(table=table, user=request.user, invite_code=request.GET.get("invite")):
        raise Http404(_("No such table."))
    return report_page(
        request,
        subject=table.name,
        create=lambda reason: user_moderation.report_create(
            reporter=request.user,
            reason=reason,
            table=table,
        ),
        back=(selectors.table_url(table),),
    )
