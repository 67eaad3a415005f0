"""What the table's write path asks of events (called from games/runtime/play.py, inside its
transaction): which board a table deals as its next hand, and the round's end once its last
table is done; and the board's result, once the hand is scored (a subscriber of the table's
"hand scored", games/runtime/outbox.py).

An event's table plays its boards as the hands of one match: hand n is board `boards[n-1]`
of its `EventTable`, started by the engine's `start_hand` with that board (dealer, levels
and deck fixed in advance). A table that is no event's asks nothing more.
"""

from datetime import datetime

from django.db import transaction

from games import engine
from games.duplicate.boards import Board
from games.duplicate.changes import event_changed_on_commit
from games.duplicate.models import BoardResult, Event, EventBoard, EventRound, EventTable
from games.models import DomainEvent, Hand, Table
from games.ratings.service import event_rate
from games.runtime.outbox import subscribe


def event_table(table: Table) -> EventTable | None:
    return EventTable.objects.select_related("round__event").filter(table_id=table.pk).first()


def board_for_hand(table: Table, hand_no: int, rules: engine.Rules) -> Board | None:
    """The board an event's table deals as hand `hand_no` (1-based), None past its last;
    raises LookupError for a table that is no event's."""
    at = event_table(table)
    if at is None:
        raise LookupError(f"table {table.pk} plays no event's boards")
    if hand_no > len(at.boards):
        return None
    row = EventBoard.objects.get(event_id=at.round.event_id, number=at.boards[hand_no - 1])
    return row.board(rules)


def is_event_table(table: Table) -> bool:
    return EventTable.objects.filter(table_id=table.pk).exists()


@subscribe(DomainEvent.Kind.HAND_SCORED, "duplicate.board_result")
def on_hand_scored(event: DomainEvent) -> None:
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


def round_in_play(table: Table) -> bool:
    """Whether the table is an event's whose round is not over: other tables of the round may
    still be playing its boards."""
    return EventTable.objects.filter(table_id=table.pk, round__finished_at__isnull=True).exists()


def round_time_up(table: Table, now: datetime) -> bool:
    """Whether the table is an event's whose round's minutes are over."""
    return EventTable.objects.filter(table_id=table.pk, round__ends_at__lte=now).exists()


def table_done(table: Table, now: datetime) -> None:
    """An event's table played all its boards: its round may be over."""
    at = event_table(table)
    if at is not None:
        round_end_check(at.round, now, finishing=table.pk)


@transaction.atomic  # the write path's, or the events' clock's own
def round_end_check(event_round: EventRound, now: datetime, finishing: int | None = None) -> bool:
    """A round ends when none of its tables plays any more (each finished its boards, or a
    moderator or the idle sweep closed it), and the event with its last round: a rated
    event is rated in the same transaction. `finishing`: the table the write path is
    finishing now, whose row is not saved yet."""
    if event_round.finished_at is not None:
        return True
    tables = Table.objects.filter(event_table__round=event_round)
    if finishing is not None:
        tables = tables.exclude(pk=finishing)
    if tables.exclude(status__in=(Table.Status.FINISHED, Table.Status.CLOSED)).exists():
        return False
    event_round.finished_at = now
    event_round.save(update_fields=["finished_at"])
    event = event_round.event
    # Conditional: of two processes ending the last round at once, one finishes (and rates) it.
    last = event_round.number == event.rounds
    if last and Event.objects.filter(pk=event.pk, status=Event.Status.RUNNING).update(status=Event.Status.FINISHED):
        event_rate(event=event, now=now)
    event_changed_on_commit(event_round.event_id)  # after commit (the write path's or the clock's transaction)
    return True
