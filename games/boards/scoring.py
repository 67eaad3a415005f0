"""Scoring duplicate events: matchpoints and standings (docs/events.md). Pure.

A board's result at a table becomes a score from each side's point of view: first the
levels it won, signed (RULES §7.2: what a Tractor hand is played for; the defenders
taking over without a level count 0, between the dealer's +1 and the defenders' +1), then
the defenders' points, signed, which break ties between results of the same level band.
Each result is compared with every other result of the same board in the same direction:
2 matchpoints for each beaten, 1 for each tie. An entrant's total is a percentage of the
most it could have had.
"""

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from games import engine
from games.boards.board import Board


@dataclass(frozen=True)
class TableResult:
    """One table's result on one board: who sat where (as `movement.Sitting.seats`; None a
    bot), and the hand's dealer, defenders' score and level change (engine.HandResult's)."""

    board: int
    table: int
    seats: tuple[Hashable | None, ...]
    dealer: int
    defenders_score: int
    level_change: Mapping[str, int]  # {"team", "levels"}


@dataclass(frozen=True)
class Standing:
    entrant: Hashable
    matchpoints: int
    top: int  # the most it could have had: 2 for each other result it was compared with
    boards: int

    @property
    def percent(self) -> float | None:
        return 100 * self.matchpoints / self.top if self.top else None


def level_change_of(board: Board, defenders_score: int) -> dict[str, int]:
    """The level change a defenders' score gives on this board (RULES §7.2, §8.1, under the
    board's rules): what an adjusted result is scored with."""
    outcome = engine.hand_outcome(board.dealer, board.levels, defenders_score, board.rules)
    return dict(outcome["level_change"])


def board_score(result: TableResult, team: int) -> tuple[int, int]:
    """(levels won, points) from team `team`'s point of view (0: seats 0/2, 1: seats 1/3)."""
    change = result.level_change
    levels = change["levels"] if change["team"] == team else -change["levels"]
    defending = engine.team_of(result.dealer) != team
    return levels, result.defenders_score if defending else -result.defenders_score


def matchpoints(scores: Sequence[tuple[int, int]]) -> list[int]:
    """Each score against all the others: 2 for each it beats, 1 for each tie. In the sorted
    scores, the ones below a score come before bisect_left and its equals (itself too) before
    bisect_right: a board played at a hundred tables is not 10,000 comparisons."""
    ordered = sorted(scores)
    return [bisect_left(ordered, mine) + bisect_right(ordered, mine) - 1 for mine in scores]


def standings(results: Iterable[TableResult]) -> list[Standing]:
    """Every entrant's matchpoints over all boards, best percentage first. Bots (None) are
    compared like anyone (their table played the board) but have no standing."""
    by_board: dict[int, list[TableResult]] = defaultdict(list)
    for result in results:
        by_board[result.board].append(result)
    points: dict[Hashable, int] = defaultdict(int)
    tops: dict[Hashable, int] = defaultdict(int)
    boards: dict[Hashable, int] = defaultdict(int)
    for board_results in by_board.values():
        for team in (0, 1):
            scores = [board_score(r, team) for r in board_results]
            for result, mp in zip(board_results, matchpoints(scores)):
                for entrant in {result.seats[team], result.seats[team + 2]} - {None}:
                    points[entrant] += mp
                    tops[entrant] += 2 * (len(board_results) - 1)
                    boards[entrant] += 1
    table = [Standing(e, points[e], tops[e], boards[e]) for e in boards]
    return sorted(table, key=lambda s: (-(s.percent or 0), -s.matchpoints, str(s.entrant)))
