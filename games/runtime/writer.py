"""The one write path of a table (STYLE: services; lila's one writer per game).

`table_act` is the only way anything changes a table. In order:
1. load the table: the version its actor holds (games/runtime/actor.py) when that is the
   version the issuer acted on, else its row;
2. refuse a closed table and a stale version;
3. check that the issuer may issue the command and run its handler (games/runtime/commands.py)
   on private copies of the rows: the engine's step, and whatever rows the command writes;
4. append every applied step to the event log and save snapshot and version with a
   compare-and-set: the table's row is written only if it is still at the loaded version
   (games/runtime/table_rows.py), in the same transaction as everything else the command
   wrote. A table that moved on meanwhile writes nothing: the issuer is refused as stale
   (a command issued without a version is judged again on the new row);
5. deliver the domain events the step published (a hand scored, a match ended) to their
   subscribers once it is committed (games/runtime/outbox.py): history, ratings, analysis,
   events; every subscriber has had them by the time anyone is told;
6. tell: an actor that issued the command takes the written table (`Outcome.table`), pushes
   its own readers and then publishes "changed, version N" to the table's group
   (games/events.py); any other caller (a page, an admin, a management command) has it
   published once committed, and the table's actors hear it from the group.

No row lock is taken: the version is the lock. An actor calls `table_act_async`: an engine
step on the version it holds is stored from the event loop by one statement, anything else
runs `table_act` in the process's database thread. The handlers register themselves
(games/runtime/play.py, seating.py, games/moderation/tables.py) and are imported at
start-up by `GamesConfig.ready`: this module imports none of them, nor any of its callers.
"""

from dataclasses import dataclass, field
from datetime import datetime

from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation
from django.db import IntegrityError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.selectors import user_can_moderate
from games import engine, events, selectors
from games.engine import Refusal
from games.models import Seat, Table
from games.runtime import outbox, records, table_rows, table_state
from games.runtime.commands import Command, Issuer, Role, command_for
from games.runtime.table_state import LoadedTable

# A command issued without a version (seating, moderation) is judged again on the new row
# when the table moved on between its load and its save; a few tries always suffice.
ATTEMPTS = 5


@dataclass
class Outcome:
    version: int
    events: list = field(default_factory=list)
    lobby_visible: bool = False
    published: list[int] = field(default_factory=list)  # domain events (delivered by table_act)
    table: LoadedTable | None = None  # the table as written (committed by the time it is returned)


@dataclass
class _Change:
    """What a command did to private copies of the table's rows, not yet stored."""

    table: Table
    seats: list[Seat]
    command: Command
    applied: list
    rows: list[table_rows.LogRow]
    now: datetime
    published: list[int] = field(default_factory=list)


class _MovedOn(Exception):
    """The compare-and-set wrote nothing: raised to roll back what the command wrote."""


def table_act(
    *,
    table_id: int,
    action: dict,
    expected_version: int | None,
    user=None,
    issuer: Issuer = Issuer.PLAYER,
    notify: bool = True,
    held: LoadedTable | None = None,
) -> Outcome:
    """Apply one command to a table through the single write path, then deliver the domain
    events it published (once committed: games/runtime/outbox.py). `held`: the table as its
    actor holds it; `notify` false: the caller (the actor) tells everyone itself."""
    outcome = _act_once_more_if_dropped(
        table_id=table_id,
        action=action,
        expected_version=expected_version,
        user=user,
        issuer=issuer,
        notify=notify,
        held=held,
    )
    if outcome.published:
        outbox.deliver(outcome.published)
    return outcome


def _act_once_more_if_dropped(*, table_id: int, notify: bool, **arguments) -> Outcome:
    try:
        return _act(table_id=table_id, notify=notify, **arguments)
    except OperationalError:
        if arguments["expected_version"] is None or connection.in_atomic_block:  # (the caller's transaction is lost)
            raise
    # The database dropped the statement without judging the action: most often a restart
    # ended the connection, and then every pooled one is as dead, so the pool tests them all
    # first (or two writers' other rows deadlocked). The action goes once more, which the
    # compare-and-set makes safe: if the first try committed after all, the second finds
    # the table moved on and is refused as stale.
    pool = getattr(connection, "pool", None)  # (PostgreSQL's)
    if pool is not None:
        connection.close()
        pool.check()
    return _act(table_id=table_id, notify=notify, **arguments)


def _act(
    *, table_id: int, action: dict, expected_version: int | None, user, issuer: Issuer, notify: bool, held
) -> Outcome:
    """Load, check, step, then append and save with the compare-and-set, in one transaction
    with whatever else the command writes (the other rows first, the table's row last)."""
    loaded = _load(table_id, expected_version, held)
    for _attempt in range(ATTEMPTS):
        if loaded.table.status == Table.Status.CLOSED:  # closed by a moderator: nothing acts on it again
            raise _closed()
        if expected_version is not None and loaded.version != expected_version:
            raise _stale(loaded.version, expected_version)
        table, seats = loaded.rows_for_writing()
        game = engine.Game.sharing(table.state) if table.state is not None else None
        try:
            with outbox.collecting() as published, transaction.atomic():
                change = _change(table, seats, game, action, user, issuer)
                if not table_rows.store_if_at(change.table, change.rows, loaded.version, change.now):
                    raise _MovedOn
                change.published = list(published)
                return _stored(change, notify)
        except _MovedOn:
            acted_on, loaded = loaded.version, _load(table_id, None, None)  # what is true now
        except IntegrityError:
            # The command's own rows (a hand's bury, a new hand) collided with those of a
            # writer that took the same step first and committed while this one wrote: two
            # processes' clocks racing for one table (its sockets on two hosts). The table
            # moved on, just as when the compare-and-set finds it so; anything else is a bug.
            acted_on, loaded = loaded.version, _load(table_id, None, None)
            if loaded.version == acted_on:
                raise
    raise _stale(loaded.version, acted_on)


async def table_act_async(
    *,
    table_id: int,
    action: dict,
    expected_version: int | None,
    user,
    issuer: Issuer,
    held: LoadedTable | None,
    connections: table_rows.LoopConnections | None,
) -> Outcome:
    """`table_act` from the event loop (for a table's actor, games/runtime/actor.py), which tells
    everyone itself. An engine step on the version the actor holds is taken right there: the
    step on private copies, then the one statement on one of the loop's `connections`
    (`table_rows.LoopConnections`): no hand-off to the process's database thread, whose one
    connection would commit one action at a time with every other database call of the
    process queued behind. Anything else runs `table_act` in that thread."""
    if connections is not None and held is not None and expected_version is not None:
        change = _in_memory(held, action, expected_version, user, issuer)
        if change is not None and await connections.store_if_at(
            change.table, change.rows, expected_version, change.now
        ):
            return _stored(change, notify=False)
    return await database_sync_to_async(table_act)(
        table_id=table_id,
        action=action,
        expected_version=expected_version,
        user=user,
        issuer=issuer,
        notify=False,
        held=held,
    )


def _in_memory(held: LoadedTable, action: dict, expected_version: int, user, issuer: Issuer) -> _Change | None:
    """The change of an engine command on the held version, made on private copies, or None.
    Django refuses any query on the loop, so a step that reads or writes other rows (a seat's
    autoplay, a hand started or scored, a bury) stops there, as does a table that moved on
    meanwhile: None, and the database thread does it all again (as after a failed store)."""
    if held.version > expected_version:  # committed, so the table has moved on
        raise _stale(held.version, expected_version)
    command = command_for(action.get("type"))
    if (
        held.version != expected_version
        or command is None
        or not command.from_memory
        or held.table.status == Table.Status.CLOSED
        or not table_rows.stores_from_loop()
    ):
        return None
    table, seats = held.rows_for_writing()
    game = engine.Game.sharing(table.state) if table.state is not None else None
    try:
        return _change(table, seats, game, action, user, issuer)
    except SynchronousOnlyOperation:
        return None


def _load(table_id: int, expected_version: int | None, held: LoadedTable | None) -> LoadedTable:
    """`held` (the table's actor's, games/runtime/actor.py) when it is the version the issuer
    acted on or a newer one (then the issuer is stale without asking the database), else the
    table's row. Without a version, always the row."""
    loaded = table_state.held_at_least(held, expected_version) or table_state.read(table_id)
    if loaded is None:
        raise Table.DoesNotExist(f"table {table_id}")
    return loaded


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


def _stored(change: _Change, notify: bool) -> Outcome:
    """After the write: the table as written, and the news sent once it is committed."""
    table = change.table
    lobby_visible = change.command.lobby_visible and bool(change.applied)
    if notify:  # else the caller tells everyone once this returns (games/runtime/actor.py)
        events.send_on_commit(group=events.table_group(table.pk), message=events.table_changed(table.version))
        if lobby_visible:
            events.send_on_commit(group=events.LOBBY_GROUP, message=events.lobby_changed())
    happened = [e for step in change.applied for e in step.events]
    return Outcome(
        version=table.version,
        events=happened,
        lobby_visible=lobby_visible,
        published=change.published,
        table=table_state.from_rows(table, change.seats),
    )


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
