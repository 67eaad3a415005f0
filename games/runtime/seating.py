"""Seating commands (before and during a match), handled inside the one write path.

Each returns the `Applied` steps that writer.table_act logs like any other action.
"""

from datetime import datetime

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_noop

from accounts.guests import is_guest
from games import bot_levels, engine
from games.engine import Refusal
from games.models import Seat, Table
from games.runtime.commands import Applied, Issuer, Role, command
from games.selectors import seat_for


def _level(action: dict, default: str | None = None) -> str:
    level = action.get("level", default)
    if level not in bot_levels.offered():
        raise Refusal("bad_bot", gettext_noop("Unknown bot strength."))
    return level


def _position(action: dict) -> int:
    position = action.get("seat")
    if not isinstance(position, int) or not 0 <= position <= 3:
        raise Refusal("bad_seat", gettext_noop("Seats are numbered 0 to 3."))
    return position


def _refuse_if_playing(table: Table) -> None:
    if table.status == Table.Status.PLAYING:
        raise Refusal("match_running", gettext_noop("Seats can only change before the match starts."))


def _bot_seat(seats: list[Seat], action: dict) -> Seat:
    """The seat the action names, which must hold a bot."""
    seat = seats[_position(action)]
    if not seat.bot:
        raise Refusal("no_bot", gettext_noop("No bot sits there."))
    return seat


@command("sit", may={Role.SIGNED_IN}, lobby_visible=True)
def sit(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Take a free seat, or move to another free seat before the match starts."""
    position = _position(action)
    target = seats[position]
    current = seat_for(seats, user)
    if current is not None and current.position == position:
        return [Applied({"type": "sit", "seat": position, "user": user.pk}, [])]
    if not target.is_free:
        raise Refusal("seat_taken", gettext_noop("That seat is taken."))
    if table.rated and is_guest(user):  # ratings are for accounts (accounts/guests.py)
        raise Refusal(
            "guest_unrated", gettext_noop("Guests cannot sit at rated tables: create an account to play rated games.")
        )
    if table.status != Table.Status.WAITING:
        # During a match a seat is kept by its player; nobody new can sit (RULES §1.1: four seats).
        raise Refusal("match_running", gettext_noop("Seats can only change before the match starts."))
    if current is not None:
        current.user = None
        current.save(update_fields=["user"])
    target.user = user
    target.save(update_fields=["user"])
    return [Applied({"type": "sit", "seat": position, "user": user.pk}, [{"type": "seated", "seat": position}])]


@command("place", may={Role.SYSTEM}, lobby_visible=True)
def place(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """The server seats a person of its choosing before the match (an event's movement,
    games/duplicate/service.py): the seat must be free and the person not seated here."""
    position = _position(action)
    person = action.get("user")
    placed = get_user_model().objects.filter(pk=person, is_active=True).first() if type(person) is int else None
    if placed is None:
        raise Refusal("no_such_user", gettext_noop("No such player."))
    if table.status != Table.Status.WAITING:
        raise Refusal("match_running", gettext_noop("Seats can only change before the match starts."))
    if not seats[position].is_free:
        raise Refusal("seat_taken", gettext_noop("That seat is taken."))
    if any(seat.user_id == person for seat in seats):
        raise Refusal("already_seated", gettext_noop("That player already sits at this table."))
    seats[position].user = placed  # the row itself: the table's memory renders its name
    seats[position].save(update_fields=["user"])
    return [Applied({"type": "place", "seat": position, "user": person}, [{"type": "seated", "seat": position}])]


@command(
    "stand",
    may={Role.SEATED},
    lobby_visible=True,
    refusal=("not_seated", gettext_noop("You are not seated at this table.")),
)
def stand(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Leave one's seat. During a match the player keeps the seat (see docs/table-runtime.md)."""
    current = seat_for(seats, user)
    if current is None:
        raise Refusal("not_seated", gettext_noop("You are not seated at this table."))
    _refuse_if_playing(table)
    current.user = None
    current.save(update_fields=["user"])
    return [Applied({"type": "stand", "seat": current.position}, [{"type": "stood", "seat": current.position}])]


@command(
    "add_bot",
    may={Role.OWNER, Role.SYSTEM},
    lobby_visible=True,
    refusal=("not_owner", gettext_noop("Only the table's owner can add bots.")),
)
def add_bot(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Seat a bot of the owner's chosen level (none given: the site's default)."""
    if not table.allow_bots:
        raise Refusal("bots_off", gettext_noop("This table does not allow bots."))
    level = _level(action, default=bot_levels.default())
    position = _position(action)
    seat = seats[position]
    if not seat.is_free:
        raise Refusal("seat_taken", gettext_noop("That seat is taken."))
    seat.bot = level
    seat.save(update_fields=["bot"])
    return [Applied({"type": "add_bot", "seat": position, "level": level}, [{"type": "seated", "seat": position}])]


@command(
    "remove_bot",
    may={Role.OWNER, Role.SYSTEM},
    lobby_visible=True,
    refusal=("not_owner", gettext_noop("Only the table's owner can remove bots.")),
)
def remove_bot(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    _refuse_if_playing(table)
    seat = _bot_seat(seats, action)
    seat.bot = ""
    seat.save(update_fields=["bot"])
    return [Applied({"type": "remove_bot", "seat": seat.position}, [{"type": "stood", "seat": seat.position}])]


@command(
    "bot_level",
    may={Role.OWNER, Role.SYSTEM},
    lobby_visible=True,
    refusal=("not_owner", gettext_noop("Only the table's owner can change bots.")),
)
def bot_level(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Change the level of a seated bot while the table waits for its match."""
    if table.status != Table.Status.WAITING:
        raise Refusal("match_running", gettext_noop("Seats can only change before the match starts."))
    level = _level(action)
    seat = _bot_seat(seats, action)
    seat.bot = level
    seat.save(update_fields=["bot"])
    return [
        Applied(
            {"type": "bot_level", "seat": seat.position, "level": level}, [{"type": "seated", "seat": seat.position}]
        )
    ]
