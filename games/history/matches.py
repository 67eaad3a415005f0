"""Reads for match history and replays (STYLE: selectors); see docs/history.md.

Hidden information (the deck, seed, kitty, bury, anyone's hand) of a hand appears
only once that hand is finished (`Hand.finished_at`): the match page shows a running
hand's public facts only, and a running hand has no replay.
"""

from django.db.models import OuterRef, Prefetch, Subquery
from django.utils.translation import gettext as _

from games import bot_levels, engine, selectors
from games.history import export, replay
from games.models import Hand, Match, MatchPlayer
from games.runtime import event_tables
from games.words.seats import bot_name

START_LEVELS = engine.START_LEVELS  # RULES §8.1


# --- who may look -------------------------------------------------------------------


def match_access(*, match: Match, user) -> bool:
    """Public tables: any logged-in user. Private tables: the match's players and staff. An
    event's table while its round is played: its players only, staff included, since other
    tables may still be playing its boards (RULES §9, games/duplicate/)."""
    if not user.is_authenticated:
        return False
    if event_tables.round_in_play(match.table):
        return match.seating.filter(user=user).exists()
    if not match.table.is_private or user.is_staff:
        return True
    return match.seating.filter(user=user).exists()


# --- lists --------------------------------------------------------------------------


def user_matches(*, user):
    """Every match `user` sat in (MatchPlayer rows), newest first, ready for `match_rows`."""
    last_levels = (
        Hand.objects.filter(match=OuterRef("pk"), finished_at__isnull=False)
        .order_by("-number")
        .values("levels_after")[:1]
    )
    return (
        Match.objects.filter(seating__user=user)
        .select_related("table")
        .prefetch_related(Prefetch("seating", queryset=MatchPlayer.objects.select_related("user")))
        .annotate(last_levels=Subquery(last_levels))
        .order_by("-started_at", "-pk")
    )


def player_name(player: MatchPlayer) -> str:
    if player.user is not None:  # no query when user_id is None
        return player.user.username
    if player.bot:
        return bot_name(position=player.position, level=bot_levels.seat_label(player.bot))
    return _("(left)")


def match_levels(match: Match) -> dict:
    """The teams' levels now: final, else after the last finished hand, else the start."""
    if match.final_levels:
        return match.final_levels
    # `user_matches` read the last finished hand's levels already: None there means no
    # finished hand (asking again cost a query per such match on a list).
    last = match.last_levels if hasattr(match, "last_levels") else _last_levels(match)
    return last or dict(START_LEVELS)


def _last_levels(match):
    hand = match.hands.filter(finished_at__isnull=False).order_by("-number").first()
    return hand.levels_after if hand else None


def match_result(match: Match, team: int | None) -> str:
    if match.aborted:
        return "aborted"
    if match.finished_at is None or match.winner_team is None:
        return "playing"
    if team is None:
        return "over"
    return "won" if match.winner_team == team else "lost"


def match_rows(matches, *, user) -> list[dict]:
    """What the "my matches" list shows of each match, from `user`'s side of the table."""
    rows = []
    for match in matches:
        seating = sorted(match.seating.all(), key=lambda p: p.position)
        me = next((p for p in seating if p.user_id == user.pk), None)
        team = me.team if me else 0
        levels = match_levels(match)
        rows.append(
            {
                "match": match,
                "position": me.position if me else None,
                "partner": next(
                    (player_name(p) for p in seating if me and p.position == engine.partner_of(me.position)), ""
                ),
                "opponents": [player_name(p) for p in seating if p.team != team],
                "result": match_result(match, team if me else None),
                "our_level": levels[str(team)],
                "their_level": levels[str(1 - team)],
            }
        )
    return rows


def match_players(match: Match) -> list[dict]:
    seating = sorted(match.seating.select_related("user"), key=lambda p: p.position)
    return [{"position": p.position, "team": p.team, "name": player_name(p), "user_id": p.user_id} for p in seating]


def match_hands(match: Match, names: list[str]) -> list[dict]:
    """The match page's rows; a finished hand's score is its row's `hand` (the columns its
    HandResult filled). A running hand shows only what everyone at the table sees."""
    rows = []
    for hand in match.hands.order_by("number"):
        row = {
            "hand": hand,
            "number": hand.number,
            "finished": hand.is_finished,
            "level": hand.level,
            "dealer": names[hand.dealer] if hand.dealer is not None else "",
            "trump": hand.trump,  # public as soon as it is fixed (RULES §9)
        }
        rows.append(row)
    return rows


# --- replays ------------------------------------------------------------------------


def hand_actions(hand: Hand) -> tuple[list[dict], list[dict]]:
    """The engine actions of `hand`'s match from its `start_match` up to the hand's end,
    split at the hand's `start_hand`: (before the hand, the hand's own)."""
    before, own = selectors.hand_log(hand)
    return [action for _, _, action in before], [action for _, _, action in own]


def hand_frames(hand: Hand) -> list[replay.Frame]:
    before, own = hand_actions(hand)
    return replay.hand_frames(before, own, hand.game_rules())


# --- match files (games/history/export.py) ------------------------------------------------


def match_file(match: Match) -> dict | None:
    """The match as a downloadable file, up to its last finished hand (RULES §9: nothing
    of a running hand), or None when no hand is finished."""
    last = match.hands.filter(finished_at__isnull=False).order_by("-number").first()
    if last is None:
        return None
    before, own = hand_actions(last)
    table = match.table
    return export.match_document(
        actions=before + own,
        players=[
            {"seat": p["position"], "team": p["team"], "name": p["name"], "bot": bool(p["user_id"] is None)}
            for p in match_players(match)
        ],
        match={
            "table": table.name,
            "number": match.number,
            "started_at": match.started_at.isoformat(),
            "finished_at": match.finished_at.isoformat() if match.finished_at else None,
            "winner_team": match.winner_team,
            "aborted": match.aborted,
            "final_levels": match.final_levels,
        },
        table={
            "deal_pace_ms": table.deal_pace_ms,
            "last_chance_ms": table.last_chance_ms,
            "turn_limit_s": table.turn_limit_s,
            "rated": match.rated,
        },
        rules=match.game_rules(),
    )
