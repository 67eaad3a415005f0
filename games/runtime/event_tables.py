"""What the write path asks of a table that plays a duplicate event's boards (docs/events.md):
reads of the events' rows, below the events themselves (games/duplicate/).

An event's table plays its boards as the hands of one match: hand n is board `boards[n-1]`
of its `EventTable`, started by the engine's `start_hand` with that board (dealer, levels
and deck fixed in advance). When it has played the last one, its records publish "boards
played" (records.py), and the events end the round from there. A table that is no event's
asks nothing more.
"""

from datetime import datetime

from games import engine
from games.boards.board import Board
from games.duplicate.models import EventBoard, EventTable
from games.models import Table


def event_table(table: Table) -> EventTable | None:
    return EventTable.objects.select_related("round__event").filter(table_id=table.pk).first()


def is_event_table(table: Table) -> bool:
    return EventTable.objects.filter(table_id=table.pk).exists()


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


def round_in_play(table: Table) -> bool:
    """Whether the table is an event's whose round is not over: other tables of the round may
    still be playing its boards (RULES §9: its hands stay hidden until then)."""
    return EventTable.objects.filter(table_id=table.pk, round__finished_at__isnull=True).exists()


def round_time_up(table: Table, now: datetime) -> bool:
    """Whether the table is an event's whose round's minutes are over."""
    return EventTable.objects.filter(table_id=table.pk, round__ends_at__lte=now).exists()
