"""Rated events (docs/ratings.md): when the last round ends, each board rates, per
direction, the people's sides that played it, ranked by their result, as one game of the
rating library; the replay rebuilds exactly that, also after a moderator's adjustment."""

import pytest
from openskill.models import PlackettLuce

from games.duplicate import service
from games.duplicate.models import Entry, Event, EventRound, EventTable
from games.duplicate.ranking import board_rankings
from games.models import Hand
from games.ratings.models import RatedMatch, Rating, RatingChange
from games.ratings.selectors import ratings_snapshot, snapshot_differences
from games.ratings.service import ratings_replay
from tests.conftest import make_moderator, make_user
from tests.duplicate.events import an_event, pairs_entered
from tests.duplicate.test_event_run import hand_score, play_round

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def expected_ratings(event) -> dict[int, tuple[float, float]]:
    """Each rated person's (μ, σ), from the hands' own records and the library called here:
    per direction, the pairs that sat it (not the bots), ranked by (levels won, points)."""
    played = [
        (at.seats, hand)
        for at in EventTable.objects.filter(round__event=event)
        for hand in Hand.objects.filter(match__table=at.table, finished_at__isnull=False)
    ]
    model, expected = PlackettLuce(), {}
    for team in (0, 1):
        sides = []
        for seats, hand in played:
            if seats[team] is None:
                continue
            entry = Entry.objects.get(pk=seats[team])
            sides.append(([entry.player_id, entry.partner_id], hand_score(hand, team)))
        if len(sides) < 2:
            continue
        ranks = [1 + sum(other > mine for _people, other in sides) for _people, mine in sides]
        rated = model.rate([[model.rating() for _ in people] for people, _score in sides], ranks=ranks)
        for (people, _score), team_after in zip(sides, rated):
            expected.update({user: (after.mu, after.sigma) for user, after in zip(people, team_after)})
    return expected


def test_a_finished_rated_event_rates_each_board_as_the_library_does(settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    event = an_event(name="Rated pairs", rated=True)
    people = [make_user(f"rated{i}") for i in range(6)]
    pairs_entered(event, people)  # three pairs: two tables, one pair against bots
    service.event_start_round(event_id=event.pk)
    assert not RatingChange.objects.exists()  # not before the event is over
    play_round(EventRound.objects.get(event=event))
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED

    expected = expected_ratings(event)
    assert len(expected) == 4  # the direction the bots sat: one people's side, nothing rated
    entry = RatedMatch.objects.get()
    assert (entry.event_board, entry.match) == (event.boards.get(), None)
    changes = {c.user_id: c for c in RatingChange.objects.filter(rated_match=entry)}
    assert set(changes) == set(expected)
    for user_id, (mu, sigma) in expected.items():
        assert (changes[user_id].mu_after, changes[user_id].sigma_after) == pytest.approx((mu, sigma))
        rating = Rating.objects.get(pk=user_id)
        assert (rating.mu, rating.sigma, rating.matches) == pytest.approx((mu, sigma, 1))

    stored = ratings_snapshot()
    assert ratings_replay() == 1 and snapshot_differences(stored, ratings_snapshot()) == 0
    # A moderator's adjustment after the event re-rates it: the history stays a pure function.
    board = event.boards.get()
    result = next(r for r in board.results.all() if None not in r.event_table.seats)  # two pairs
    ranked = board_rankings(board)
    moderator = make_moderator()
    for score in (0, 1000):  # the defenders' worst and best: one of them changes the order
        service.result_adjust(moderator=moderator, result_id=result.pk, defenders_score=score, reason="a revoke")
        if board_rankings(board) != ranked:
            break
    adjusted = ratings_snapshot()
    assert adjusted != stored
    ratings_replay()
    assert snapshot_differences(adjusted, ratings_snapshot()) == 0
