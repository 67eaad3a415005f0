"""The one write path of a table (STYLE: services).

`table_act` is the only way anything changes a table: in one transaction it locks
the table row, rejects a stale version, runs the action (an engine action through
the rules engine, or a seating/match action), appends it to the event log, saves
snapshot and version, and — after commit — tells the table's group
"changed, version N". Consumers then render each seat's own view from the database.
"""
import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import engine, selectors

from games.runtime import clock, records, seating, table_cache, table_rows

from games.moderation import tables as moderation
from games.web.lobby import notify_lobby, notify_lobby_async
from games.models import Table
from games.runtime.commands import ActionRejected, Applied, is_card_list

LOBBY_VISIBLE = {"sit", "stand", "add_bot", "remove_bot", "start_match", "start_hand", "close_table", "kick"}


@dataclass
class Outcome:
    version: int
    events: list = field(default_factory=list)
    lobby_visible: bool = False


def table_act(*, table_id: int, action: dict, expected_version: int | None, user=None,
              source: str = "player", notify: bool = True) -> Outcome:
    """Apply one action to a table through the single write path."""
    with transaction.atomic():
        locked = table_rows.lock(table_id)
        if locked is None:
            raise Table.DoesNotExist(f"table {table_id}")
        current, status = locked
        if status == Table.Status.CLOSED:  # closed by a moderator: nothing acts on it again
            raise ActionRejected("table_closed", gettext_noop("This table has been closed."))
        if expected_version is not None and expected_version != current:
            raise ActionRejected(
                "stale_version",
                gettext_noop("The table has moved on (version {current}, you acted on {expected}); your view is being refreshed."),
                current=current, expected=expected_version,
            )
        if source == "player" and (user is None or not user.is_authenticated):
            raise ActionRejected("login_required", gettext_noop("Please log in first."))
        handler = _HANDLERS.get(action.get("type"))
        if handler is None:
            raise ActionRejected("unknown_action", gettext_noop("Unknown action."))
        table, seats = _writable(table_id, current)
        now = timezone.now()
        applied = handler(table, seats, dict(action), user, source, now)
        actor = user if source in ("player", "moderator") else None
        for step in applied:
            table.version += 1
            records.record_events(table, table.version, step, now)  # first: it may start a hand
            table_rows.append_event(
                table=table, seq=table.version, hand=records.current_hand(table), actor=actor, source=source,
                action=step.action, events=step.events, now=now,
            )
        table_rows.save(table, now)
        version = table.version
        written = table_cache.from_rows(table, seats)
        transaction.on_commit(lambda: table_cache.remember(written))  # before anyone is told
        lobby_visible = any(step.action["type"] in LOBBY_VISIBLE for step in applied)
        if notify:  # else the caller tells everyone once this returns (table_act_async)
            transaction.on_commit(lambda: notify_table(table_id, version))
            if lobby_visible:
                transaction.on_commit(notify_lobby)
    return Outcome(version=version, events=[e for step in applied for e in step.events], lobby_visible=lobby_visible)


def _writable(table_id: int, version: int):
    """The locked table and its seats as private copies the handlers may change. When this
    process holds exactly this version, its copy is taken (with the match and hand the
    records know) instead of reading the database again."""
    held = table_cache.cached(table_id, version)
    if held is not None and held.version == version:
        return held.rows_for_writing()
    table = Table.objects.get(pk=table_id)
    return table, list(table.seats.select_related("user").order_by("position"))


async def table_act_async(*, table_id: int, **arguments) -> Outcome:
    """`table_act` for sockets and the clock: the write in the process's database thread,
    then the news sent from the event loop. (Sending from the database thread would make
    it wait for a busy loop, and every database call of the process waits for that thread.)"""
    outcome = await database_sync_to_async(table_act)(table_id=table_id, notify=False, **arguments)
    await get_channel_layer().group_send(f"table-{table_id}", _changed(outcome.version))
    if outcome.lobby_visible:
        await notify_lobby_async()
    return outcome


def notify_table(table_id: int, version: int) -> None:
    """Tell every socket of the table that it changed; no private data travels here."""
    async_to_sync(get_channel_layer().group_send)(f"table-{table_id}", _changed(version))


def _changed(version: int) -> dict:
    return {"type": "table.changed", "version": version}


# --- handlers -------------------------------------------------------------------------

def _require_playing(table):
    if table.status != Table.Status.PLAYING or table.state is None:
        raise ActionRejected("not_playing", gettext_noop("No match is running at this table."))


def _run_engine(table, game, actions, now) -> list[Applied]:
    """Run engine actions on `game` (the table's snapshot); all or nothing."""
    applied = []
    for action in actions:
        try:
            events = engine.apply(game, action)
        except engine.Refusal as error:
            raise ActionRejected.from_rule_error(error) from None
        applied.append(Applied(action, events, records.hand_facts(game, events)))
        _advance_timers(table, game, action, now)
    table.state = game.to_json()
    return applied


def _catch_up_deal(table, game, now) -> list[dict]:
    """The deal is time-derived: persist the cards dealt so far before anything else."""
    if game.phase != "deal":
        return []
    dealt = clock.dealt_at(table, now)
    return [{"type": "deal", "upto": dealt}] if dealt > game.dealt else []


def _due_game(table, seats, action, now):
    """The stored game, provided `action` (less a bot's move) is exactly the step due now."""
    _require_playing(table)
    game = engine.Game.from_json(table.state)
    step = clock.due_step(table, game, seats, now)
    submitted = {key: value for key, value in action.items() if key != "move"}
    if step is None or step.action != submitted or step.due > now:
        raise ActionRejected("not_due", gettext_noop("That step is not due yet."))
    return game


def _advance_timers(table, game, action, now):
    kind = action["type"]
    if kind == "start_hand":
        table.deal_started_at = now + timedelta(milliseconds=settings.GAMES_DEAL_LEAD_IN_MS)
        table.deadline = None
    elif game.phase == "last_chance" and kind == "deal":
        # RULES §3.4: the window runs from the 100th card, whenever that was persisted.
        last_card = clock.card_due_at(table, clock.DECK_DEALT - 1)
        table.deadline = last_card + timedelta(milliseconds=table.last_chance_ms)
    elif game.phase == "scored":
        table.deadline = now + timedelta(milliseconds=settings.GAMES_NEXT_HAND_DELAY_MS)
    elif game.phase in ("bury", "play") and table.turn_limit_s:
        table.deadline = now + timedelta(seconds=table.turn_limit_s)
    elif game.phase == "finished":
        table.deadline = None
        table.status = Table.Status.FINISHED


def _player_engine_action(table, seats, action, user, source, now):
    _require_playing(table)
    if source == "player":
        seat = selectors.seat_for(seats, user)
        if seat is None:
            raise ActionRejected("not_seated", gettext_noop("You are not seated at this table."))
        action["seat"] = seat.position  # never trust a client-sent seat
        if seat.autoplay:
            seat.autoplay = False  # the player is back: stop playing for them
            seat.save(update_fields=["autoplay"])
    cards = action.get("cards")
    if not is_card_list(cards):
        raise ActionRejected("bad_action", gettext_noop("An action needs a list of cards."))
    game = engine.Game.from_json(table.state)
    actions = _catch_up_deal(table, game, now) + [{"type": action["type"], "seat": action["seat"], "cards": cards}]
    return _run_engine(table, game, actions, now)


def _clock_action(table, seats, action, user, source, now):
    """Timed steps: only the server's clock submits these (games/runtime/runner.py)."""
    if source != "clock":
        raise ActionRejected("not_allowed", gettext_noop("Only the table's clock can do that."))
    game = _due_game(table, seats, action, now)
    if action["type"] == "start_hand":
        action = {"type": "start_hand", "seed": secrets.token_hex(16)}
    return _run_engine(table, game, [action], now)


BOT_STEPS = ("bot_move", "time_out", "bot_declare")
BOT_MOVES = ("bury", "play", "declare")


def bot_decide(*, loaded, step_action: dict, now) -> dict | None:
    """The bot's move for a due bot step of the table as `loaded`, decided OUTSIDE the
    write path's lock (no database: `loaded` is read-only, games/runtime/table_cache.py).

    A strong bot thinks for up to a second; doing that while holding the table row (and
    the process's one sync thread) would stall every other action. The move is then
    submitted with the version it was decided on, so a stale decision is simply refused.
    """
    from games import bots

    seat = loaded.seats[step_action["seat"]]
    game = clock.live(loaded.table, loaded.game, now)
    if step_action["type"] == "bot_declare":
        return clock.bot_declaration(game, seat)
    return bots.choose(table=loaded.table, game=game, seat=seat.position, level=seat.bot or "basic")


def _bot_move(table, seats, action, user, source, now):
    """A bot (or an absent player's stand-in) acts through the same path as people."""
    if source not in ("bot", "clock"):
        raise ActionRejected("not_allowed", gettext_noop("Only the server plays for bots."))
    game = _due_game(table, seats, action, now)
    move = action.get("move")
    seat = seats[action["seat"]]
    if not isinstance(move, dict) or move.get("type") not in BOT_MOVES or move.get("seat") != seat.position:
        raise ActionRejected("bad_action", gettext_noop("A bot step needs the bot's move for its own seat."))
    if action["type"] == "time_out":
        seat.autoplay = True
        seat.save(update_fields=["autoplay"])
    # A declaration was decided on the cards dealt by then; persist those first.
    catch_up = _catch_up_deal(table, game, now) if move["type"] == "declare" else []
    return _run_engine(table, game, catch_up + [move], now)


def _resume(table, seats, action, user, source, now):
    """A player whose seat was being auto-played is back (RULES-independent site policy)."""
    seat = selectors.seat_for(seats, user)
    if seat is None or not seat.autoplay:
        raise ActionRejected("not_autoplayed", gettext_noop("Your seat is not being played for you."))
    seat.autoplay = False
    seat.save(update_fields=["autoplay"])
    return [Applied({"type": "resume", "seat": seat.position}, [{"type": "resumed", "seat": seat.position}])]


def _start_match(table, seats, action, user, source, now):
    if table.status == Table.Status.PLAYING:
        raise ActionRejected("already_playing", gettext_noop("The match has already started."))
    if source == "player" and (user is None or user.pk != table.owner_id):
        raise ActionRejected("not_owner", gettext_noop("Only the table's owner can start the match."))
    if any(seat.is_free for seat in seats):
        raise ActionRejected("seats_free", gettext_noop("All four seats must be filled to start."))
    table.status = Table.Status.PLAYING
    records.start_match(table, seats)
    first_hand = {"type": "start_hand", "seed": secrets.token_hex(16)}
    started = [Applied({"type": "start_match"}, [{"type": "match_started"}])]
    return started + _run_engine(table, engine.Game.new(), [first_hand], now)


_HANDLERS = {
    "declare": _player_engine_action,
    "bury": _player_engine_action,
    "play": _player_engine_action,
    "deal": _clock_action,
    "fix_trump": _clock_action,
    "start_hand": _clock_action,
    "bot_move": _bot_move,
    "time_out": _bot_move,
    "bot_declare": _bot_move,
    "start_match": _start_match,
    "resume": _resume,
    "sit": seating.sit,
    "stand": seating.stand,
    "add_bot": seating.add_bot,
    "remove_bot": seating.remove_bot,
    "close_table": moderation.close_table,  # source "moderator" only (games/moderation/tables.py)
    "kick": moderation.kick,
}
