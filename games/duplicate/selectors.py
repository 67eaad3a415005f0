"""Reads of duplicate events (docs/events.md): the standings from the stored board results."""

from games.duplicate.models import BoardResult, Event
from games.duplicate.scoring import Standing, TableResult, standings


def event_table_results(event: Event) -> list[TableResult]:
    """Every table's result on every board played so far, adjusted where a moderator did;
    entrants are entry ids (a pair's at both of its seats), None a bot."""
    rows = BoardResult.objects.filter(board__event=event).select_related("board", "event_table")
    return [
        TableResult(
            board=row.board.number,
            table=row.event_table.table_id,
            seats=tuple(row.event_table.seats),
            dealer=row.board.dealer,
            defenders_score=row.scored_score,
            level_change=row.scored_level_change,
        )
        for row in rows
    ]


def event_standings(event: Event) -> list[Standing]:
    return standings(event_table_results(event))
