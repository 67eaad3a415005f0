"""The write path's commands that run the rules engine: a player's declare, bury and play,
the clock's timed steps, bots' moves, starting a match, and taking one's seat back.

Registered with the write path (games/runtime/commands.py) and run by it
(games/runtime/writer.py): each gets the table's game parsed once for the action (a
private copy) and stores the game it produced with `commands.game_store`.
"""

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext_noop

from games import engine, selectors
from games.engine import Refusal
from games.models import Seat, Table
from games.runtime import clock, event_tables, records
from games.runtime.commands import (
    Applied,
    Issuer,
    Role,
    command,
    game_store,
    is_card_list,
)

NOT_SEATED = ("not_seated", gettext_noop("You are not seated at this table."))
BOT_STEPS = ("bot_move", "time_out", "bot_declare")
BOT_MOVES = ("bury", "play", "declare")


def _require_playing(table: Table, game: engine.Game | None) -> engine.Game:
    if table.status != Table.Status.PLAYING or game is None:
        raise Refusal("not_playing", gettext_noop("No match is running at this table."))
    return game


def deck_seed(hand_no: int) -> str:
    """The shuffle's seed for hand `hand_no` (RULES §1.3): unpredictable, unless a test or a
    benchmark fixed the decks with settings.GAMES_DECK_SEED (then the same hands each run)."""
    fixed = settings.GAMES_DECK_SEED
    return f"{fixed}:{hand_no}" if fixed else secrets.token_hex(16)


def _run_engine(table: Table, game: engine.Game, actions: list[dict], now: datetime) -> list[Applied]:
    """Run engine actions on `game` (the table's snapshot); all or nothing."""
    applied = []
    for action in actions:
        events = engine.apply(game, action)  # a Refusal rolls the whole action back
        applied.append(Applied(action, events, records.hand_facts(game, events)))
        _advance_timers(table, game, action, now)
    game_store(table=table, game=game)
    return applied


def _catch_up_deal(table: Table, game: engine.Game, now: datetime) -> list[dict]:
    """The deal is time-derived: persist the cards dealt so far before anything else."""
    if game.phase != "deal":
        return []
    dealt = clock.dealt_at(table, now)
    return [{"type": "deal", "upto": dealt}] if dealt > game.dealt else []


def _advance_timers(table: Table, game: engine.Game, action: dict, now: datetime) -> None:
    kind = action["type"]
    if kind == "start_hand" or (kind == "fix_trump" and game.phase == "deal"):
        # A new deal: the hand's first, or a redeal because nobody declared (house rule).
        table.deal_started_at = now + timedelta(milliseconds=settings.GAMES_DEAL_LEAD_IN_MS)
        table.deadline = None
    elif game.phase == "last_chance" and kind == "deal":
        # RULES §3.4: the window runs from the 100th card, whenever that was persisted;
        # its length is the match's rules' (the table's last_chance_ms when it started).
        last_card = clock.card_due_at(table, clock.DECK_DEALT - 1)
        table.deadline = last_card + timedelta(milliseconds=game.rules.last_chance_ms)
    elif game.phase == "scored":
        table.deadline = now + timedelta(milliseconds=settings.GAMES_NEXT_HAND_DELAY_MS)
    elif game.phase in ("bury", "play") and table.turn_limit_s:
        table.deadline = now + timedelta(seconds=table.turn_limit_s)
    elif game.phase == "finished":
        table.deadline = None
        table.status = Table.Status.FINISHED


def _not_due() -> Refusal:
    return Refusal("not_due", gettext_noop("That step is not due yet."))


def _due(table: Table, game: engine.Game, seats: list[Seat], action: dict, now: datetime) -> None:
    """Refuse unless `action` (less a bot's move) is exactly a step due now."""
    submitted = {key: value for key, value in action.items() if key != "move"}
    if submitted == {"type": "bot_declare"}:
        # The bots may look at their cards now; what they declare the engine checks.
        step = clock.due_step(table, game, seats, now)
    else:
        step = clock.due_step(table, game, seats, now, looked=clock.DECK_DEALT)  # past the bots' looks
    if step is None or step.action != submitted or step.due > now:
        raise _not_due()


@command("declare", "bury", "play", may={Role.SEATED}, refusal=NOT_SEATED, from_memory=True)
def player_move(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """A seated player's engine action, for the seat the user sits in (never a client's claim)."""
    game = _require_playing(table, game)
    seat = _players_seat(table, seats, user, now)
    cards = action.get("cards")
    if not is_card_list(cards):
        raise Refusal("bad_action", gettext_noop("An action needs a list of cards."))
    move = {"type": action["type"], "seat": seat.position, "cards": cards}
    return _run_engine(table, game, _catch_up_deal(table, game, now) + [move], now)


@command("play_forced", may={Role.SEATED}, refusal=NOT_SEATED, from_memory=True)
def forced_move(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """The player's only legal play, played for them (their setting "play forced moves for
    me", docs/table-ui.md): the server, not the page, decides that it is the only one."""
    game = _require_playing(table, game)
    seat = _players_seat(table, seats, user, now)
    cards = engine.forced_play(game, seat.position) if game.phase == "play" else None
    if cards is None:
        raise Refusal("not_forced", gettext_noop("You have a choice of plays: pick your cards."))
    return _run_engine(table, game, [{"type": "play", "seat": seat.position, "cards": cards}], now)


def _players_seat(table: Table, seats: list[Seat], user, now: datetime) -> Seat:
    seat = selectors.seat_for(seats, user)
    if seat is None:
        raise Refusal(*NOT_SEATED)
    if seat.autoplay:
        _refuse_if_time_is_up(table, now)
        seat.autoplay = False  # the player is back: stop playing for them
        seat.save(update_fields=["autoplay"])
    return seat


def _refuse_if_time_is_up(table: Table, now: datetime) -> None:
    """An event's round whose time is up is finished by bots (games/duplicate/): nobody takes
    their seat back from them."""
    if event_tables.round_time_up(table, now):
        raise Refusal("round_time_up", gettext_noop("The round's time is up: a bot finishes this board for you."))


@command(
    "bots_take_over",
    may={Role.SYSTEM},
    refusal=("not_allowed", gettext_noop("Only the server can do that.")),
)
def bots_take_over(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Bots play every person's seat for the rest of the match (an event's round whose time is
    up, games/duplicate/service.py): as after a time-out, but for every seat at once."""
    _require_playing(table, game)
    taken = [seat for seat in seats if seat.user_id is not None and not seat.autoplay]
    for seat in taken:
        seat.autoplay = True
        seat.save(update_fields=["autoplay"])
    return [Applied({"type": "bots_take_over"}, [{"type": "taken_over", "seat": seat.position} for seat in taken])]


@command(
    "deal",
    "fix_trump",
    lobby_visible=False,
    may={Role.CLOCK},
    from_memory=True,
    refusal=("not_allowed", gettext_noop("Only the table's clock can do that.")),
)
def clock_step(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Timed steps: only the server's clock submits these (games/runtime/runner.py)."""
    game = _require_playing(table, game)
    _due(table, game, seats, action, now)
    return _run_engine(table, game, [action], now)


@command(
    "start_hand",
    lobby_visible=True,
    may={Role.CLOCK},
    refusal=("not_allowed", gettext_noop("Only the table's clock can do that.")),
)
def next_hand(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    game = _require_playing(table, game)
    _due(table, game, seats, action, now)
    return start_next_hand(table, game, now)


def start_next_hand(table: Table, game: engine.Game, now: datetime) -> list[Applied]:
    """Deal the hand after a scored one: when the pause ends, or when everyone said ready
    (games/runtime/readiness.py). An event's table that has played its last board is done."""
    action = _start_action(table, game.hand_no + 1, game.rules)
    if action is None:
        return _boards_played(table, game, now)
    return _run_engine(table, game, [action], now)


def _start_action(table: Table, hand_no: int, rules: engine.Rules) -> dict | None:
    """The start_hand of hand `hand_no`: at an event's table its board (None past the last,
    games/runtime/event_tables.py), elsewhere a fresh shuffle."""
    if not event_tables.is_event_table(table):
        return {"type": "start_hand", "seed": deck_seed(hand_no)}
    board = event_tables.board_for_hand(table, hand_no, rules)
    return None if board is None else board.start_action()


def _boards_played(table: Table, game: engine.Game, now: datetime) -> list[Applied]:
    """An event's table has played all its boards: its match ends without a winner."""
    table.status = Table.Status.FINISHED
    table.deadline = None
    records.boards_played(table, game, now)  # the events end the round from there
    return [Applied({"type": "boards_played"}, [{"type": "boards_played"}])]


def bot_decide(*, loaded, step_action: dict, now: datetime) -> dict | None:
    """The bot's move for a due bot step of the table as `loaded`, decided here and now,
    before the write (tests and tools; the server's runner asks
    games/runtime/thinking.py, which thinks in worker processes for the searching levels).
    For `bot_declare` the first bot (or autoplayed) seat that declares now, or None.
    The move is then submitted with the version it was decided on, so a stale decision is
    simply refused."""
    from games.runtime import thinking

    return thinking.answer(thinking.question(loaded=loaded, step_action=step_action, now=now))


@command(
    *BOT_STEPS,
    may={Role.BOT},
    refusal=("not_allowed", gettext_noop("Only the server plays for bots.")),
    from_memory=True,
)
def bot_move(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """A bot (or an absent player's stand-in) acts through the same path as people: the
    move it decided before the write is checked here like anyone's."""
    game = _require_playing(table, game)
    _due(table, game, seats, action, now)
    move = action.get("move")
    seat = _bots_seat(action, move, seats)
    if seat is None or not isinstance(move, dict):
        raise Refusal("bad_action", gettext_noop("A bot step needs the bot's move for its own seat."))
    if action["type"] == "time_out":
        seat.autoplay = True
        seat.save(update_fields=["autoplay"])
    # A declaration was decided on the cards dealt by then; persist those first.
    catch_up = _catch_up_deal(table, game, now) if move["type"] == "declare" else []
    return _run_engine(table, game, catch_up + [move], now)


def _bots_seat(action: dict, move: object, seats: list[Seat]) -> Seat | None:
    """The seat `move` is for, when a bot may make it there: the step's own seat for a
    move or a time-out; for a declaration, any seat a bot (or autoplay) plays."""
    if not isinstance(move, dict) or not isinstance(move.get("seat"), int) or not 0 <= move["seat"] <= 3:
        return None
    seat = seats[move["seat"]]
    if action["type"] == "bot_declare":
        return seat if move.get("type") == "declare" and (seat.bot or seat.autoplay) else None
    return seat if move.get("type") in BOT_MOVES and seat.position == action.get("seat") else None


@command(
    "resume", may={Role.SEATED}, refusal=("not_autoplayed", gettext_noop("Your seat is not being played for you."))
)
def resume(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """A player whose seat was being auto-played is back (RULES-independent site policy)."""
    seat = selectors.seat_for(seats, user)
    if seat is None or not seat.autoplay:
        raise Refusal("not_autoplayed", gettext_noop("Your seat is not being played for you."))
    _refuse_if_time_is_up(table, now)
    seat.autoplay = False
    seat.save(update_fields=["autoplay"])
    return [Applied({"type": "resume", "seat": seat.position}, [{"type": "resumed", "seat": seat.position}])]


@command(
    "start_match",
    lobby_visible=True,
    may={Role.OWNER, Role.SYSTEM},
    refusal=("not_owner", gettext_noop("Only the table's owner can start the match.")),
)
def start_match(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    if table.status == Table.Status.PLAYING:
        raise Refusal("already_playing", gettext_noop("The match has already started."))
    if any(seat.is_free for seat in seats):
        raise Refusal("seats_free", gettext_noop("All four seats must be filled to start."))
    table.status = Table.Status.PLAYING
    rules = table.game_rules()  # the table's house rules (docs/house-rules.md), fixed for the match
    records.start_match(table, seats, rules)
    first_hand = _start_action(table, 1, rules)
    if first_hand is None:
        raise Refusal("no_boards", gettext_noop("This table has no boards to play."))
    started = [Applied({"type": "start_match", "rules": rules.to_json()}, [{"type": "match_started"}])]
    return started + _run_engine(table, engine.Game.new(rules), [first_hand], now)
