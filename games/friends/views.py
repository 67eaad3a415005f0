"""Thin views: follow and block from a profile, the friends page, and inviting a friend
from the table page (answers to invitations go over the lobby socket, games/web/lobby.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.selectors import user_public_get
from games.engine import Refusal
from games.friends import service
from games.friends.selectors import friends_with_presence, pending_invitations
from games.models import Table
from games.words.refusals import refusal_text


def _answer(request, action, done: str) -> None:
    try:
        action()
    except Refusal as refused:
        messages.error(request, refusal_text(refused))
    else:
        messages.success(request, done)


def _target(username):
    target = user_public_get(username=username)
    if target is None:
        raise Http404(_("No such player."))
    return target


@login_required
@require_POST
def follow(request, username):
    target = _target(username)
    on = request.POST.get("follow") == "1"
    _answer(
        request,
        lambda: service.follow_set(user=request.user, target_id=target.pk, following=on),
        _("You follow %(name)s.") % {"name": target.username}
        if on
        else _("You no longer follow %(name)s.") % {"name": target.username},
    )
    return redirect("profile", username=target.username)


@login_required
@require_POST
def block(request, username):
    target = _target(username)
    on = request.POST.get("block") == "1"
    _answer(
        request,
        lambda: service.block_set(user=request.user, target_id=target.pk, blocking=on),
        _("You blocked %(name)s.") % {"name": target.username}
        if on
        else _("You unblocked %(name)s.") % {"name": target.username},
    )
    return redirect("profile", username=target.username)


@login_required
def friends_page(request):
    return render(
        request,
        "games/friends.html",
        {"friends": friends_with_presence(user=request.user), "invitations": pending_invitations(user=request.user)},
    )


@login_required
@require_POST
def invite(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    try:
        friend = int(request.POST.get("friend", ""))
    except ValueError:
        friend = None
    _answer(
        request,
        lambda: service.invitation_send(sender=request.user, table_id=table.pk, recipient_id=friend),
        _("Invitation sent."),
    )
    url = f"/tables/{table.pk}/" + (f"?invite={table.invite_code}" if table.is_private else "")
    return redirect(url)
