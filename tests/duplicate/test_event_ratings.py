"""Rated events (docs/ratings.md): when the last round ends, each board rates, per
direction, the people's sides that played it, ranked by their result, as one game of the
rating library; the replay rebuilds exactly that, also after a moderator's adjustment."""

from datetime import timedelta

import pytest
from openskill.models import PlackettLuce

from games.boards.ranking import board_rankings
from games.duplicate import service
from games.duplicate.models import BoardResult, Entry, Event, EventRound, EventTable
from games.models import DomainEvent, Hand, Table
from games.ratings.models import RatedMatch, Rating, RatingChange
from games.ratings.selectors import ratings_snapshot, snapshot_differences
from games.ratings.service import ratings_replay
from games.runtime import outbox
from tests.conftest import make_moderator, make_user
from tests.duplicate.events import an_event, pairs_entered
from tests.duplicate.test_event_run import hand_score, play_round

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def _scores(board) -> list:
    return [(r.event_table.seats, r.board.dealer, r.scored_score, r.scored_level_change) for r in board.results.all()]


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


def test_a_finished_rated_event_rates_each_board_as_the_library_does(settings, django_capture_on_commit_callbacks):
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
        # The ratings replay once the adjustment has committed (its "result adjusted").
        with django_capture_on_commit_callbacks(execute=True):
            service.result_adjust(moderator=moderator, result_id=result.pk, defenders_score=score, reason="a revoke")
        if board_rankings(board) != ranked:
            break
    else:  # (it has failed now and then: which of the two, when it does, says where to look)
        pytest.fail(f"neither score changed the ranking {ranked}: results {_scores(board)}")
    adjusted = ratings_snapshot()
    assert adjusted != stored, f"the ranking went from {ranked} to {board_rankings(board)}, the ratings stayed"
    ratings_replay()
    assert snapshot_differences(adjusted, ratings_snapshot()) == 0


def test_an_events_end_and_its_rating_follow_the_last_board_once_even_when_no_delivery_ran(settings, monkeypatch):
    """The round's end, the event's end and its rating are the events' and the ratings'
    subscribers (games/duplicate/table_boards.py, games/ratings/service.py), chained by the
    domain events each publishes: with every delivery after its commit cut short (the
    process died there), nothing follows; the sweep then finishes the chain, once."""
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    event = an_event(name="Cut short", rated=True)
    pairs_entered(event, [make_user(f"cut{i}") for i in range(6)])
    service.event_start_round(event_id=event.pk)
    with monkeypatch.context() as cut:
        cut.setattr(outbox, "deliver", lambda event_ids: None)
        play_round(EventRound.objects.get(event=event))

    assert all(at.table.status == Table.Status.FINISHED for at in EventTable.objects.filter(round__event=event))
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    assert not EventRound.objects.filter(event=event, finished_at__isnull=False).exists()
    assert not RatedMatch.objects.exists() and not BoardResult.objects.exists()

    outbox.deliver_pending(older_than=timedelta(0))
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    finished = DomainEvent.objects.get(kind=DomainEvent.Kind.EVENT_FINISHED)
    assert finished.facts == {"event": event.pk} and finished.delivered_at is not None
    rated = ratings_snapshot()
    assert RatedMatch.objects.count() == 1 and set(expected_ratings(event)) == set(
        RatingChange.objects.values_list("user_id", flat=True)
    )

    DomainEvent.objects.update(delivered_at=None)  # delivered again, by whoever: nothing twice
    outbox.deliver_pending(older_than=timedelta(0))
    assert RatedMatch.objects.count() == 1 and DomainEvent.objects.filter(kind="event_finished").count() == 1
    assert snapshot_differences(rated, ratings_snapshot()) == 0
