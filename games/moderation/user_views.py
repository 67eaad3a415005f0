"""Thin views: the per-user moderation page and its actions, and the report page for a user.

Every moderation view is `moderator_required` (403 for anyone without the
`accounts.moderate` permission, login first for anonymous visitors); the services
check the permission again.
"""

from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from accounts.selectors import user_can_moderate, user_public_get
from games.engine import Refusal
from games.moderation import users as moderation
from games.moderation.forms import ReasonForm, ReportForm, SanctionForm
from games.moderation.models import Ban, Kick, ModerationLog, Mute, Report
from games.words.refusals import refusal_text


def moderator_required(view):
    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not user_can_moderate(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def form_errors_text(form) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def perform(request, form, action, success: str) -> None:
    """Run one moderator action from a valid form and say how it went (messages)."""
    if not form.is_valid():
        messages.error(request, form_errors_text(form))
        return
    try:
        action(form)
    except Refusal as refused:
        messages.error(request, refusal_text(refused))
    else:
        messages.success(request, success)


@moderator_required
def user_page(request, username):
    target = get_object_or_404(get_user_model(), username=username)
    context = {
        "target": target,
        "ban": Ban.objects.active().filter(user=target).first(),
        "mute": Mute.objects.active().filter(user=target).first(),
        "kicks": Kick.objects.active().filter(user=target).select_related("table"),
        "log": ModerationLog.objects.filter(target_user=target).select_related("moderator", "table")[:50],
        "reports": Report.objects.filter(user=target).select_related("reporter")[:50],
        "ban_form": SanctionForm(prefix="ban"),
        "mute_form": SanctionForm(prefix="mute"),
        "unban_form": ReasonForm(prefix="unban"),
        "unmute_form": ReasonForm(prefix="unmute"),
    }
    return render(request, "moderation/user.html", context)


def _user_action(request, username, prefix, form_class, action, success):
    target = get_object_or_404(get_user_model(), username=username)
    form = form_class(request.POST, prefix=prefix)
    perform(request, form, lambda f: action(target, f), success)
    return redirect("moderation_user", username=target.username)


@require_POST
@moderator_required
def user_ban(request, username):
    return _user_action(
        request,
        username,
        "ban",
        SanctionForm,
        lambda target, form: moderation.user_ban(
            moderator=request.user,
            user=target,
            reason=form.cleaned_data["reason"],
            expires_at=form.expires_at(),
        ),
        _("The user is banned: their sockets and sessions were closed."),
    )


@require_POST
@moderator_required
def user_unban(request, username):
    return _user_action(
        request,
        username,
        "unban",
        ReasonForm,
        lambda target, form: moderation.user_unban(
            moderator=request.user,
            user=target,
            reason=form.cleaned_data["reason"],
        ),
        _("The ban is lifted."),
    )


@require_POST
@moderator_required
def user_mute(request, username):
    return _user_action(
        request,
        username,
        "mute",
        SanctionForm,
        lambda target, form: moderation.user_mute(
            moderator=request.user,
            user=target,
            reason=form.cleaned_data["reason"],
            expires_at=form.expires_at(),
        ),
        _("The user is muted in every table chat."),
    )


@require_POST
@moderator_required
def user_unmute(request, username):
    return _user_action(
        request,
        username,
        "unmute",
        ReasonForm,
        lambda target, form: moderation.user_unmute(
            moderator=request.user,
            user=target,
            reason=form.cleaned_data["reason"],
        ),
        _("The mute is lifted."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def report_user(request, username):
    target = user_public_get(username=username)
    if target is None:
        raise Http404(_("No such player."))
    return report_page(
        request,
        subject=target.username,
        create=lambda reason: moderation.report_create(
            reporter=request.user,
            reason=reason,
            user=target,
        ),
        back=("profile", target.username),
    )


def report_page(request, *, subject: str, create, back: tuple):
    """The report form for a user or a table: validate, report_create, back where the player was."""
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            create(form.cleaned_data["reason"])
        except Refusal as refused:
            form.add_error("reason", refusal_text(refused))
        else:
            messages.success(request, _("Thank you. Moderators will look at your report."))
            return redirect(*back)
    return render(
        request, "moderation/report.html", {"form": form, "subject": subject}, status=400 if form.errors else 200
    )
