"""What an event's tables cause, subscribed to (games/runtime/outbox.py): a board's result
once a table has scored it ("hand scored"), and the round's end once a table has played its
last board ("boards played"). The round's last table ends the event with its last round,
and "event finished" rates a rated event (games/ratings/service.py).

Which board a table deals next is the write path's own read (games/runtime/event_tables.py).
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.duplicate.changes import event_changed_on_commit
from games.duplicate.models import BoardResult, Event, EventBoard, EventRound
from games.models import DomainEvent, Hand, Table
from games.runtime import outbox
from games.runtime.event_tables import event_table


@outbox.subscribe(DomainEvent.Kind.HAND_SCORED, "duplicate.board_result")
def on_hand_scored(event: DomainEvent) -> None:
    assert event.table is not None  # a table's event
    board_scored(event.table, event.scored_hand(), stand_ins=event.facts["autoplay"])


def board_scored(table: Table, hand: Hand, *, stand_ins: list[int]) -> None:
    """Store an event table's result on the board it just scored (nothing for other tables),
    with the seats a bot was playing for an absent player when it ended (the absence recorded)."""
    at = event_table(table)
    if at is None or hand.number > len(at.boards):
        return
    if hand.defenders_score is None:
        raise ValueError(f"hand {hand.pk} is not scored")
    event_changed_on_commit(at.round.event_id)
    BoardResult.objects.create(
        event_table=at,
        board=EventBoard.objects.get(event_id=at.round.event_id, number=at.boards[hand.number - 1]),
        hand=hand,
        defenders_score=hand.defenders_score,
        level_change=dict(hand.level_change or {}),
        stand_ins=stand_ins,
    )
    if table.status != Table.Status.PLAYING:  # (the delivery read the row after its commit)
        # Delivered after its table's "boards played" (a sweep after a crash): the round's
        # end waited for this result.
        round_end_check(at.round, hand.finished_at or timezone.now())


@outbox.subscribe(DomainEvent.Kind.BOARDS_PLAYED, "duplicate.round_end")
def on_boards_played(event: DomainEvent) -> None:
    """An event's table played all its boards: its round may be over."""
    assert event.table is not None  # a table's event
    at = event_table(event.table)
    if at is not None:
        round_end_check(at.round, event.created_at)


def _results_pending(event_round: EventRound) -> bool:
    """Whether a hand the round's tables scored has no board result yet: its "hand scored"
    is still to be delivered (games/runtime/outbox.py)."""
    recorded = BoardResult.objects.filter(event_table__round=event_round, hand__isnull=False).values("hand_id")
    scored = Hand.objects.filter(match__table__event_table__round=event_round, defenders_score__isnull=False)
    return scored.exclude(pk__in=recorded).exists()


@transaction.atomic  # the delivery's, or the events' clock's own
def round_end_check(event_round: EventRound, now: datetime) -> bool:
    """A round ends when none of its tables plays any more (each finished its boards, or a
    moderator or the idle sweep closed it), and the event with its last round: "event
    finished" is published in the same transaction (a rated event is rated from it)."""
    if event_round.finished_at is not None:
        return True
    tables = Table.objects.filter(event_table__round=event_round)
    if tables.exclude(status__in=(Table.Status.FINISHED, Table.Status.CLOSED)).exists() or _results_pending(
        event_round
    ):
        return False
    event_round.finished_at = now
    event_round.save(update_fields=["finished_at"])
    event = event_round.event
    # Conditional: of two processes ending the last round at once, one finishes (and rates) it.
    last = event_round.number == event.rounds
    if last and Event.objects.filter(pk=event.pk, status=Event.Status.RUNNING).update(status=Event.Status.FINISHED):
        outbox.publish(kind=DomainEvent.Kind.EVENT_FINISHED, table=None, match=None, facts={"event": event.pk}, now=now)
    event_changed_on_commit(event_round.event_id)  # after commit (the delivery's or the clock's transaction)
    return True
