"""Thin views of match history: my matches, one match, and a finished hand's replay."""

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.selectors import blocks, follows, user_can_moderate, user_public_get
from games.history import matches
from games.history.charts import bar_chart, line_chart
from games.history.rendering import frame_context, trump_label
from games.history.stats import levels_per_hand, profile_stats
from games.models import Hand, Match, RatedMatch
from games.moderation.forms import ReasonForm
from games.ratings import maths
from games.ratings.selectors import match_rating_changes, rating_series, user_rating

MATCHES_PER_PAGE = 20


@login_required
def my_matches(request):
    page = Paginator(matches.user_matches(user=request.user), MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/my_matches.html",
        {
            "page": page,
            "rows": matches.match_rows(page.object_list, user=request.user),
        },
    )


def _match_for(request, match_id) -> Match:
    match = get_object_or_404(Match.objects.select_related("table"), pk=match_id)
    if not matches.match_access(match=match, user=request.user):
        raise Http404(_("No such match."))  # a private table's matches do not reveal that they exist
    return match


@login_required
def match_detail(request, match_id: int):
    match = _match_for(request, match_id)
    players = matches.match_players(match)
    names = [p["name"] for p in players]
    hands = matches.match_hands(match, names)
    for row in hands:
        row["trump_label"] = trump_label(row["trump"])
    me = next((p for p in players if p["user_id"] == request.user.pk), None)
    return render(
        request,
        "games/match_detail.html",
        {
            "match": match,
            "players": players,
            "hands": hands,
            "levels": matches.match_levels(match),
            "result": matches.match_result(match, me["team"] if me else None),
            "rating_changes": match_rating_changes(match),
            "void_form": ReasonForm(prefix="void") if _voidable(match, request.user) else None,
        },
    )


def _voidable(match: Match, user) -> bool:
    return user_can_moderate(user) and RatedMatch.objects.filter(match=match, voided=False).exists()


@login_required
def hand_replay(request, hand_id: int):
    hand = get_object_or_404(Hand.objects.select_related("match__table"), pk=hand_id)
    match = _match_for(request, hand.match_id)
    if not hand.is_finished:
        # RULES §9: nothing hidden of a running hand leaves the server, not even its step count.
        return render(request, "games/replay_unavailable.html", {"match": match, "hand": hand}, status=404)
    frames = matches.hand_frames(hand)
    names = [p["name"] for p in matches.match_players(match)]
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    step = max(0, min(step, len(frames) - 1))
    context = {
        "match": match,
        "hand": hand,
        "step": step,
        "last": len(frames) - 1,
        "total": len(frames),
        "prev": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(frames) - 1 else None,
        "tricks": [
            {"step": index, "n": frame.info["trick_no"], "winner": names[frame.seat], "points": frame.info["points"]}
            for index, frame in enumerate(frames)
            if frame.kind == "trick_won" and frame.seat is not None  # a won trick has its winner's seat
        ],
        "names": names,
        **frame_context(frames[step], names),
    }
    if request.GET.get("fragment"):
        return render(request, "games/partials/replay_frame.html", context)
    return render(request, "games/replay.html", context)


def profile(request, username):
    profile_user = user_public_get(username=username)
    if profile_user is None:
        raise Http404(_("No such player."))
    context = {
        "profile_user": profile_user,
        "is_own_profile": request.user == profile_user,
        # Game statistics (docs/accounts.md), rendered by games/partials/profile_stats.html.
        "stats": profile_stats(profile_user),
        "rating": user_rating(profile_user),
        **_relation(request.user, profile_user),
        "provisional_under": maths.PROVISIONAL_MATCHES,
        **_charts(profile_user),
    }
    return render(request, "accounts/profile.html", context)


def _relation(viewer, profile_user) -> dict:
    """Whether the reader follows or blocks this player, and whether they follow back."""
    if not viewer.is_authenticated or viewer == profile_user:
        return {}
    return {
        "following": follows(follower=viewer, followed=profile_user),
        "followed_back": follows(follower=profile_user, followed=viewer),
        "blocking": blocks(blocker_id=viewer.pk, blocked_id=profile_user.pk),
    }


def _charts(user) -> dict:
    """The profile's pictures, laid out here and drawn as SVG by games/partials/chart.html."""
    series, before = rating_series(user)
    levels = levels_per_hand(user)
    return {
        "rating_chart": line_chart(
            series,
            title=_("Rating after each rated match"),
            x_label=_("Rated matches"),
            y_label=_("Rating"),
            first_number=before,
        )
        if series
        else None,
        "levels_chart": bar_chart(
            levels,
            title=_("Levels gained per hand: up for this player's team, down for the other"),
            x_label=_("Latest hands"),
            y_label=pgettext("chart axis", "Levels"),
        )
        if levels
        else None,
    }
