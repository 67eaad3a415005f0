"""Rating writes (docs/ratings.md): a rated match's update, once the match's end has
committed (a subscriber of the table's "match ended", games/runtime/outbox.py), and the replay that recomputes ratings from the history (a void, `ratings_rebuild`).

Both go through `_rate_entry`, so a replay computes exactly what the live update did.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import OuterRef, Subquery

from games.boards.ranking import Ranking, board_rankings
from games.duplicate.models import Event
from games.models import DomainEvent, Match
from games.ratings import maths
from games.ratings.eligibility import lineup_key, losing_team
from games.ratings.models import RatedMatch, Rating, RatingChange
from games.runtime.outbox import subscribe

WINDOW = timedelta(hours=maths.REPEAT_WINDOW_HOURS)


@dataclass
class Standing:
    skill: maths.Skill
    matches: int


NEWCOMER = Standing(maths.initial(), 0)


@subscribe(DomainEvent.Kind.MATCH_ENDED, "ratings.match")
def on_match_ended(event: DomainEvent) -> None:
    assert event.match is not None  # a table's event
    match_rate(match=event.match, now=event.created_at)


@subscribe(DomainEvent.Kind.EVENT_FINISHED, "ratings.event")
def on_event_finished(event: DomainEvent) -> None:
    event_rate(event=Event.objects.get(pk=event.facts["event"]), now=event.created_at)


@subscribe(DomainEvent.Kind.RESULT_ADJUSTED, "ratings.adjusted")
def on_result_adjusted(event: DomainEvent) -> None:
    """A rated event already rated with the old result: its boards and every later rated
    game are replayed, as if it had been scored so (docs/ratings.md)."""
    first = RatedMatch.objects.filter(event_board__event_id=event.facts["event"]).order_by("pk").first()
    if first is not None:
        ratings_replay(since=first)


@transaction.atomic  # the delivery's transaction (games/runtime/outbox.py), or a rebuild's
def match_rate(*, match: Match, now) -> RatedMatch | None:
    """Rate a match that just ended, if it is rated."""
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
    state = _standings(ratings)
    changes = _rate_entry(entry, seats, losing, state, repeats)
    RatingChange.objects.bulk_create(changes)
    _store(state, now={change.user_id: change.rated_at for change in changes})
    return entry


@transaction.atomic  # the delivery's transaction, once the event has finished
def event_rate(*, event: Event, now) -> list[RatedMatch]:
    """Rate a rated event that just finished: board by board in their order, each ranking
    the people's sides of each direction (games/boards/ranking.py) as one game. A board
    that ranks nobody makes no entry."""
    if not event.rated or RatedMatch.objects.filter(event_board__event=event).exists():
        return []
    boards = [(board, board_rankings(board)) for board in event.boards.order_by("number")]
    boards = [(board, rankings) for board, rankings in boards if rankings]
    state = _standings(_locked(sorted({user_id for _b, rankings in boards for user_id in _people(rankings)})))
    entries, changes = [], []
    for board, rankings in boards:
        entry = RatedMatch.objects.create(event_board=board, lineup="", rated_at=now)
        changes += _rate_board(entry, rankings, state)
        entries.append(entry)
    RatingChange.objects.bulk_create(changes)
    _store(state, now={change.user_id: change.rated_at for change in changes})
    return entries


def _people(rankings: list[Ranking]) -> set[int]:
    return {user_id for ranking in rankings for side in ranking.sides for _seat, user_id in side}


def _standings(ratings: dict[int, Rating | None]) -> dict[int, Standing]:
    return {
        user_id: Standing(maths.Skill(rating.mu, rating.sigma), rating.matches) if rating else NEWCOMER
        for user_id, rating in ratings.items()
    }


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
    teams = {team: [(p, seats[p]) for p in sorted(seats) if p % 2 == team] for team in (0, 1)}
    return _rate_teams(entry, [teams[1 - losing], teams[losing]], [1, 2], state, maths.repeat_factor(repeats))


def _rate_board(entry, rankings: list[Ranking], state: dict[int, Standing]):
    """The library's update for each direction of an event's board, applied to `state`."""
    return [change for ranking in rankings for change in _rate_teams(entry, ranking.sides, ranking.ranks, state)]


def _rate_teams(entry, teams: list[list[tuple[int, int]]], ranks: list[float], state, factor: float = 1.0):
    """Teams of (position, user id) placed at `ranks` in one game: `state` updated, and the
    RatingChange rows that record it."""
    after = maths.teams_update([[state[user_id].skill for _p, user_id in team] for team in teams], ranks, factor=factor)
    changes = []
    for team, skills in zip(teams, after):
        for (position, user_id), skill in zip(team, skills):
            before = state[user_id]
            state[user_id] = Standing(skill, before.matches + 1)
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
                    matches_after=before.matches + 1,
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
    stored matches and event boards, skipping voided ones; the ratings they lead to
    replace the stored ones. Returns how many were rated. Runs in the caller's transaction."""
    since_id = since.pk if since else 0
    entries = list(
        RatedMatch.objects.filter(pk__gte=since_id)
        .select_related("match", "event_board")
        .prefetch_related("match__seating")
    )
    # An event's board is ranked again from its stored results (a moderator may have adjusted one).
    boards = {entry.pk: board_rankings(entry.event_board) for entry in entries if entry.event_board is not None}
    users = {p.user_id for entry in entries if entry.match for p in entry.match.seating.all() if p.user_id is not None}
    users |= {user_id for rankings in boards.values() for user_id in _people(rankings)}
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
        if entry.event_board is not None:
            changes = _rate_board(entry, boards[entry.pk], state)
        elif (changes := _replay_match(entry, state, recent)) is None:
            continue
        changed += changes
        last_at.update({change.user_id: change.rated_at for change in changes})
        rated += 1
    RatingChange.objects.bulk_create(changed, batch_size=5000)  # one trip per 5000 rows, not per match
    _store(state, now=last_at)
    return rated


def _replay_match(entry: RatedMatch, state: dict[int, Standing], recent: dict[str, list]) -> list | None:
    """A rated match's changes again (None: match_rate would not have rated it)."""
    assert entry.match is not None
    seats = _seats(entry.match)
    losing = losing_team(entry.match)
    if losing is None or seats is None:
        return None
    earlier = recent.setdefault(entry.lineup, [])
    repeats = sum(1 for at in earlier if at >= entry.rated_at - WINDOW)
    earlier.append(entry.rated_at)
    return _rate_entry(entry, seats, losing, state, repeats)


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
    rows = RatedMatch.objects.filter(
        pk__lt=since_id, voided=False, rated_at__gte=oldest, match__isnull=False
    ).values_list("lineup", "rated_at")
    for lineup, rated_at in rows:
        recent.setdefault(lineup, []).append(rated_at)
    return recent
