"""Rating writes (docs/ratings.md): a rated match's update, called by the write path's
records (games/runtime/records.py) inside the transaction that records the match's end,
and the replay that recomputes ratings from the history (a void, `ratings_rebuild`).

Both go through `_rate_entry`, so a replay computes exactly what the live update did.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import OuterRef, Subquery

from games.models import Match
from games.ratings import maths
from games.ratings.eligibility import lineup_key, losing_team
from games.ratings.models import RatedMatch, Rating, RatingChange

WINDOW = timedelta(hours=maths.REPEAT_WINDOW_HOURS)


@dataclass
class Standing:
    skill: maths.Skill
    matches: int


NEWCOMER = Standing(maths.initial(), 0)


@transaction.atomic  # the records' transaction, when the write path calls it
def match_rate(*, match: Match, now) -> RatedMatch | None:
    """Rate a match that just ended, if it is rated; inside the caller's transaction."""
    losing = losing_team(match)
    if not match.rated or losing is None or RatedMatch.objects.filter(match=match).exists():
        return None
    seats = _seats(match)
    if seats is None:
        return None
    ratings = _locked(list(seats.values()))
    entry = RatedMatch.objects.create(match=match, lineup=lineup_key(seats.values()), rated_at=now)
    # The same four within the window before, in the order ratings were applied (the id):
    # _replay counts the same rows in memory.
    repeats = RatedMatch.objects.filter(
        lineup=entry.lineup, voided=False, pk__lt=entry.pk, rated_at__gte=now - WINDOW
    ).count()
    state = {
        user_id: Standing(maths.Skill(rating.mu, rating.sigma), rating.matches) if rating else NEWCOMER
        for user_id, rating in ratings.items()
    }
    changes = _rate_entry(entry, seats, losing, state, repeats)
    RatingChange.objects.bulk_create(changes)
    _store(state, now={change.user_id: change.rated_at for change in changes})
    return entry


def _seats(match: Match) -> dict[int, int] | None:
    """Who sat where, by user id; None when a seat has no account (deleted mid-match)."""
    seats = {player.position: player.user_id for player in match.seating.all()}
    if len(seats) != 4 or any(user_id is None for user_id in seats.values()):
        return None
    return {position: user_id for position, user_id in seats.items() if user_id is not None}


def _locked(user_ids: list[int]) -> dict[int, Rating | None]:
    """The players' rating rows, locked in id order (one lock order for every caller)."""
    rows = {r.pk: r for r in Rating.objects.select_for_update().filter(pk__in=user_ids).order_by("pk")}
    return {user_id: rows.get(user_id) for user_id in user_ids}


def _rate_entry(entry, seats: dict[int, int], losing: int, state: dict[int, Standing], repeats: int):
    """The library's update for one rated match (winners first), applied to `state`; the
    RatingChange rows that record it."""
    factor = maths.repeat_factor(repeats)
    teams = {team: [position for position in sorted(seats) if position % 2 == team] for team in (0, 1)}
    winners, losers = teams[1 - losing], teams[losing]
    new_winners, new_losers = maths.team_update(
        [state[seats[p]].skill for p in winners], [state[seats[p]].skill for p in losers], factor=factor
    )
    changes = []
    for position, skill in zip(winners + losers, new_winners + new_losers):
        user_id = seats[position]
        before = state[user_id]
        after = Standing(skill, before.matches + 1)
        state[user_id] = after
        changes.append(
            RatingChange(
                rated_match=entry,
                user_id=user_id,
                position=position,
                mu_before=before.skill.mu,
                sigma_before=before.skill.sigma,
                mu_after=skill.mu,
                sigma_after=skill.sigma,
                display_before=maths.display(before.skill),
                display_after=maths.display(skill),
                matches_after=after.matches,
                factor=factor,
                rated_at=entry.rated_at,
            )
        )
    return changes


def _store(state: dict[int, Standing], *, now: dict[int, datetime]) -> None:
    """Write each player's current standing (a player with no rated match has no row)."""
    gone = [user_id for user_id, standing in state.items() if standing.matches == 0]
    Rating.objects.filter(pk__in=gone).delete()
    rows = [
        Rating(
            user_id=user_id,
            mu=standing.skill.mu,
            sigma=standing.skill.sigma,
            display=maths.display(standing.skill),
            matches=standing.matches,
            rated_at=now[user_id],
        )
        for user_id, standing in state.items()
        if standing.matches
    ]
    Rating.objects.bulk_create(
        rows,
        batch_size=5000,
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["mu", "sigma", "display", "matches", "rated_at"],
    )


@transaction.atomic
def ratings_replay(*, since: RatedMatch | None = None) -> int:
    """Recompute every rating change from `since` on (None: the whole history) from the
    stored matches, skipping voided ones; the ratings they lead to replace the stored ones.
    Returns how many matches were rated. Runs in the caller's transaction."""
    since_id = since.pk if since else 0
    entries = list(
        RatedMatch.objects.filter(pk__gte=since_id).select_related("match").prefetch_related("match__seating")
    )
    users = {p.user_id for entry in entries for p in entry.match.seating.all() if p.user_id is not None}
    if since is None:
        users |= set(Rating.objects.values_list("pk", flat=True))
    _locked(sorted(users))
    RatingChange.objects.filter(rated_match_id__gte=since_id).delete()
    state, last_at = _standings_before(since_id, users)
    recent = _recent_lineups(since_id, entries)
    rated, changed = 0, []
    for entry in entries:
        if entry.voided:
            continue
        seats = _seats(entry.match)
        losing = losing_team(entry.match)
        if losing is None or seats is None:  # as match_rate would not rate it
            continue
        earlier = recent.setdefault(entry.lineup, [])
        repeats = sum(1 for at in earlier if at >= entry.rated_at - WINDOW)
        changes = _rate_entry(entry, seats, losing, state, repeats)
        changed += changes
        earlier.append(entry.rated_at)
        last_at.update({change.user_id: change.rated_at for change in changes})
        rated += 1
    RatingChange.objects.bulk_create(changed, batch_size=5000)  # one trip per 5000 rows, not per match
    _store(state, now=last_at)
    return rated


def _standings_before(since_id: int, users: set[int]) -> tuple[dict[int, Standing], dict[int, datetime]]:
    """Each user's standing after their last rated match before `since_id` (or a newcomer's)."""
    state = {user_id: NEWCOMER for user_id in users}
    last_at: dict[int, datetime] = {}
    latest = (
        RatingChange.objects.filter(user_id=OuterRef("user_id"), rated_match_id__lt=since_id)
        .order_by("-rated_match_id")
        .values("pk")[:1]
    )
    earlier = RatingChange.objects.filter(user_id__in=users, rated_match_id__lt=since_id, pk=Subquery(latest))
    for change in earlier:
        state[change.user_id] = Standing(maths.Skill(change.mu_after, change.sigma_after), change.matches_after)
        last_at[change.user_id] = change.rated_at
    return state, last_at


def _recent_lineups(since_id: int, entries: list[RatedMatch]) -> dict[str, list]:
    """Line-ups rated (not voided) before `since_id` recently enough to count as repeats."""
    if not since_id or not entries:
        return {}
    oldest = min(entry.rated_at for entry in entries) - WINDOW
    recent: dict[str, list] = {}
    rows = RatedMatch.objects.filter(pk__lt=since_id, voided=False, rated_at__gte=oldest).values_list(
        "lineup", "rated_at"
    )
    for lineup, rated_at in rows:
        recent.setdefault(lineup, []).append(rated_at)
    return recent
