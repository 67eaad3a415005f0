"""Thin views of match history: my matches, one match, a finished hand's replay and a
player's profile, and a moderator's void of a rated match. Pages, so they compose the features (history, analysis, ratings,
moderation) here, in the web layer, and no feature imports another for them."""

import json

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.selectors import user_can_moderate
from games import rulesets
from games.analysis import pages
from games.analysis import selectors as analyses
from games.engine import Refusal
from games.history import export, matches, steps
from games.history.charts import bar_chart, line_chart
from games.history.rendering import frame_context, trump_label
from games.models import Hand, Match
from games.moderation.forms import ReasonForm
from games.moderation.user_views import moderator_required, perform
from games.ratings import maths, voids
from games.ratings.models import RatedMatch
from games.ratings.selectors import match_rating_changes, rating_series
from games.web.profile_stats import profile_person, profile_stats
from games.words.refusals import refusal_text

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
    accuracy = analyses.match_accuracy(match=match) if analyses.analysis_access(match=match, user=request.user) else {}
    for row in hands:
        row["trump_label"] = trump_label(row["trump"])
    analysed = sorted({int(seat) for seats in accuracy.values() for seat in seats})
    accuracy_rows = [
        {
            "number": row["number"],
            "hand": row["hand"],
            "cells": [
                {"name": names[seat], "value": accuracy.get(row["hand"].pk, {}).get(str(seat))} for seat in analysed
            ],
        }
        for row in hands
        if row["hand"].pk in accuracy
    ]
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
            "rules": rulesets.described(match.game_rules()),
            "rating_changes": match_rating_changes(match),
            "void_form": ReasonForm(prefix="void") if _voidable(match, request.user) else None,
            "accuracy_players": [names[seat] for seat in analysed],
            "accuracy_rows": accuracy_rows,
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
    players = matches.match_players(match)
    names = [p["name"] for p in players]
    step = _step(request.GET, frames)
    context = {"match": match, "hand": hand, **_replay_context(frames, names, step)}
    if analyses.analysis_access(match=match, user=request.user):
        mine = {p["position"] for p in players if p["user_id"] == request.user.pk}
        context.update(pages.replay_analysis(analyses.hand_analysis(hand=hand), frames, names, step, mine))
    if request.GET.get("fragment"):
        return render(request, "games/partials/replay_frame.html", context)
    return render(request, "games/replay.html", context)


def _number(value, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def _step(query, frames) -> int:
    """The step asked for: `step=N`, or `trick=N` (the step that shows trick N complete,
    just before it is collected), else the first."""
    trick = _number(query.get("trick"), 0)
    if trick:
        won = [i for i, frame in enumerate(frames) if frame.kind == "trick_won" and frame.info["trick_no"] == trick]
        if won:
            return max(won[0] - 1, 0)
    return max(0, min(_number(query.get("step"), 0), len(frames) - 1))


def _replay_context(frames, names: list[str], step: int) -> dict:
    """One replay step with its coarse neighbours (games/history/steps.py): ← and → move by
    trick, the single-card links step through the chapter shown."""
    where = steps.position(frames, step)
    chapter = where["chapter"]
    collected = frames[chapter.last]
    whole_trick = chapter.kind == steps.TRICK and step == chapter.stop and collected.kind == "trick_won"
    return {
        "step": step,
        "last": len(frames) - 1,
        **where,
        "tricks": [
            {
                "step": chapter.stop,
                "n": chapter.trick_no,
                "winner": names[frames[chapter.last].seat],
                "points": frames[chapter.last].info["points"],
            }
            for chapter in steps.chapters(frames)
            if chapter.kind == steps.TRICK and frames[chapter.last].kind == "trick_won"
        ],
        "trick_winner": {"name": names[collected.seat], "points": collected.info["points"]} if whole_trick else None,
        "names": names,
        **frame_context(frames[step], names),
    }


@login_required
def match_export(request, match_id: int):
    """The match as a versioned JSON file (docs/history.md, "Match files")."""
    match = _match_for(request, match_id)
    document = matches.match_file(match)
    if document is None:
        raise Http404(_("This match has no finished hand yet."))
    response = JsonResponse(document, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="double-up-match-{match.pk}.json"'
    return response


MAX_FILE_BYTES = 2_000_000


@login_required
@require_http_methods(["GET", "POST"])
def replay_upload(request):
    """Open a match file in the replay viewer: checked by folding it through the engine,
    shown, and never stored. Stepping posts the checked document back (no upload again)."""
    if request.method == "GET":
        return render(request, "games/replay_upload.html", {})
    try:
        document = export.check_document(_uploaded(request))
        number = _number(request.POST.get("hand"), 1)
        frames = export.frames_of(document, number)
    except Refusal as refused:
        return render(request, "games/replay_upload.html", {"error": refusal_text(refused)}, status=400)
    names = [str(player.get("name", "")) for player in sorted(document["players"], key=lambda p: p.get("seat", 0))]
    context = {
        "document": document,
        "document_text": json.dumps(document, ensure_ascii=False, separators=(",", ":")),
        "hand_number": number,
        "hand_numbers": [hand["number"] for hand in document["hands"]],
        **_replay_context(frames, names, _step(request.POST, frames)),
    }
    return render(request, "games/replay_upload.html", context)


def _uploaded(request) -> object:
    upload = request.FILES.get("match_file")
    raw = upload.read(MAX_FILE_BYTES + 1) if upload else request.POST.get("document", "").encode()
    if not raw:
        raise export.MatchFileError(gettext_noop("Choose a match file to open."))
    if len(raw) > MAX_FILE_BYTES:
        raise export.MatchFileError(gettext_noop("That file is too large for a match file."))
    try:
        return json.loads(raw)
    except ValueError as error:
        raise export.MatchFileError(gettext_noop("That file is not JSON.")) from error


def profile(request, username):
    person = profile_person(username=username, viewer=request.user)
    if person is None:
        raise Http404(_("No such player."))
    profile_user = person.user
    context = {
        "profile_user": profile_user,
        "is_own_profile": request.user == profile_user,
        # Game statistics (docs/accounts.md), rendered by games/partials/profile_stats.html.
        "stats": (stats := profile_stats(profile_user, record=person.record)),
        "rating": person.rating,
        # Whether the reader follows or blocks this player, and whether they follow back.
        **person.relation,
        "provisional_under": maths.PROVISIONAL_MATCHES,
        **_charts(profile_user, stats["levels_per_hand"]),
    }
    return render(request, "accounts/profile.html", context)


def _charts(user, levels: list[int]) -> dict:
    """The profile's pictures, laid out here and drawn as SVG by games/partials/chart.html."""
    series, before = rating_series(user)
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


@require_POST
@moderator_required
def match_void(request, match_id: int):
    """A moderator voids a rated match from its page, which shows the form (docs/ratings.md)."""
    form = ReasonForm(request.POST, prefix="void")
    perform(
        request,
        form,
        lambda f: voids.match_void(moderator=request.user, match_id=match_id, reason=f.cleaned_data["reason"]),
        _("The match is void: ratings were recomputed without it."),
    )
    return redirect("match_detail", match_id=match_id)
