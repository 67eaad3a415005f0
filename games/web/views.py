"""Thin HTTP views: lobby, table page, invite links."""

import time

from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.guests import TooManyGuests, guest_create, is_guest
from accounts.selectors import profile_bot_level
from accounts.services import profile_set_bot_level
from accounts.throttle import client_ip
from games import bot_levels, selectors
from games.engine import Refusal
from games.friends.selectors import invitable_friends
from games.models import Match, Table
from games.runtime import writer
from games.runtime.tables import PUBLIC_TURN_LIMIT_S, table_create
from games.web import rendering
from games.web.event_views import event_groups
from games.web.forms import PlayNowForm, TableForm
from games.web.lobby import lobby_rows
from games.words.faces import faces
from games.words.refusals import refusal_text

# "Play now": the user sits North; their partner and both opponents are bots.
PLAY_NOW_BOT_SEATS = (1, 2, 3)


# The front door's picture: a trick on the felt, North leading ♠A and East ruffing with a
# level card (the picture is of a hand where hearts are trump and the level is 2).
FRONT_DOOR_TRICK = ("SA", "H2", "S10", "SK")


LOBBY_EVENTS = 3  # of each kind (upcoming, running, finished); /events/ lists them all


def lobby_context(request, form=None) -> dict:
    level = bot_levels.remembered(profile_bot_level(user=request.user)) if request.user.is_authenticated else ""
    visitor = not request.user.is_authenticated or is_guest(request.user)
    return {
        "rows": lobby_rows(request.user),
        "form": form or TableForm(),
        "play_now_form": PlayNowForm(initial={"level": level or bot_levels.default()}),
        "front_door": visitor,
        "front_door_trick": faces(FRONT_DOOR_TRICK, None) if visitor else (),
        # A guest's tables are private (not in the list): the way back to the one under way.
        "guest_table": guest_table(request.user) if is_guest(request.user) else None,
        "event_groups": event_groups(request.user, limit=LOBBY_EVENTS),
    }


def guest_table(user) -> Table | None:
    return Table.objects.filter(owner=user, status=Table.Status.PLAYING).order_by("-created_at").first()


def lobby(request):
    return render(request, "games/lobby.html", lobby_context(request))


@login_required
@require_POST
def create_table(request):
    if is_guest(request.user):  # guests play against bots; tables of their own need an account
        messages.info(request, _("Create an account to open tables of your own: your guest games stay yours."))
        return redirect("register")
    form = TableForm(request.POST)
    if not form.is_valid():
        return render(request, "games/lobby.html", lobby_context(request, form), status=400)
    table = table_create(owner=request.user, **form.table_options())
    return redirect(selectors.table_url(table))


@require_POST
def play_now(request):
    """One click: a new table, the user at North, three bots of the level the form names (the
    site remembers it; without one, the remembered level), and the first deal under way."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("lobby"))
    chosen = None
    if "level" in request.POST:
        form = PlayNowForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Could not start a game: %(reason)s") % {"reason": form.errors["level"][0]})
            return redirect("lobby")
        chosen = form.cleaned_data["level"]
    level = chosen or bot_levels.remembered(profile_bot_level(user=request.user))
    return _bot_table(request, level=level, remember=chosen, private=is_guest(request.user))


@require_POST
def play_as_guest(request):
    """The front door's one click for a visitor: a guest identity in the session (the one they
    have, or a new one, limited per client address) and a table against the weakest bots,
    private to the guest, without a turn limit (a beginner takes their time)."""
    if not request.user.is_authenticated:
        language = translation.get_language() or ""
        try:
            guest = guest_create(ip=client_ip(request), language=language)
        except TooManyGuests:
            messages.error(request, _("Too many guests were started from your network. Please try again later."))
            return redirect("lobby")
        auth_login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    return _bot_table(request, level=bot_levels.offered()[0], remember=None, private=is_guest(request.user))


def _bot_table(request, *, level: str, remember: str | None, private: bool):
    """A new table with the user at North and three bots of `level`, the match started. Every
    step goes through the table's one write path as the owner, like manual play; if any step
    is refused, nothing is kept (the remembered level included). A guest's table is private
    and has no turn limit; anyone else's is public, where a bot plays for an absent player."""
    name = _("%(name)s against bots") % {"name": request.user.username}
    try:
        with transaction.atomic():
            if remember is not None:
                profile_set_bot_level(user=request.user, level=remember)
            table = table_create(
                owner=request.user,
                name=name[: Table._meta.get_field("name").max_length],
                is_private=private,
                turn_limit_s=0 if private else PUBLIC_TURN_LIMIT_S,
            )
            steps = [{"type": "sit", "seat": 0}]
            steps += [{"type": "add_bot", "seat": seat, "level": level} for seat in PLAY_NOW_BOT_SEATS]
            version = table.version
            for action in steps + [{"type": "start_match"}]:
                version = writer.table_act(
                    table_id=table.pk, action=action, expected_version=version, user=request.user
                ).version
    except Refusal as refusal:
        reason = refusal_text(refusal)
        messages.error(request, _("Could not start a game: %(reason)s") % {"reason": reason})
        return redirect("lobby")
    return redirect(selectors.table_url(table))


@login_required
def table_page(request, table_id: int):
    table = get_object_or_404(Table, pk=table_id)
    invite = request.GET.get("invite")
    if not selectors.table_access(table=table, user=request.user, invite_code=invite):
        raise Http404(_("No such table."))  # private tables do not reveal that they exist
    seats = list(table.seats.select_related("user").order_by("position"))
    seat = selectors.seat_of(seats, request.user)
    view = selectors.seat_view(table, seat)
    context = rendering.table_context(
        table=table,
        seats=seats,
        view=view,
        viewer_seat=seat,
        user=request.user,
        rating_changes=rendering.finished_rating_changes(table),
    )
    ws_path = f"/ws/table/{table.pk}/" + (f"?invite={invite}" if invite else "")
    return render(
        request,
        "games/table.html",
        {
            **context,
            "regions": rendering.render_regions(context),
            "ws_path": ws_path,
            "server_now_ms": int(time.time() * 1000),  # the page counts down with the server's clock
            "invite_url": request.build_absolute_uri(selectors.table_url(table)),
            "invitable_friends": invitable_friends(user=request.user, table=table, seats=seats),
        },
    )


def table_last_match(request, table_id: int):
    """The end-of-match screen's link (its regions are rendered without the database): the
    record of the table's latest match; the match page checks who may see it."""
    match = Match.objects.filter(table_id=table_id).order_by("-number").only("pk").first()
    if match is None:
        raise Http404(_("No match was played at this table."))
    return redirect("match_detail", match_id=match.pk)


def table_hand(request, table_id: int, hand_no: int):
    """The end-of-hand panel's link (rendered without the database): hand `hand_no` of the
    table's latest match, in the replay with its analysis; the replay checks who may see it."""
    match = Match.objects.filter(table_id=table_id).order_by("-number").only("pk").first()
    hand = match and match.hands.filter(number=hand_no).only("pk").first()
    if hand is None:
        raise Http404(_("No such hand at this table."))
    return redirect("hand_replay", hand_id=hand.pk)


def invite(request, code: str):
    table = get_object_or_404(Table, invite_code=code)
    return redirect(selectors.table_url(table))
