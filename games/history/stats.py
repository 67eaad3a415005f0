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

from django.db.models import Count, F, OuterRef, Q, Subquery, Sum
from django.db.models.functions import Mod

from games.history.matches import START_LEVELS, latest_matches, match_rows
from games.history.models import HandRecord
from games.models import Hand, MatchPlayer

RECENT_MATCHES = 5
PEOPLE_SHOWN = 5


def profile_stats(user) -> dict:
    matches = MatchPlayer.objects.filter(user=user).aggregate(
        played=Count("match", distinct=True, filter=Q(match__aborted=False, match__winner_team__isnull=False)),
        won=Count(
            "match",
            distinct=True,
            filter=Q(match__aborted=False, match__winner_team=Mod(F("position"), 2)),
        ),
        failed_throws=Sum("failed_throws"),
    )
    counts = _hand_counts(user)
    latest = match_rows(latest_matches(user=user, limit=1), user=user)
    # A profile is public: private tables' matches (who played with whom) stay off it.
    first_hand = (
        Hand.objects.filter(match=OuterRef("pk"), finished_at__isnull=False).order_by("number").values("pk")[:1]
    )
    recent = match_rows(
        latest_matches(user=user, limit=RECENT_MATCHES, public_only=True).annotate(first_hand=Subquery(first_hand)),
        user=user,
    )
    return {
        "matches_played": matches["played"],
        "matches_won": matches["won"],
        "failed_throws": matches["failed_throws"] or 0,
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
        **people_met(user),
    }


def _hand_counts(user) -> dict:
    """Every per-hand number of the profile, from the player's hand record: the write path
    adds each scored hand to it (games/history/hand_records.py), so a busy player's
    thousands of hands are not read again for each visit."""
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


def people_met(user) -> dict:
    """Favourite partners and most-met opponents, in finished matches at public tables:
    each counted and ranked by the database, which returns the five of each shown."""
    return {"partners": _met(user, partners=True), "opponents": _met(user, partners=False)}


def _met(user, *, partners: bool) -> list[dict]:
    # The others at the user's matches; "my_team" reuses the join that found the user's seat.
    others = (
        MatchPlayer.objects.filter(
            match__seating__user=user,
            match__table__is_private=False,
            match__aborted=False,
            match__winner_team__isnull=False,
            user__isnull=False,
        )
        .exclude(user=user)
        .alias(my_team=Mod(F("match__seating__position"), 2), their_team=Mod(F("position"), 2))
    )
    others = others.filter(their_team=F("my_team")) if partners else others.exclude(their_team=F("my_team"))
    counted = (
        others.values("user__username")
        .annotate(matches=Count("id"), won=Count("id", filter=Q(match__winner_team=F("my_team"))))
        .order_by("-matches", "user__username")
    )
    return [dict(row) for row in counted[:PEOPLE_SHOWN]]
