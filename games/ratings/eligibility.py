"""Who lost a rated match, and its line-up (docs/ratings.md). Whether a match is rated is
decided once, when it starts (games/runtime/records.py `match_is_rated`), and stored on it."""

from games.models import Match


def losing_team(match: Match) -> int | None:
    """The team that lost for the ratings: a team that left the match loses it whatever
    the score (games/runtime/records.py `seat_left`); else the team that did not win. None:
    nothing to rate (aborted with nobody leaving, or not over)."""
    if match.left_team is not None:
        return match.left_team
    if match.aborted or match.winner_team is None:
        return None
    return 1 - match.winner_team


def lineup_key(user_ids) -> str:
    """The same four people, wherever they sit: "3-8-12-40"."""
    return "-".join(str(user_id) for user_id in sorted(user_ids))
