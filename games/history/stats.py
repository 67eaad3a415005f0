"""A player's statistics for the profile page (STYLE: a selector; docs/history.md).

Definitions:
* matches played: matches the user sat in that were played to the end (not aborted,
  not running); matches won: those their team won;
* hands as dealer: finished hands in which the user's own seat was the dealer;
* hands as defender: finished hands in which the user's team did not deal;
* average defenders' score: over the hands the user defended (None when none);
* current level: the user's team's level in their latest match (after its last
  finished hand); best level: the highest level their team reached after any hand;
* recent matches: the latest five at public tables (a profile is public).
Only finished hands count; a running hand's numbers are not known yet anyway.
"""

from django.db.models import Avg, Count, F, Q
from django.db.models.functions import Mod

from games.engine import RANKS, team_of
from games.history.matches import START_LEVELS, match_rows, user_matches
from games.models import Hand, MatchPlayer

RECENT_MATCHES = 5


def profile_stats(user) -> dict:
    matches = MatchPlayer.objects.filter(user=user, match__aborted=False, match__winner_team__isnull=False).aggregate(
        played=Count("match", distinct=True),
        won=Count("match", distinct=True, filter=Q(match__winner_team=Mod(F("position"), 2))),
    )
    hands = (
        Hand.objects.filter(finished_at__isnull=False, match__seating__user=user)
        .annotate(my_seat=F("match__seating__position"))
        .annotate(my_team=Mod("my_seat", 2), dealer_team=Mod("dealer", 2))
    )
    counts = hands.aggregate(
        as_dealer=Count("pk", filter=Q(dealer=F("my_seat"))),
        as_defender=Count("pk", filter=~Q(dealer_team=F("my_team"))),
        defenders_average=Avg("defenders_score", filter=~Q(dealer_team=F("my_team"))),
    )
    reached = {
        levels[str(team_of(team))]
        for levels, team in hands.values_list("levels_after", "my_seat")
        if levels is not None  # set when a hand is scored, with finished_at
    }
    latest = match_rows(user_matches(user=user)[:1], user=user)
    # A profile is public: private tables' matches (who played with whom) stay off it.
    recent = match_rows(user_matches(user=user).filter(table__is_private=False)[:RECENT_MATCHES], user=user)
    return {
        "matches_played": matches["played"],
        "matches_won": matches["won"],
        "hands_as_dealer": counts["as_dealer"],
        "hands_as_defender": counts["as_defender"],
        "defenders_average": (
            round(counts["defenders_average"], 1) if counts["defenders_average"] is not None else None
        ),
        "current_level": latest[0]["our_level"] if latest else None,
        "best_level": max(reached, key=RANKS.index) if reached else (START_LEVELS["0"] if latest else None),
        "recent_matches": recent,
    }
