"""Timed steps of a table, derived from its stored row and the time (RULES §1.3, §3.4).

Nothing here writes: `due_step` says which ordinary action falls due when, and the
clock runner (games/runner.py) submits it through the one write path with the
version it expects, so a duplicated or late tick is a no-op.
"""
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings

DECK_DEALT = 100  # RULES §1.3: 25 cards to each of 4 seats, 8 stay in the kitty


def dealt_at(table, now: datetime) -> int:
    """How many cards of the deal have been dealt by `now` (the first at deal_started_at)."""
    if table.deal_started_at is None or now < table.deal_started_at:
        return 0
    elapsed_ms = (now - table.deal_started_at).total_seconds() * 1000
    return min(DECK_DEALT, int(elapsed_ms // table.deal_pace_ms) + 1)


def card_due_at(table, index: int) -> datetime:
    """When the card at deal position `index` (0-based) is dealt."""
    return table.deal_started_at + timedelta(milliseconds=index * table.deal_pace_ms)


@dataclass(frozen=True)
class Step:
    due: datetime
    action: dict
    source: str  # "clock" or "bot"


def bot_declaration(game, seat) -> dict | None:
    from games import bots

    return bots.declaration(game=game, seat=seat.position, level=seat.bot or "basic")


def due_step(table, game, seats, now: datetime) -> Step | None:
    """The next timed action for this table, or None when it waits for a person."""
    phase = game.phase
    if phase == "deal":
        return Step(card_due_at(table, DECK_DEALT - 1), {"type": "deal", "upto": DECK_DEALT}, "clock")
    if phase == "last_chance":
        # Bots consider declaring once every card is dealt, before trump is fixed (RULES §3.4).
        for seat in seats:
            if (seat.bot or seat.autoplay) and bot_declaration(game, seat) is not None:
                return Step(now, {"type": "bot_declare", "seat": seat.position}, "bot")
        return Step(table.deadline or now, {"type": "fix_trump"}, "clock")
    if phase == "scored":
        return Step(table.deadline or now, {"type": "start_hand"}, "clock")
    if phase in ("bury", "play") and game.turn is not None:
        seat = seats[game.turn]
        if seat.bot or seat.autoplay:
            delay = timedelta(milliseconds=settings.GAMES_BOT_DELAY_MS)
            return Step(table.updated_at + delay, {"type": "bot_move", "seat": game.turn}, "bot")
        if table.turn_limit_s and table.deadline:
            return Step(table.deadline, {"type": "time_out", "seat": game.turn}, "clock")
    return None
