"""What a board of a rated event ranks (docs/ratings.md): in each direction, the people's
sides that played it, ordered by their result on it as the standings compare results
(scoring.board_score: levels won, then points; equal results tie). A side is the people of
the entries that sat that direction at one table; a side of bots only is left out, and a
direction with fewer than two people's sides ranks nothing.

Read from the stored results (adjustments included), in a fixed order, so the ratings'
replay ranks a board exactly as the live update did.
"""

from collections.abc import Hashable
from dataclasses import dataclass

from games.boards.results import board_table_results
from games.boards.scoring import board_score
from games.duplicate.models import Entry, EventBoard


@dataclass(frozen=True)
class Ranking:
    """One direction of one board: each side's people as (seat at its table, user id),
    and its rank (1 the best; equal ranks a tie), as the rating library takes them."""

    sides: list[list[tuple[int, int]]]
    ranks: list[float]


def board_rankings(event_board: EventBoard) -> list[Ranking]:
    """North-South's ranking, then East-West's, where at least two people's sides played."""
    results = board_table_results(event_board)
    entries: dict[Hashable, Entry] = {entry.pk: entry for entry in Entry.objects.filter(event_id=event_board.event_id)}
    rankings = []
    for team in (0, 1):
        sides, scores = [], []
        for result in results:
            seated = [(seat, entries.get(result.seats[seat])) for seat in (team, team + 2)]
            people = [
                (seat, user_id)
                for seat, entry in seated
                if entry is not None and (user_id := entry.person_at(seat)) is not None
            ]
            if people:
                sides.append(people)
                scores.append(board_score(result, team))
        if len(sides) >= 2:
            rankings.append(Ranking(sides, [1 + sum(other > mine for other in scores) for mine in scores]))
    return rankings
