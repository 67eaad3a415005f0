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

from django.db.models import Avg, Count, F, IntegerField, OuterRef, Q, Subquery, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Mod

from games.engine import RANKS, team_of
from games.history.matches import START_LEVELS, match_rows, user_matches
from games.models import Hand, MatchPlayer

RECENT_MATCHES = 5
LEVEL_HANDS = 40  # the levels-per-hand chart: the latest hands
PEOPLE_SHOWN = 5


def _hands(user):
    """The user's finished hands, each with the user's seat and team and the dealing team."""
    return (
        Hand.objects.filter(finished_at__isnull=False, match__seating__user=user)
        .annotate(my_seat=F("match__seating__position"))
        .annotate(
            my_team=Mod("my_seat", 2),
            dealer_team=Mod("dealer", 2),
            gaining_team=Cast(KeyTextTransform("team", "level_change"), IntegerField()),
        )
    )


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
    hands = _hands(user)
    dealing, defending = Q(dealer_team=F("my_team")), ~Q(dealer_team=F("my_team"))
    we_gain, bonus = Q(gaining_team=F("my_team")), Q(kitty_bonus__gt=0)
    counts = hands.aggregate(
        as_dealer=Count("pk", filter=Q(dealer=F("my_seat"))),
        as_defender=Count("pk", filter=defending),
        defenders_average=Avg("defenders_score", filter=defending),
        dealt=Count("pk", filter=dealing),
        kept=Count("pk", filter=dealing & we_gain),
        took_over=Count("pk", filter=defending & we_gain),
        kitty_won=Count("pk", filter=defending & bonus),
        kitty_won_points=Sum("kitty_bonus", filter=defending & bonus),
        kitty_conceded=Count("pk", filter=dealing & bonus),
        kitty_conceded_points=Sum("kitty_bonus", filter=dealing & bonus),
    )
    reached = {
        levels[str(team_of(team))]
        for levels, team in hands.values_list("levels_after", "my_seat")
        if levels is not None  # set when a hand is scored, with finished_at
    }
    latest = match_rows(user_matches(user=user)[:1], user=user)
    # A profile is public: private tables' matches (who played with whom) stay off it.
    first_hand = (
        Hand.objects.filter(match=OuterRef("pk"), finished_at__isnull=False).order_by("number").values("pk")[:1]
    )
    recent = match_rows(
        user_matches(user=user)
        .filter(table__is_private=False)
        .annotate(first_hand=Subquery(first_hand))[:RECENT_MATCHES],
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
        "best_level": max(reached, key=RANKS.index) if reached else (START_LEVELS["0"] if latest else None),
        "recent_matches": recent,
        **people_met(user),
    }


def levels_per_hand(user, *, hands: int = LEVEL_HANDS) -> list[int]:
    """The levels each of the user's latest hands moved, oldest first: + the user's team
    went up (or kept the deal), − the other team did (RULES §7.2)."""
    rows = list(
        _hands(user)
        .filter(level_change__isnull=False)
        .order_by("-finished_at", "-pk")
        .values_list("level_change", "my_team")[:hands]
    )  # level_change is set with finished_at
    return [change["levels"] if change["team"] == team else -change["levels"] for change, team in reversed(rows)]


def people_met(user) -> dict:
    """Favourite partners and most-met opponents, in finished matches at public tables."""
    mine = MatchPlayer.objects.filter(
        user=user, match__table__is_private=False, match__aborted=False, match__winner_team__isnull=False
    )
    my_position = MatchPlayer.objects.filter(match=OuterRef("match"), user=user).values("position")[:1]
    others = (
        MatchPlayer.objects.filter(match__in=mine.values("match"), user__isnull=False)
        .exclude(user=user)
        .annotate(my_team=Mod(Subquery(my_position), 2), their_team=Mod("position", 2))
    )

    def ranked(rows):
        return list(
            rows.values("user__username")
            .annotate(matches=Count("pk"), won=Count("pk", filter=Q(match__winner_team=F("my_team"))))
            .order_by("-matches", "user__username")[:PEOPLE_SHOWN]
        )

    return {
        "partners": ranked(others.filter(their_team=F("my_team"))),
        "opponents": ranked(others.exclude(their_team=F("my_team"))),
    }
