"""The one write path of a table (STYLE: services; lila's one writer per game).

`table_act` is the only way anything changes a table: in one transaction it locks the
table row, refuses a closed table and a stale version, checks that the issuer may issue
the command (games/runtime/commands.py), runs the command's handler, appends every
applied step to the event log, saves snapshot and version, and — after commit — tells
the table's group "changed, version N" (games/events.py). Consumers then render each
seat's own view from the database.

The handlers register themselves (games/runtime/play.py, seating.py,
games/moderation/tables.py) and are imported at start-up by `GamesConfig.ready`: this
module imports none of them, nor any of its callers.
"""

from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.selectors import user_can_moderate
from games import engine, events, selectors
from games.engine import Refusal
from games.models import Seat, Table
from games.runtime import records, table_cache, table_rows
from games.runtime.commands import Issuer, Role, command_for


@dataclass
class Outcome:
    version: int
    events: list = field(default_factory=list)
    lobby_visible: bool = False


def table_act(
    *,
    table_id: int,
    action: dict,
    expected_version: int | None,
    user=None,
    issuer: Issuer = Issuer.PLAYER,
    notify: bool = True,
) -> Outcome:
    """Apply one command to a table through the single write path."""
    with transaction.atomic():
        locked = table_rows.lock(table_id)
        if locked is None:
            raise Table.DoesNotExist(f"table {table_id}")
        current, status = locked
        if status == Table.Status.CLOSED:  # closed by a moderator: nothing acts on it again
            raise Refusal("table_closed", gettext_noop("This table has been closed."))
        if expected_version is not None and expected_version != current:
            raise Refusal(
                "stale_version",
                gettext_noop(
                    "The table has moved on (version {current}, you acted on {expected}); your view is being refreshed."
                ),
                current=current,
                expected=expected_version,
            )
        if issuer is Issuer.PLAYER and (user is None or not user.is_authenticated):
            raise Refusal("login_required", gettext_noop("Please log in first."))
        command = command_for(action.get("type"))
        if command is None:
            raise Refusal("unknown_action", gettext_noop("Unknown action."))
        table, seats, game = _writable(table_id, current)
        if not command.may & _roles(issuer=issuer, user=user, table=table, seats=seats):
            raise command.refuse()
        now = timezone.now()
        applied = command.handler(
            table=table, seats=seats, game=game, action=dict(action), user=user, issuer=issuer, now=now
        )
        actor = user if issuer in (Issuer.PLAYER, Issuer.MODERATOR) else None
        rows = []
        for step in applied:
            table.version += 1
            records.record_events(table, table.version, step, now)  # first: it may start a hand
            rows.append(
                table_rows.event_row(
                    table=table,
                    seq=table.version,
                    hand=records.current_hand(table),
                    actor=actor,
                    source=issuer.value,
                    action=step.action,
                    events=step.events,
                    now=now,
                )
            )
        table_rows.append_and_save(table, rows, now)  # the log and the row, in this transaction
        version = table.version
        written = table_cache.from_rows(table, seats)
        transaction.on_commit(lambda: table_cache.remember(written))  # before anyone is told
        lobby_visible = command.lobby_visible and bool(applied)
        if notify:  # else the caller tells everyone once this returns (table_act_async)
            events.send_on_commit(group=events.table_group(table_id), message=events.table_changed(version))
            if lobby_visible:
                events.send_on_commit(group=events.LOBBY_GROUP, message=events.lobby_changed())
    return Outcome(version=version, events=[e for step in applied for e in step.events], lobby_visible=lobby_visible)


async def table_act_async(*, table_id: int, **arguments) -> Outcome:
    """`table_act` for sockets and the clock: the write in the process's database thread,
    then the news sent from the event loop. (Sending from the database thread would make
    it wait for a busy loop, and every database call of the process waits for that thread.)"""
    try:
        outcome = await database_sync_to_async(table_act)(table_id=table_id, notify=False, **arguments)
    except Refusal as refused:
        # A refusal is an answer, not a fault: nobody reads its traceback, and that
        # traceback holds the frames of the thread hand-off in a reference cycle with their
        # futures, garbage that only a full collection frees (two processes racing for a
        # table's clock refuse one step in two: config/gc_policy.py).
        raise refused.with_traceback(None) from None
    await events.send(group=events.table_group(table_id), message=events.table_changed(outcome.version))
    if outcome.lobby_visible:
        await events.send(group=events.LOBBY_GROUP, message=events.lobby_changed())
    return outcome


def _roles(*, issuer: Issuer, user, table: Table, seats: list[Seat]) -> set[Role]:
    """What this issuer is at this table: derived from the user and the locked rows."""
    if issuer is Issuer.PLAYER:
        roles = {Role.SIGNED_IN}
        if selectors.seat_for(seats, user) is not None:
            roles.add(Role.SEATED)
        if user.pk == table.owner_id:
            roles.add(Role.OWNER)
        return roles
    if issuer is Issuer.MODERATOR:
        return {Role.MODERATOR} if user_can_moderate(user) else set()
    return {_SERVER_ROLES[issuer]}


_SERVER_ROLES = {Issuer.CLOCK: Role.CLOCK, Issuer.BOT: Role.BOT, Issuer.SYSTEM: Role.SYSTEM}


def _writable(table_id: int, version: int) -> tuple[Table, list[Seat], engine.Game | None]:
    """The locked table, its seats and its game as private copies the handlers may change.
    When this process holds exactly this version, its copy is taken (with the match and
    hand the records know) instead of reading the database again. The game is a new Game
    over the snapshot's values, which nobody changes in place (the engine steps
    copy-on-write), so no action copies the state."""
    held = table_cache.cached(table_id, version)
    if held is not None and held.version == version:
        table, seats = held.rows_for_writing()
    else:
        table = Table.objects.get(pk=table_id)
        seats = list(table.seats.select_related("user").order_by("position"))
    game = engine.Game.sharing(table.state) if table.state is not None else None
    return table, seats, game
