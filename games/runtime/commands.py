"""The commands of the one write path (games/runtime/writer.py): who may issue each, and
the handler that carries it out.

Every command type declares who may issue it (`Role`), and the writer checks the issuer
against it before the handler runs (lila's round: one place receives every command and
knows who may send it). Handler modules register themselves with `@command(...)`; they
are imported once at start-up (`GamesConfig.ready`), so the writer imports none of them
and none of its callers. A handler gets keyword-only arguments and returns the steps it
applied (`Applied`), or raises `Refusal` — the transaction then rolls back: nothing
changed.
"""

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from django.utils.translation import gettext_noop

from games import engine
from games.engine import Refusal
from games.engine.seats import SEATS
from games.models import Seat, Table

# The most a seat ever holds: its share of the deal plus the kitty (the dealer, RULES §4.1).
MAX_CARDS = engine.DEALT_CARDS // SEATS + engine.KITTY_SIZE


def is_card_list(value: object) -> bool:
    """The shape every client-sent selection must have before anything looks at it."""
    return isinstance(value, list) and len(value) <= MAX_CARDS and all(isinstance(c, str) for c in value)


class Issuer(enum.StrEnum):
    """Who submits a command (stored as `TableEvent.source`)."""

    PLAYER = "player"  # a person, through a socket or a page
    CLOCK = "clock"  # the table's clock (games/runtime/runner.py)
    BOT = "bot"  # the server playing a bot's seat, or an absent player's
    MODERATOR = "moderator"  # through the moderation services (games/moderation/tables.py)
    SYSTEM = "system"  # the server itself: the benchmark, management commands


class Role(enum.Enum):
    """Who may issue a command. A person's roles at a table are derived by the writer from
    the user and the table's rows, never from what a client claims."""

    SIGNED_IN = enum.auto()  # any signed-in person
    SEATED = enum.auto()  # the person sitting in one of the table's seats
    OWNER = enum.auto()  # the table's owner
    CLOCK = enum.auto()
    BOT = enum.auto()
    MODERATOR = enum.auto()  # a signed-in user with the moderation permission
    SYSTEM = enum.auto()


@dataclass
class Applied:
    """One step a handler applied: logged as one `TableEvent` (its `seq` = the new version)."""

    action: dict
    events: list
    facts: dict = field(default_factory=dict)


class Handler(Protocol):
    def __call__(
        self,
        *,
        table: Table,
        seats: list[Seat],
        game: engine.Game | None,
        action: dict,
        user: Any,
        issuer: Issuer,
        now: datetime,
    ) -> list[Applied]: ...


@dataclass(frozen=True)
class Command:
    name: str
    handler: Handler
    may: frozenset[Role]
    refusal: tuple[str, str]  # (code, translatable sentence) for an issuer who may not
    lobby_visible: bool  # the lobby's list shows what it changes (seats, status)
    # Its handler only steps the engine, so sockets and the clock may run it on the event
    # loop and store it by one statement (games/runtime/writer.py); a step that reads or
    # writes other rows after all is done again in the database thread.
    from_memory: bool

    def refuse(self) -> Refusal:
        return Refusal(*self.refusal)


_COMMANDS: dict[str, Command] = {}

NOT_ALLOWED = ("not_allowed", gettext_noop("Only the server can do that."))


def command(
    *names: str,
    may: set[Role],
    refusal: tuple[str, str] = NOT_ALLOWED,
    lobby_visible: bool = False,
    from_memory: bool = False,
) -> Callable[[Handler], Handler]:
    """Register the decorated function as the handler of these command types."""

    def register(handler: Handler) -> Handler:
        for name in names:
            if name in _COMMANDS:
                raise RuntimeError(f"command {name!r} is registered twice")
            _COMMANDS[name] = Command(
                name=name,
                handler=handler,
                may=frozenset(may),
                refusal=refusal,
                lobby_visible=lobby_visible,
                from_memory=from_memory,
            )
        return handler

    return register


def command_for(name: object) -> Command | None:
    return _COMMANDS.get(name) if isinstance(name, str) else None


def command_names() -> list[str]:
    return sorted(_COMMANDS)


def game_store(*, table: Table, game: engine.Game) -> None:
    """Make `game` the table's snapshot. It shares the game's values, which nobody changes
    in place (games/engine/game.py): the process's memory of the table then holds one copy
    of the state, and no action deep-copies it (docs/performance.md)."""
    table.state = game.snapshot()
