"""A player's statistics for the profile page (STYLE: a selector; docs/history.md).

Definitions:
* matches played: matches the user sat in that were played to the end (not aborted,
  not running); matches won: those their team won;
* hands as dealer: finished hands in which the user's own seat was the dealer;
* hands as defender: finished hands in which the user's team did not deal;
* record as dealer: of the hands the user's team dealt, those it kept the deal in (its
  own level change, RULES §7.2) and those it lost; as defender: of the hands it defended,
  those it took the deal over in, and those the dealers kept;
* kitty bonuses (RULES §6): won when the user's team defended and took the last trick
  with a bonus, conceded when it dealt and the defenders did; count and points;
* failed throws: the user's throws that the other hands could beat (RULES §5.3);
* average defenders' score: over the hands the user defended (None when none);
* current level: the user's team's level in their latest match (after its last
  finished hand); best level: the highest level their team reached after any hand;
* partners and opponents: the people met most often in finished matches at public
  tables (a profile is public: who plays with whom at private tables stays off it);
* recent matches: the latest five at public tables.
Only finished hands count; a running hand's numbers are not known yet anyway.
"""

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User  # settings.AUTH_USER_MODEL (the default)
from django.db.models import Exists, OuterRef, Subquery

from games.friends.models import Block, Follow
from games.history.matches import START_LEVELS, match_rows, user_matches
from games.history.models import HandRecord
from games.history.seats import seat_summary
from games.models import Hand
from games.ratings.models import Rating

RECENT_MATCHES = 5
PEOPLE_SHOWN = 5


def profile_stats(user, *, record: HandRecord | None = None) -> dict:
    """`record`: the user's hand record when the caller has read it already (the profile
    view reads it with the user); None reads it here."""
    seats = seat_summary(user, recent=RECENT_MATCHES, shown=PEOPLE_SHOWN)
    counts = _hand_counts(user, record)
    latest, recent = _latest_and_recent(user, seats["picked"])
    return {
        "matches_played": seats["played"],
        "matches_won": seats["won"],
        "failed_throws": seats["failed_throws"] or 0,
        "hands_as_dealer": counts["as_dealer"],
        "hands_as_defender": counts["as_defender"],
        "defenders_average": (
            round(counts["defenders_average"], 1) if counts["defenders_average"] is not None else None
        ),
        "as_dealer": {"hands": counts["dealt"], "kept": counts["kept"], "lost": counts["dealt"] - counts["kept"]},
        "as_defender": {
            "hands": counts["as_defender"],
            "took_over": counts["took_over"],
            "held": counts["as_defender"] - counts["took_over"],
        },
        "kitty": {
            "won": counts["kitty_won"],
            "won_points": counts["kitty_won_points"] or 0,
            "conceded": counts["kitty_conceded"],
            "conceded_points": counts["kitty_conceded_points"] or 0,
        },
        "current_level": latest[0]["our_level"] if latest else None,
        "best_level": counts["best_level"] or (START_LEVELS["0"] if latest else None),
        "levels_per_hand": counts["levels_per_hand"],
        "recent_matches": recent,
        "partners": seats["partners"],
        "opponents": seats["opponents"],
    }


@dataclass
class ProfilePerson:
    """A profile's player and what the page says about them, read in one query."""

    user: User
    record: HandRecord  # their hand record (an empty one when they have none)
    rating: Rating | None
    relation: dict  # for another logged-in reader: following, followed_back, blocking


def profile_person(*, username: str, viewer) -> ProfilePerson | None:
    """The active user shown at /accounts/u/<username>/ (as accounts' `user_public_get`),
    or None; with their HandRecord, Rating and, for another logged-in reader, whether the
    reader follows them, they follow the reader back and the reader blocks them."""
    people = get_user_model().objects.filter(username=username, is_active=True)
    if viewer.is_authenticated:
        people = people.annotate(
            viewer_follows=Exists(Follow.objects.filter(follower_id=viewer.pk, followed=OuterRef("pk"))),
            follows_viewer=Exists(Follow.objects.filter(follower=OuterRef("pk"), followed_id=viewer.pk)),
            viewer_blocks=Exists(Block.objects.filter(blocker_id=viewer.pk, blocked=OuterRef("pk"))),
        )
    user = people.select_related("hand_record", "rating").first()
    if user is None:
        return None
    relation = (
        {"following": "viewer_follows", "followed_back": "follows_viewer", "blocking": "viewer_blocks"}
        if viewer.is_authenticated and viewer.pk != user.pk
        else {}
    )
    # A missing reverse one-to-one row raises on access: getattr's default reads it as none.
    return ProfilePerson(
        user=user,
        record=getattr(user, "hand_record", None) or HandRecord(user=user),
        rating=getattr(user, "rating", None),
        relation={key: getattr(user, annotation) for key, annotation in relation.items()},
    )


def _latest_and_recent(user, ids: list[int]) -> tuple[list[dict], list[dict]]:
    """The user's latest match (its level is the "current level") and the latest
    RECENT_MATCHES at public tables, from their ids (`seat_summary`'s "picked": the latest
    match, and the latest RECENT_MATCHES of each kind of table) in one page of rows."""
    # A profile is public: private tables' matches (who played with whom) stay off it.
    first_hand = (
        Hand.objects.filter(match=OuterRef("pk"), finished_at__isnull=False).order_by("number").values("pk")[:1]
    )
    rows = match_rows(user_matches(user=user).filter(pk__in=ids).annotate(first_hand=Subquery(first_hand)), user=user)
    recent = [row for row in rows if not row["match"].table.is_private][:RECENT_MATCHES]
    return rows[:1], recent  # newest first: the first row is the latest match


def _hand_counts(user, record: HandRecord | None = None) -> dict:
    """Every per-hand number of the profile, from the player's hand record: the write path
    adds each scored hand to it (games/history/hand_records.py), so a busy player's
    thousands of hands are not read again for each visit."""
    if record is None:
        record = HandRecord.objects.filter(user=user).first() or HandRecord(user=user)
    return {
        **{key: getattr(record, key) for key in ("as_dealer", "as_defender", "dealt", "kept", "took_over")},
        **{key: getattr(record, key) for key in ("kitty_won", "kitty_won_points", "kitty_conceded")},
        "kitty_conceded_points": record.kitty_conceded_points,
        "defenders_average": record.defended_points / record.as_defender if record.as_defender else None,
        "best_level": record.best_level or None,
        "levels_per_hand": list(record.latest_levels),
    }


def levels_per_hand(user) -> list[int]:
    """The levels each of the user's latest hands moved (at most LATEST_LEVELS), oldest
    first: + the user's team went up (or kept the deal), − the other team did (RULES §7.2)."""
    return _hand_counts(user)["levels_per_hand"]
