"""Rating reads (STYLE: selectors): a match's rating changes, a player's rating, the
leaderboard."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Count, F, Sum, Window

from games.models import Match
from games.ratings import maths
from games.ratings.models import Rating, RatingChange


def match_rating_changes(match: Match | None) -> list[dict]:
    """What the end-of-match screen says of each rated player: "+14, now 1032"."""
    if match is None or not match.rated:
        return []
    changes = RatingChange.objects.filter(rated_match__match=match, rated_match__voided=False).select_related("user")
    return [
        {
            "name": change.user.username,
            "position": change.position,
            "delta": change.delta,
            "after": change.display_after,
            "provisional": change.matches_after < maths.PROVISIONAL_MATCHES,
            "provisional_under": maths.PROVISIONAL_MATCHES,
        }
        for change in changes.order_by("position")
    ]


def table_rating_changes(table) -> list[dict]:
    """The rating changes of the table's latest match (its end-of-match screen)."""
    return match_rating_changes(table.matches.order_by("-number").first())


CHANGE_FIELDS = (
    "position",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "display_before",
    "display_after",
    "matches_after",
    "factor",
    "rated_at",
)
RATING_FIELDS = ("mu", "sigma", "display", "matches", "rated_at")


def ratings_snapshot() -> dict:
    """Every stored rating value, exactly (for `ratings_rebuild` and its test)."""
    return {
        "ratings": {row[0]: row[1:] for row in Rating.objects.values_list("pk", *RATING_FIELDS)},
        "changes": {
            (row[0], row[1]): row[2:]
            for row in RatingChange.objects.values_list("rated_match_id", "user_id", *CHANGE_FIELDS)
        },
    }


def snapshot_differences(before: dict, after: dict) -> int:
    """How many stored rows differ (or exist in only one) between two snapshots."""
    return sum(
        len(set(before[kind]) ^ set(after[kind]))
        + sum(1 for key in set(before[kind]) & set(after[kind]) if before[kind][key] != after[kind][key])
        for kind in ("ratings", "changes")
    )


# --- the leaderboard (docs/ratings.md) ----------------------------------------------------

RECENT_DAYS = 30


def leaderboard_all_time():
    """Established players (not provisional) by displayed rating; the `rating_board` index."""
    return (
        Rating.objects.filter(matches__gte=maths.PROVISIONAL_MATCHES, user__is_active=True)
        .order_by("-display", "user_id")
        .values("user_id", "user__username", "display", "matches")
    )


def leaderboard_recent(*, now, days: int = RECENT_DAYS):
    """Established players by the rating they gained in the last `days` days: user ids,
    gain, matches and `total` (how many players the whole board lists), aggregated from
    the `rating_change_recent` index alone (names and ratings are added to one page's rows
    by `with_names`). Slice it: the database then sums once, counts the players with a
    window and returns only that page's rows (`RecentBoard`)."""
    # Every player with a rating change has a Rating row (the service and the replay keep
    # both), so "established" is "not provisional and not inactive": the few to leave out
    # are hashed, instead of joining every established player to every change.
    provisional = Rating.objects.filter(matches__lt=maths.PROVISIONAL_MATCHES).values("pk")
    inactive = get_user_model().objects.filter(is_active=False).values("pk")
    return (
        RatingChange.objects.filter(rated_at__gte=now - timedelta(days=days))
        .exclude(user_id__in=provisional)
        .exclude(user_id__in=inactive)
        .values("user_id")
        # COUNT(*), not of ids: the rows are counted from the index alone (an index-only scan).
        .annotate(gain=Sum(F("display_after") - F("display_before")), played=Count("*"), total=Window(Count("*")))
        .order_by("-gain", "user_id")
    )


class RecentBoard:
    """`leaderboard_recent` for a Paginator, one query per page shown: that page's rows
    and the board's length together (a count and a page query would each sum the whole
    period; summing once and paging in Python carried ~10,000 rows into Python).

    `first_offset` is the page the request asks for, fetched first; a page out of range
    (no rows, so no count) asks again from the top, as the paginator then shows the last."""

    def __init__(self, *, now, per_page: int, first_offset: int = 0):
        self._query = leaderboard_recent(now=now)
        self._per_page = per_page
        self._first_offset = first_offset
        self._pages: dict[int, list[dict]] = {}
        self._total: int | None = None

    def _fetch(self, offset: int) -> list[dict]:
        if offset not in self._pages:
            rows = list(self._query[offset : offset + self._per_page])
            self._pages[offset] = rows
            if rows:
                self._total = rows[0]["total"]
        return self._pages[offset]

    def count(self) -> int:
        self._fetch(self._first_offset)
        if self._total is None and self._first_offset:
            self._fetch(0)
        return self._total or 0

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, window: slice) -> list[dict]:
        start = window.start or 0
        return self._fetch(start)[: window.stop - start]


def with_names(rows) -> list[dict]:
    """`leaderboard_recent` rows with each player's name and current rating."""
    rows = list(rows)
    found = {
        pk: (name, display)
        for pk, name, display in Rating.objects.filter(pk__in=[row["user_id"] for row in rows]).values_list(
            "pk", "user__username", "display"
        )
    }
    # Every player with a change has a rating (leaderboard_recent); a row without one is skipped, not a crash.
    return [
        dict(row, user__username=found[row["user_id"]][0], display=found[row["user_id"]][1])
        for row in rows
        if row["user_id"] in found
    ]


def rating_series(user, *, limit: int = 200) -> tuple[list[int], int]:
    """The user's displayed rating before their first charted rated match and after each
    one (the latest `limit`), and the number of rated matches before the first value."""
    changes = list(
        RatingChange.objects.filter(user=user)
        .order_by("-rated_match_id")
        .values_list("display_before", "display_after", "matches_after")[:limit]
    )[::-1]
    if not changes:
        return [], 0
    return [changes[0][0]] + [after for _before, after, _n in changes], changes[0][2] - 1
