"""The stored results of events' boards, as scoring compares them (games/boards/scoring.py):
the events' standings and the ratings of a rated event's boards read them here."""

from django.db.models import QuerySet
from django.db.models.functions import Coalesce

from games.boards.scoring import TableResult
from games.duplicate.models import BoardResult, Event, EventBoard


def event_table_results(event: Event) -> list[TableResult]:
    """Every table's result on every board played so far."""
    return _table_results(BoardResult.objects.filter(board__event=event))


def board_table_results(board: EventBoard) -> list[TableResult]:
    """Every table's result on one board, in a fixed order (rounds, then tables): the
    ratings' replay ranks a board exactly as the live update did."""
    rows = BoardResult.objects.filter(board=board).order_by("event_table__round__number", "event_table__number")
    return _table_results(rows)


def _table_results(rows: QuerySet[BoardResult]) -> list[TableResult]:
    """Stored results as scoring compares them, adjusted where a moderator did; entrants are
    entry ids (a pair's at both of its seats), None a bot. Read as values: a hundred tables'
    results are read at every change of the event."""
    values = rows.values_list(
        "board__number",
        "event_table__table_id",
        "event_table__seats",
        "board__dealer",
        Coalesce("adjusted_score", "defenders_score"),  # BoardResult.scored_score
        Coalesce("adjusted_level_change", "level_change"),  # BoardResult.scored_level_change
    )
    return [
        TableResult(
            board=board, table=table, seats=tuple(seats), dealer=dealer, defenders_score=score, level_change=change
        )
        for board, table, seats, dealer, score, change in values
    ]
