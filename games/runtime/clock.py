"""Timed steps of a table, derived from its stored row and the time (RULES §1.3, §3.4).

Nothing here writes: `due_step` says which ordinary action falls due when, and the
clock runner (games/runtime/runner.py) submits it through the one write path with the
version it expects, so a duplicated or late tick is a no-op.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings

from games import engine
from games.runtime.commands import Issuer

DECK_DEALT = engine.DEALT_CARDS  # RULES §1.3: 25 cards to each of 4 seats, 8 stay in the kitty


def dealt_at(table, now: datetime) -> int:
    """How many cards of the deal have been dealt by `now` (the first at deal_started_at)."""
    if table.deal_started_at is None or now < table.deal_started_at:
        return 0
    elapsed_ms = (now - table.deal_started_at).total_seconds() * 1000
    return min(DECK_DEALT, int(elapsed_ms // table.deal_pace_ms) + 1)


def card_due_at(table, index: int) -> datetime:
    """When the card at deal position `index` (0-based) is dealt."""
    return table.deal_started_at + timedelta(milliseconds=index * table.deal_pace_ms)


# Bots look at their hand for a declaration every this many dealt cards (RULES §3.1).
BOT_LOOK_EVERY = 20


@dataclass(frozen=True)
class Step:
    due: datetime
    action: dict | None  # None: nothing to submit, only look again at `due`
    issuer: Issuer
    # For a bots' look at their cards: how many cards were dealt by then (DECK_DEALT in the
    # last-chance window), so that the runner, once they declined, waits for the next look.
    look: int | None = None


def live(table, game, now: datetime):
    """The game as of `now`: the stored snapshot plus the cards the clock has dealt since."""
    if game.phase == "deal":
        dealt = dealt_at(table, now)
        if dealt > game.dealt:
            game, _events = engine.step(game, {"type": "deal", "upto": dealt})  # a new Game: `game` stays as stored
    return game


def _plays_for_a_bot(seats) -> bool:
    return any(seat.bot or seat.autoplay for seat in seats)


def due_step(table, game, seats, now: datetime, *, looked: int | None = None) -> Step | None:
    """The next timed action for this table, or None when it waits for a person.

    During the deal and the last-chance window the bots look at their cards every
    BOT_LOOK_EVERY dealt cards, once more in the window, and again after any change of the
    table. This only says *that* they may declare now (`bot_declare`): what they declare is
    decided once, by whoever submits the step (`play.bot_decide`, outside the write path's
    lock), and the write path checks only the decided move. `looked`: the bots have looked
    at this version of the table with this many cards dealt (the runner's memory), and
    declined.
    """
    phase = game.phase
    if phase == "deal":
        current = live(table, game, now)
        if current.phase == "deal" and _plays_for_a_bot(seats):
            point = current.dealt // BOT_LOOK_EVERY * BOT_LOOK_EVERY
            if looked is None or point > looked:
                return Step(now, {"type": "bot_declare"}, Issuer.BOT, look=point)
            look_again = point + BOT_LOOK_EVERY
            if look_again < DECK_DEALT:
                return Step(card_due_at(table, look_again - 1), None, Issuer.CLOCK)
        return Step(card_due_at(table, DECK_DEALT - 1), {"type": "deal", "upto": DECK_DEALT}, Issuer.CLOCK)
    if phase == "last_chance":
        # Bots have a last look before trump is fixed (RULES §3.4).
        if _plays_for_a_bot(seats) and (looked is None or looked < DECK_DEALT):
            return Step(now, {"type": "bot_declare"}, Issuer.BOT, look=DECK_DEALT)
        return Step(table.deadline or now, {"type": "fix_trump"}, Issuer.CLOCK)
    if phase == "scored":
        return next_hand_step(table, now)
    if phase in ("bury", "play") and game.turn is not None:
        seat = seats[game.turn]
        if seat.bot or seat.autoplay:
            delay = timedelta(milliseconds=settings.GAMES_BOT_DELAY_MS)
            return Step(table.updated_at + delay, {"type": "bot_move", "seat": game.turn}, Issuer.BOT)
        if table.turn_limit_s and table.deadline:
            # Logged as the bot's move: from now on a bot plays this seat (autoplay).
            return Step(table.deadline, {"type": "time_out", "seat": game.turn}, Issuer.BOT)
    return None


def next_hand_step(table, now: datetime) -> Step:
    """When the next hand starts once a hand is scored: at the table's deadline, which the
    hand's scoring set (games/runtime/play.py). The one place the clock decides it."""
    return Step(table.deadline or now, {"type": "start_hand"}, Issuer.CLOCK)
