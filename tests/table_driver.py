"""Drives a live table from a test: the test reads the stored state as an oracle to pick
legal plays, and sends them through the seat's own real websocket client."""

import asyncio
import random
import re

from asgiref.sync import sync_to_async

from games import engine
from games.models import Table, TableEvent

CARD_ATTR = re.compile(r'data-card="([A-Z0-9]+)"')


@sync_to_async
def load(table_id):
    table = Table.objects.get(pk=table_id)
    return table, (engine.Game.from_json(table.state) if table.state else None)


def choose_action(game, seat, rng):
    if game.phase == "bury":
        return {"action": "bury", "cards": engine.view(game, seat)["hand"][-8:]}
    return {"action": "play", "cards": engine.sample_play(game, seat, rng)}


async def play_until(clients_by_seat, table_id, done, *, rng=None, timeout=60.0, on_turn=None, resend_after=None):
    """Play (through each seat's websocket) until `done(game)`; the clock deals and fixes trump.
    `resend_after` seconds without progress, the move is sent again (a reconnecting client
    drops what it is asked to send while its socket is down, as the page does)."""
    rng = rng or random.Random(7)
    if isinstance(clients_by_seat, list):
        clients_by_seat = dict(enumerate(clients_by_seat))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last_sent, sent_at = None, 0.0
    while loop.time() < deadline:
        table, game = await load(table_id)
        if game is not None and done(game):
            return table, game
        if resend_after is not None and loop.time() - sent_at > resend_after:
            last_sent = None
        if (
            game is not None
            and game.phase in ("bury", "play")
            and game.turn in clients_by_seat
            and (table.version, game.turn) != last_sent
        ):
            seat = game.turn
            message = choose_action(game, seat, rng)
            if on_turn:
                await on_turn(table, game, seat, message)
            message["version"] = table.version
            await clients_by_seat[seat].send(message)
            last_sent, sent_at = (table.version, seat), loop.time()
        await asyncio.sleep(0.01)
    raise AssertionError(f"table {table_id} did not reach the goal in {timeout}s (phase {game and game.phase})")


@sync_to_async
def public_cards_by_version(table_id):
    """For each version: the set of card codes anyone may have seen by then (RULES §9)."""
    seen, by_version = set(), {0: set()}
    for row in TableEvent.objects.filter(table_id=table_id).order_by("seq"):
        for event in row.events:
            if "only" in event:
                continue
            for key in ("cards", "attempted", "forced"):
                seen.update(event.get(key) or ())
            if event.get("card"):
                seen.add(event["card"])
            if event["type"] == "hand_scored":
                seen.update(event["result"]["kitty"])
                seen.update(event["result"]["buried"])
        by_version[row.seq] = set(seen)
    return by_version


def fold_log(table_id):
    """The table's event log folded through the engine from its `start_match`."""
    game = None
    for row in TableEvent.objects.filter(table_id=table_id).order_by("seq"):
        kind = row.action["type"]
        if kind == "start_match":
            game = engine.Game.new(engine.Rules.from_json(row.action.get("rules")))  # the table's rules
        elif game is not None and kind in engine.ACTION_TYPES:
            engine.apply(game, row.action)
    return game.to_json()


@sync_to_async
def assert_log_whole(table_id):
    """After anything that went wrong: the log folds to the stored snapshot, and its
    versions run 1, 2, … up to the table's version with no gap and none twice."""
    table = Table.objects.get(pk=table_id)
    seqs = list(TableEvent.objects.filter(table_id=table_id).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, table.version + 1))
    assert fold_log(table_id) == table.state


def cards_in(message) -> list[str]:
    html = message.get("html")
    texts = html.values() if isinstance(html, dict) else [html or ""]
    return [code for text in texts for code in CARD_ATTR.findall(text)]


def own_cards(game_json_at_start, seat, dealer):
    """Every card this seat legitimately holds in the hand: its 25, plus the kitty if dealer."""
    deck = game_json_at_start["deck"]
    first = game_json_at_start["first"]
    mine = {deck[i] for i in range(100) if (first + i) % 4 == seat}
    if seat == dealer:
        mine |= set(deck[100:])
    return mine


def drive(table_id, users_by_seat, done, *, rng=None, limit=2000):
    """Synchronously play a table through the write path: people's turns as their users,
    timed steps as the clock would submit them (waiting for them to fall due)."""
    import time

    from django.utils import timezone

    from games.runtime import clock, writer

    rng = rng or random.Random(3)
    looked = None  # (version, cards dealt): the bots looked then and declined (as the runner keeps)
    for _ in range(limit):
        table = Table.objects.get(pk=table_id)
        game = engine.Game.from_json(table.state)
        if done(game):
            return table, game
        seats = list(table.seats.order_by("position"))
        if game.phase in ("bury", "play") and not (seats[game.turn].bot or seats[game.turn].autoplay):
            message = choose_action(game, game.turn, rng)
            action = {"type": message["action"], "cards": message["cards"]}
            writer.table_act(
                table_id=table_id, action=action, expected_version=table.version, user=users_by_seat[game.turn]
            )
            continue
        step = clock.due_step(
            table, game, seats, timezone.now(), looked=looked[1] if looked and looked[0] == table.version else None
        )
        wait = (step.due - timezone.now()).total_seconds()
        if wait > 0:
            time.sleep(min(wait, 0.5))
            continue
        if step.action is not None:
            action = with_bot_move(table, step.action)
            if action.get("move", True) is None:  # no bot declares now
                looked = (table.version, step.look)
                continue
            try:
                writer.table_act(table_id=table_id, action=action, expected_version=table.version, issuer=step.issuer)
            except engine.Refusal as refusal:
                # A bot's look decided just as the deal moved on is no longer the step due: the
                # write path refuses it and the runner simply takes the next step.
                if refusal.code != "not_due" or step.action["type"] != "bot_declare":
                    raise
    raise AssertionError("the table did not reach the goal")


def with_bot_move(table, action):
    """Bot steps carry the move the bot decided before the write (as the runner does)."""
    from django.utils import timezone

    from games.runtime import play, table_state

    if action["type"] not in play.BOT_STEPS:
        return action
    loaded = table_state.from_rows(table, list(table.seats.order_by("position")))
    move = play.bot_decide(loaded=loaded, step_action=action, now=timezone.now())
    return {**action, "move": move}
