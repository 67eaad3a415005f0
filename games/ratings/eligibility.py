"""Which matches are rated (docs/ratings.md). Decided once, when the match starts, and
stored on the match (`Match.rated`): nothing that happens later makes it casual."""

from games.models import Match


def match_is_rated(*, table, seats) -> bool:
    """A rated table, four people (a bot seat makes the match casual), the standard rules."""
    return bool(table.rated) and all(seat.user_id is not None and not seat.bot for seat in seats) and _standard(table)


def _standard(table) -> bool:
    # The engine plays one ruleset, RULES.md's, at every table: table options (deal pace,
    # windows, turn limit) change no rule. Rule presets would be checked here.
    return True


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
