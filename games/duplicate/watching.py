"""Watching an event's table (docs/events.md, "Spectators"): a board is shown to anyone only
once no table can still be playing it.

Every table of a round plays the same boards, and a board is played in one round only
(games/duplicate/movement.py). So a board is *released* when every table of its round has
stored a result on it, or the round is over (a table a moderator closed stores none). Until
then a spectator sees which boards the table has finished and that it is playing, never a
card nor a score of a board still in play anywhere: a delay in seconds or actions would
still let a fast table's board reach a slow table's ear (RULES §9).
"""

from django.db.models import Count

from games import engine
from games.boards.board import Board
from games.duplicate.models import BoardResult, EventBoard, EventRound, EventTable


def released_boards(event_round: EventRound) -> set[int]:
    """The board numbers of the round that no table can still be playing."""
    tables = list(event_round.tables.values_list("boards", flat=True))
    if event_round.finished_at is not None:
        return {number for boards in tables for number in boards}
    done = (
        BoardResult.objects.filter(event_table__round=event_round)
        .values("board__number")
        .annotate(tables=Count("pk"))
        .filter(tables=len(tables))
    )
    return {row["board__number"] for row in done}


def sorted_holdings(board: Board) -> tuple[list[list[str]], list[str]]:
    """Each seat's dealt cards and the kitty, sorted as a hand is shown at the board's level
    (the dealer's team's; trump is the players' choice, so none is marked)."""
    level = board.levels[str(board.dealer % 2)]
    held, kitty = board.holdings()

    def shown(cards: list[str]) -> list[str]:
        return engine.sort_cards(cards, level, None, board.rules.permanent_twos)

    return [shown(held[seat]) for seat in range(4)], shown(kitty)


def table_watch(event_table: EventTable, names: dict) -> dict:
    """What a spectator sees of one table: who sits where, and each of its boards as
    "released" (the result and who held which cards), "played" (finished here, still played
    elsewhere: nothing of it) or "to play"."""
    event_round = event_table.round
    rules = event_round.event.game_rules()
    released = released_boards(event_round)
    results = {r.board.number: r for r in event_table.results.select_related("board")}
    rows = {b.number: b for b in EventBoard.objects.filter(event=event_round.event_id, number__in=event_table.boards)}
    boards = []
    for number in event_table.boards:
        result = results.get(number)
        if number not in released:
            boards.append({"number": number, "state": "played" if result else "to_play"})
            continue
        board = rows[number].board(rules)
        held, kitty = sorted_holdings(board)
        boards.append(
            {
                "number": number,
                "state": "released",
                "dealer": board.dealer,
                "held": held,
                "kitty": kitty,
                "defenders_score": result.scored_score if result else None,
                "adjusted": bool(result and result.adjusted_score is not None),
            }
        )
    return {
        "round": event_round.number,
        "number": event_table.number,
        "seats": [names.get(entry) if entry is not None else None for entry in event_table.seats],
        "boards": boards,
    }
