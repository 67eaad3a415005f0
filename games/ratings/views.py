"""The leaderboard page: all time, or the last 30 days by rating gained (docs/ratings.md)."""

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils import timezone

from games.ratings import maths, selectors

PER_PAGE = 50
PERIODS = ("all", "30d")


def leaderboard(request):
    period = request.GET.get("period") if request.GET.get("period") in PERIODS else "all"
    if period == "all":
        rows = selectors.leaderboard_all_time()  # an index scan: the database pages it
    else:
        rows = selectors.RecentBoard(now=timezone.now(), per_page=PER_PAGE, first_offset=_offset(request))
    page = Paginator(rows, PER_PAGE).get_page(request.GET.get("page"))
    if period != "all":
        page.object_list = selectors.with_names(page.object_list)
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


def _offset(request) -> int:
    """The first row of the page asked for (Paginator.get_page decides what is shown: a
    page it corrects is fetched again)."""
    try:
        number = int(request.GET.get("page", 1))
    except ValueError:
        return 0
    return (number - 1) * PER_PAGE if number > 1 else 0
