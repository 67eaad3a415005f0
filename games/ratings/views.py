"""The leaderboard page: all time, or the last 30 days by rating gained (docs/ratings.md)."""

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils import timezone

from games.ratings import maths, selectors

PER_PAGE = 50
PERIODS = ("all", "30d")


def leaderboard(request):
    period = request.GET.get("period") if request.GET.get("period") in PERIODS else "all"
    rows = selectors.leaderboard_all_time() if period == "all" else selectors.leaderboard_recent(now=timezone.now())
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/leaderboard.html",
        {
            "page": page,
            "period": period,
            "first_rank": page.start_index(),
            "days": selectors.RECENT_DAYS,
            "provisional_under": maths.PROVISIONAL_MATCHES,
        },
    )
