"""Ready for the next hand: the people at a table end the pause after a hand's result.

After a hand is scored the clock starts the next one after a pause
(settings.GAMES_NEXT_HAND_DELAY_MS, games/runtime/play.py), time to read the result. A
seated person who has read it says `ready`; once every person at the table has (bots, and
seats a bot plays for an absent person, are always ready), the next hand starts at once,
in the same step. Until then the pause runs as before, so nobody is hurried by a Ready.
Who is ready is the seat's `ready_after_hand`: the number of the hand whose result it has
read, so a new hand needs no reset. The page sends the number of the hand whose result it
shows instead of a table version: two people may say ready at the same moment, and
neither should be refused as stale, while a Ready sent long ago (a page that was offline)
never counts for a later hand.
"""

from datetime import datetime

from django.utils.translation import gettext_noop

from games import engine, selectors
from games.engine import Refusal
from games.models import Seat, Table
from games.runtime.commands import Applied, Issuer, Role, command
from games.runtime.play import NOT_SEATED, start_next_hand


def is_ready(seat: Seat, hand_no: int) -> bool:
    """Whether `seat` lets the hand after `hand_no` start (a bot never makes anyone wait)."""
    return bool(seat.bot or seat.autoplay or seat.ready_after_hand == hand_no)


def shown(seats: list[Seat], hand_no: int, viewer_seat: int | None, names: list[str]) -> dict:
    """What the result shows its reader about Ready: the hand it is for, whether the reader
    (if seated) said it, and the names of the people the next hand still waits for."""
    return {
        "hand": hand_no,
        "seated": viewer_seat is not None,
        "me": viewer_seat is not None and is_ready(seats[viewer_seat], hand_no),
        "waiting": [names[seat.position] for seat in seats if not is_ready(seat, hand_no)],
    }


@command("ready", may={Role.SEATED}, refusal=NOT_SEATED)
def ready(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """The user's seat has read this hand's result; the last person to say so starts the next hand."""
    if table.status != Table.Status.PLAYING or game is None or game.phase != "scored":
        raise Refusal("not_between_hands", gettext_noop("Ready is for the pause after a hand's result."))
    seat = selectors.seat_for(seats, user)
    if seat is None:
        raise Refusal(*NOT_SEATED)
    if action.get("hand") != game.hand_no:  # a Ready sent for an earlier hand's result
        raise Refusal("not_this_hand", gettext_noop("That hand's result is no longer on the table."))
    if seat.ready_after_hand == game.hand_no:
        raise Refusal("already_ready", gettext_noop("You are ready already: the others have not all said so yet."))
    seat.ready_after_hand = game.hand_no
    seat.save(update_fields=["ready_after_hand"])
    said = Applied({"type": "ready", "seat": seat.position}, [{"type": "ready", "seat": seat.position}])
    if all(is_ready(other, game.hand_no) for other in seats):
        return [said, *start_next_hand(table, game, now)]
    return [said]
