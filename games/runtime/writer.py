"""The one write path of a table (STYLE: services; lila's one writer per game).

`table_act` is the only way anything changes a table. In order:
1. load the table: this process's memory of exactly the version the issuer acted on
   (games/runtime/table_cache.py), else its row;
2. refuse a closed table and a stale version;
3. check that the issuer may issue the command and run its handler (games/runtime/commands.py)
   on private copies of the rows: the engine's step, and whatever rows the command writes;
4. append every applied step to the event log and save snapshot and version with a
   compare-and-set: the table's row is written only if it is still at the loaded version
   (games/runtime/table_rows.py), in the same transaction as everything else the command
   wrote. A table that moved on meanwhile writes nothing: the issuer is refused as stale
   (a command issued without a version is judged again on the new row);
5. once committed, remember what was written and tell the table's group
   "changed, version N" (games/events.py). Consumers then render each seat's own view;
6. then deliver the domain events the step published (a hand scored, a match ended) to
   their subscribers (games/runtime/outbox.py): history, ratings, analysis, events; every
   subscriber has had them by the time anyone is told.

No row lock is taken: the version is the lock. Sockets and the clock call
`table_act_async`: an engine step on the version this process holds is taken right there on
the event loop, and its one statement sent on a connection of the loop's own pool
(`table_rows.store_if_at_async`); everything else runs `table_act` in the process's database
thread. The handlers register themselves
(games/runtime/play.py, seating.py, games/moderation/tables.py) and are imported at
start-up by `GamesConfig.ready`: this module imports none of them, nor any of its callers.
"""

from collections.abc import Awaitable, Callable
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
from games.runtime import outbox, records, table_cache, table_rows
from games.runtime.commands import Command, Issuer, Role, command_for

# A command issued without a version (seating, moderation) is judged again on the new row
# when the table moved on between its load and its save; a few tries always suffice.
ATTEMPTS = 5


@dataclass
class Outcome:
    version: int
    events: list = field(default_factory=list)
    lobby_visible: bool = False
    published: list[int] = field(default_factory=list)  # domain events (delivered by table_act)


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
) -> Outcome:
    """Apply one command to a table through the single write path, then deliver the domain
    events it published (once committed: games/runtime/outbox.py)."""
    outcome = _act_once_more_if_dropped(
        table_id=table_id, action=action, expected_version=expected_version, user=user, issuer=issuer, notify=notify
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


def _act(*, table_id: int, action: dict, expected_version: int | None, user, issuer: Issuer, notify: bool) -> Outcome:
    """Load, check, step, then append and save with the compare-and-set, in one transaction
    with whatever else the command writes (the other rows first, the table's row last)."""
    loaded = _load(table_id, expected_version)
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
                return _stored(change, notify, committed=False)
        except _MovedOn:
            acted_on, loaded = loaded.version, _load(table_id, None)  # what is true now
        except IntegrityError:
            # The command's own rows (a hand's bury, a new hand) collided with those of a
            # writer that took the same step first and committed while this one wrote: two
            # processes' clocks racing for one table (its sockets on two hosts). The table
            # moved on, just as when the compare-and-set finds it so; anything else is a bug.
            acted_on, loaded = loaded.version, _load(table_id, None)
            if loaded.version == acted_on:
                raise
    raise _stale(loaded.version, acted_on)


async def table_act_async(
    *,
    table_id: int,
    action: dict,
    expected_version: int | None,
    user=None,
    issuer: Issuer = Issuer.PLAYER,
    heard: Callable[[int], Awaitable[None]] | None = None,
) -> Outcome:
    """`table_act` for sockets and the clock, then the news sent from the event loop (sending
    from the database thread would make it wait for a busy loop, and every database call of
    the process waits for that thread). `heard`: this process's room of the table
    (games/web/room.py), told the new version at once, before Redis is: its sockets need
    not wait for the round trip, and Redis's copy then reaches the room as old news."""
    arguments = {"action": action, "expected_version": expected_version, "user": user, "issuer": issuer}
    try:
        outcome = await _on_the_loop(table_id=table_id, **arguments)
        if outcome is None:
            outcome = await database_sync_to_async(table_act)(table_id=table_id, notify=False, **arguments)
    except Refusal as refused:
        # A refusal is an answer, not a fault: nobody reads its traceback, and that
        # traceback holds the frames of the thread hand-off in a reference cycle with their
        # futures, garbage that only a full collection frees.
        raise refused.with_traceback(None) from None
    if heard is not None:
        await heard(outcome.version)
    await events.send(group=events.table_group(table_id), message=events.table_changed(outcome.version))
    if outcome.lobby_visible:
        await events.send(group=events.LOBBY_GROUP, message=events.lobby_changed())
    return outcome


async def _on_the_loop(
    *, table_id: int, action: dict, expected_version: int | None, user, issuer: Issuer
) -> Outcome | None:
    """The same steps as `table_act`, on the event loop, for an engine command acted on the
    version this process holds: no hand-off to the database thread, whose one connection
    would serialize every commit of the process (each waits for the disk). Django refuses
    any query on the loop, so a step that reads or writes other rows (a seat's autoplay, a
    hand started or scored, a bury) stops there, as does a table that moved on meanwhile or a
    failed connection: None, and `table_act` does it all again in the database thread."""
    if expected_version is None or not table_rows.stores_from_loop():
        return None
    held = table_cache.cached(table_id, expected_version)
    if held is None:
        return None
    if held.version > expected_version:  # committed, so the table has moved on
        raise _stale(held.version, expected_version)
    command = command_for(action.get("type"))
    if command is None or not command.from_memory or held.table.status == Table.Status.CLOSED:
        return None
    table, seats = held.rows_for_writing()
    game = engine.Game.sharing(table.state) if table.state is not None else None
    try:
        change = _change(table, seats, game, action, user, issuer)
    except SynchronousOnlyOperation:
        return None
    if not await table_rows.store_if_at_async(change.table, change.rows, expected_version, change.now):
        return None
    return _stored(change, notify=False, committed=True)


def _load(table_id: int, expected_version: int | None) -> table_cache.LoadedTable:
    """The version the issuer acted on from memory (or a newer one: then it is stale without
    asking the database), else the table's row. Without a version, always the row."""
    held = table_cache.cached(table_id, expected_version) if expected_version is not None else None
    loaded = held or table_cache.read(table_id, keep=False)
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
    return Outcome(version=table.version, events=happened, lobby_visible=lobby_visible, published=change.published)


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
