"""Matchpoints and standings against hand computations (docs/events.md, Scoring)."""

import pytest

from games import engine
from games.boards.board import Board
from games.boards.scoring import TableResult, board_score, level_change_of, matchpoints, standings

pytestmark = pytest.mark.events

BOARD = Board(1, "s", dealer=0, levels={"0": "5", "1": "9"})  # North-South deal at 5


def result(table, seats, defenders_score, board=BOARD, number=1):
    change = level_change_of(board, defenders_score)
    return TableResult(number, table, seats, board.dealer, defenders_score, change)


def test_a_result_scores_levels_first_then_points_from_each_side():
    # RULES §7.2: 0 → dealer +3; 45 → dealer +1; 85 → defenders take over (0); 130 → defenders +1
    assert board_score(result(1, "ABAB", 0), 0) == (3, 0)
    assert board_score(result(1, "ABAB", 45), 0) == (1, -45)
    assert board_score(result(1, "ABAB", 45), 1) == (-1, 45)
    assert board_score(result(1, "ABAB", 85), 0) == (0, -85)
    assert board_score(result(1, "ABAB", 130), 1) == (1, 130)
    assert board_score(result(1, "ABAB", 130), 0) == (-1, -130)


def test_levels_stop_at_a_so_points_decide_between_capped_results():
    board = Board(2, "k", dealer=1, levels={"0": "2", "1": "Q"})  # East-West deal at Q: +3 stops at A (§8.1)
    assert level_change_of(board, 0) == level_change_of(board, 20) == {"team": 1, "levels": 2}
    clean, twenty = result(1, "ABAB", 0, board, 2), result(2, "CDCD", 20, board, 2)
    assert board_score(clean, 1) > board_score(twenty, 1)


def test_matchpoints_two_a_beaten_result_one_a_tie():
    assert matchpoints([(1, -45), (0, -85), (1, -45), (-1, -130)]) == [5, 2, 5, 0]
    assert matchpoints([(2, 0)]) == [0]


def test_standings_of_a_pairs_event_by_hand():
    # Board 1 at three tables; North-South deal (dealer 0).
    #   table 1: A (NS) v B (EW), defenders 45 → NS (1, -45), EW (-1, 45)
    #   table 2: C (NS) v D (EW), defenders 85 → NS (0, -85), EW (0, 85)
    #   table 3: E (NS) v F (EW), defenders 45 → as table 1
    # NS: A beats C, ties E → 3; C 0; E 3.  EW: B 1, D 4, F 1.  Top 4 each.
    # Board 2, East-West deal at Q (dealer 1), two tables:
    #   table 1: B (NS) v A (EW), defenders 0 → EW +2 (capped at A), NS (-2, 0)
    #   table 2: D (NS) v C (EW), defenders 20 → EW +2, NS (-2, 20)
    # NS: D beats B → D 2, B 0. EW: A beats C → A 2, C 0. Top 2.
    board2 = Board(2, "k", dealer=1, levels={"0": "2", "1": "Q"})
    results = [
        result(1, ("A", "B", "A", "B"), 45),
        result(2, ("C", "D", "C", "D"), 85),
        result(3, ("E", "F", "E", "F"), 45),
        result(1, ("B", "A", "B", "A"), 0, board2, 2),
        result(2, ("D", "C", "D", "C"), 20, board2, 2),
    ]
    table = {s.entrant: (s.matchpoints, s.top, s.boards) for s in standings(results)}
    assert table == {
        "A": (5, 6, 2),
        "B": (1, 6, 2),
        "C": (0, 6, 2),
        "D": (6, 6, 2),
        "E": (3, 4, 1),
        "F": (1, 4, 1),
    }
    ranked = standings(results)
    assert [s.entrant for s in ranked] == ["D", "A", "E", "F", "B", "C"]
    assert ranked[0].percent == 100 and ranked[1].percent == pytest.approx(500 / 6)


def test_an_individual_event_credits_both_partners_and_no_bot():
    results = [
        result(1, (1, 2, 3, None), 45),  # NS 1+3 (1, -45); EW 2+bot
        result(2, (5, 6, 7, 8), 85),  # NS 5+7 (0, -85)
    ]
    table = {s.entrant: s.matchpoints for s in standings(results)}
    assert table == {1: 2, 3: 2, 2: 0, 5: 0, 7: 0, 6: 2, 8: 2}
    assert None not in table


def test_a_board_played_at_one_table_only_compares_nothing():
    (one, two) = standings([result(1, ("A", "B", "A", "B"), 45)])
    assert one.top == two.top == 0 and one.percent is None
    assert engine.team_of(BOARD.dealer) == 0
