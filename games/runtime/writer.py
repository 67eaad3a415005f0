"""The one write path of a table (STYLE: services; lila's one writer per game).

`table_act` is the only way anything changes a table: it refuses a closed table and a
stale version, checks that the issuer may issue the command (games/runtime/commands.py),
runs the command's handler, appends every applied step to the event log, saves snapshot
and version, and — once that is committed — tells the table's group "changed, version N"
(games/events.py). Consumers then render each seat's own view from the database.

The version is the table's compare-and-set. An engine command (a play, a bot's move, a
clock step) acted on the version this process holds runs from memory and is stored by one
statement that writes only if the table is still at that version (`table_rows.store_if_at`):
no lock, no transaction around it, one round trip. Anything else — a command that writes
other rows (seats, records), a version this process does not hold, a table that moved on
meanwhile — takes the row lock first, in one transaction, and reads what it needs.

The handlers register themselves (games/runtime/play.py, seating.py,
games/moderation/tables.py) and are imported at start-up by `GamesConfig.ready`: this
module imports none of them, nor any of its callers.
"""

from dataclasses import dataclass, field
from datetime import datetime

from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.selectors import user_can_moderate
from games import engine, events, selectors
from games.engine import Refusal
from games.models import Seat, Table
from games.runtime import records, table_cache, table_rows
from games.runtime.commands import Command, Issuer, Role, command_for


@dataclass
class Outcome:
    version: int
    events: list = field(default_factory=list)
    lobby_visible: bool = False


@dataclass
class _Change:
    """What a command did to private copies of the table's rows, not yet stored."""

    table: Table
    seats: list[Seat]
    command: Command
    applied: list
    rows: list[table_rows.LogRow]
    now: datetime


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
    held = table_cache.cached(table_id, expected_version) if expected_version is not None else None
    if held is not None and expected_version is not None:
        if held.version > expected_version:  # committed, so the table has moved on
            raise _stale(held.version, expected_version)
        change = _from_memory(held, action, user, issuer)
        if change is not None and table_rows.store_if_at(change.table, change.rows, expected_version, change.now):
            return _stored(change, notify, committed=False)  # (on_commit runs at once outside a transaction)
    with transaction.atomic():
        locked = table_rows.lock(table_id)
        if locked is None:
            raise Table.DoesNotExist(f"table {table_id}")
        current, status = locked
        if status == Table.Status.CLOSED:  # closed by a moderator: nothing acts on it again
            raise _closed()
        if expected_version is not None and expected_version != current:
            raise _stale(current, expected_version)
        table, seats, game = _writable(table_id, current)
        change = _change(table, seats, game, action, user, issuer)
        table_rows.append_and_save(change.table, change.rows, change.now)  # the log and the row, in this transaction
        return _stored(change, notify, committed=False)


async def table_act_async(
    *, table_id: int, action: dict, expected_version: int | None, user=None, issuer: Issuer = Issuer.PLAYER
) -> Outcome:
    """`table_act` for sockets and the clock, then the news sent from the event loop. An
    action from memory is stored from the loop itself (`table_rows.store_if_at_async`);
    anything else is written in the process's database thread. (Sending from that thread
    would make it wait for a busy loop, and every database call of the process waits for it.)"""
    arguments = {"action": action, "expected_version": expected_version, "user": user, "issuer": issuer}
    try:
        outcome = await _from_loop(table_id=table_id, **arguments)
        if outcome is None:
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


async def _from_loop(
    *, table_id: int, action: dict, expected_version: int | None, user, issuer: Issuer
) -> Outcome | None:
    """The memory path, stored on the event loop's own connection; None when it does not
    apply, the table moved on or the connection failed: the database thread then does it all."""
    if expected_version is None or not table_rows.stores_from_loop():
        return None
    held = table_cache.cached(table_id, expected_version)
    if held is None:
        return None
    if held.version > expected_version:
        raise _stale(held.version, expected_version)
    change = _from_memory(held, action, user, issuer)
    if change is None:
        return None
    stored = await table_rows.store_if_at_async(change.table, change.rows, expected_version, change.now)
    return _stored(change, notify=False, committed=True) if stored else None


def _from_memory(held: table_cache.LoadedTable, action: dict, user, issuer: Issuer) -> _Change | None:
    """The change an engine command makes to the version this process holds, made without
    the database; None when it needs the database (another kind of command, a closed
    table, or a step that writes other rows: then the locked path does it all again)."""
    command = command_for(action.get("type"))
    if command is None or not command.from_memory or held.table.status == Table.Status.CLOSED:
        return None
    table, seats = held.rows_for_writing()
    game = engine.Game.sharing(table.state) if table.state is not None else None
    try:
        with table_rows.no_statements():
            return _change(table, seats, game, action, user, issuer)
    except table_rows.NeedsDatabase:
        return None


def _change(table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer) -> _Change:
    """Check the issuer and the command, run its handler on these private copies and lay out
    the log rows of what it applied (each step bumps the version)."""
    if issuer is Issuer.PLAYER and (user is None or not user.is_authenticated):
        raise Refusal("login_required", gettext_noop("Please log in first."))
    command = command_for(action.get("type"))
    if command is None:
        raise Refusal("unknown_action", gettext_noop("Unknown action."))
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
    return _Change(table=table, seats=seats, command=command, applied=applied, rows=rows, now=now)


def _stored(change: _Change, notify: bool, committed: bool) -> Outcome:
    """After the write: remember it once it is committed (before anyone is told), and tell."""
    table = change.table
    written = table_cache.from_rows(table, change.seats)
    if committed:  # (on the event loop Django cannot even ask whether a transaction is open)
        table_cache.remember(written)
    else:
        transaction.on_commit(lambda: table_cache.remember(written))  # before anyone is told
    lobby_visible = change.command.lobby_visible and bool(change.applied)
    if notify:  # else the caller tells everyone once this returns (table_act_async)
        events.send_on_commit(group=events.table_group(table.pk), message=events.table_changed(table.version))
        if lobby_visible:
            events.send_on_commit(group=events.LOBBY_GROUP, message=events.lobby_changed())
    happened = [e for step in change.applied for e in step.events]
    return Outcome(version=table.version, events=happened, lobby_visible=lobby_visible)


def _closed() -> Refusal:
    return Refusal("table_closed", gettext_noop("This table has been closed."))


def _stale(current: int, expected: int) -> Refusal:
    return Refusal(
        "stale_version",
        gettext_noop(
            "The table has moved on (version {current}, you acted on {expected}); your view is being refreshed."
        ),
        current=current,
        expected=expected,
    )


def _roles(*, issuer: Issuer, user, table: Table, seats: list[Seat]) -> set[Role]:
    """What this issuer is at this table: derived from the user and the table's rows."""
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
