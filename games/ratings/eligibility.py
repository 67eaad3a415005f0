"""Which matches are rated (docs/ratings.md). Decided once, when the match starts, and
stored on the match (`Match.rated`): nothing that happens later makes it casual."""

from games import engine
from games.models import Match


def match_is_rated(*, table, seats, rules: engine.Rules | None = None) -> bool:
    """A rated table, four people (a bot seat makes the match casual), and rules that are
    a rateable preset's (engine.RATEABLE). `rules`: the match's (default: those the table
    starts a match with, `Table.game_rules`). A custom set or the casual preset makes a
    rated table's match casual: the form refuses that pairing, and this also holds for
    tables stored before it did."""
    people = all(seat.user_id is not None and not seat.bot for seat in seats)
    return bool(table.rated) and people and engine.is_rateable(table.game_rules() if rules is None else rules)


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
