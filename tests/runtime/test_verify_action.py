"""Zulip's `verify_action` for a table: for every kind of command the write path accepts
(every command registered with games/runtime/commands.py), submit it, then

(a) rebuild what each connected socket shows from its pushes only, the way the page does
    (docs/protocol.md: a `state` replaces the regions it names, one older than the shown
    version is ignored, a `card` is inserted into the hand at its index, a `card` of
    another version asks for a `sync`), and compare that with a fresh render for the same
    reader at the new version: a new socket's first state and the table page;
(b) fold the event log (TableEvent rows) through the engine and compare with the stored
    snapshot.

The clock runner is switched off: the test submits each timed step itself when
games/runtime/clock.py says it is due, exactly as the runner would, one at a time.
"""

import asyncio
import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine
from games.engine import Refusal
from games.history import replay
from games.models import Seat, Table, TableEvent
from games.runtime import clock, commands, play
from games.runtime.commands import Issuer
from games.web import rooms
from tests.conftest import make_moderator, make_table, make_user, ws_client
from tests.table_driver import choose_action, with_bot_move

pytestmark = pytest.mark.django_db(transaction=True)

# The kinds of command each test below verifies; together, every kind the write path has.
PEOPLE_AND_MODERATORS = {
    "sit",
    "stand",
    "accept_invitation",
    "add_bot",
    "bot_level",
    "remove_bot",
    "start_match",
    "deal",
    "declare",
    "fix_trump",
    "bury",
    "play",
    "play_forced",
    "time_out",
    "bot_move",
    "resume",
    "kick",
    "close_table",
}
BOTS_AND_CLOCK = {"add_bot", "start_match", "deal", "bot_declare", "fix_trump", "bot_move", "start_hand"}
SYSTEM = {"abandon"}
SERVER = {"place", "bots_take_over"}
BETWEEN_HANDS = {"ready"}
covered: set[str] = set()  # what the running test verified


@pytest.fixture
def no_runner(monkeypatch):
    from games.runtime import runner

    monkeypatch.setattr(runner.TableClock, "start", lambda *args, **kwargs: None)  # this test is the clock
    _clients.clear()  # page clients of an earlier test's users
    covered.clear()


# --- what a socket shows, from its pushes only -----------------------------------------

CARD_BUTTON = re.compile(r'<button type="button" class="card-btn" .*?</button>', re.DOTALL)


def hand_cards(hand_html: str) -> list[str]:
    """The hand's card buttons in the order shown (not the declaration buttons below it)."""
    start = hand_html.find('<div class="hand"')
    if start < 0:
        return []
    return CARD_BUTTON.findall(hand_html[start : hand_html.index('<div class="action-bar"', start)])


DECLARE_BLOCK = re.compile(r'<div class="declare-options">.*?\n</div>', re.DOTALL)


def declare_block(html: str) -> str | None:
    found = DECLARE_BLOCK.search(html or "")
    return found.group(0) if found else None


class Shown:
    """One reader's socket and what its page shows, rebuilt from the pushes."""

    def __init__(self, client, user, table_id):
        self.client, self.user, self.table_id = client, user, table_id
        self.version = -1
        self.regions: dict[str, str] = {}
        self.arrived: list[dict] = []  # card pushes since the last state
        self.closed = None  # the `closed` message, then the close code
        self.close_code = None
        self.pushes = 0

    async def take(self, message):
        kind = message["type"]
        self.pushes += 1
        if kind == "state":
            if message["version"] < self.version:
                return  # older than what is shown: ignored
            self.version = message["version"]
            self.regions.update(message["html"])
            self.arrived = []
        elif kind == "card":
            if message["version"] != self.version:
                await self.client.send({"action": "sync"})  # a gap: ask for the whole view
                return
            self.arrived.append(message)
        elif kind == "closed":
            self.closed = message
        else:
            raise AssertionError(f"{self.user} was sent {message}")

    async def _next(self, timeout):
        output = await self.client.communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            self.close_code = output.get("code")
            return None
        message = json.loads(output["text"])
        self.client.received.append(message)
        return message

    async def catch_up(self, version: int, quiet=0.15):
        """Read pushes until this socket shows `version` and nothing more comes."""
        while self.close_code is None:
            if self.version >= version and await self.client.communicator.receive_nothing(timeout=quiet):
                return
            message = await self._next(timeout=10)
            if message is not None:
                await self.take(message)

    def shown_hand(self) -> list[str]:
        cards = hand_cards(self.regions.get("hand", ""))
        for push in self.arrived:
            assert f'data-card="{push["card"]}"' in push["html"]
            cards.insert(push["index"], push["html"])
        return cards

    def shown_declare(self) -> str | None:
        declared = [push["declare"] for push in self.arrived if "declare" in push]
        return declare_block(declared[-1]) if declared else declare_block(self.regions.get("hand"))


# --- fresh renders -------------------------------------------------------------------

_clients: dict[int, Client] = {}


@sync_to_async
def page_for(user, table_id) -> tuple[int, str]:
    if user.pk not in _clients:
        _clients[user.pk] = Client()
        _clients[user.pk].force_login(user)
    response = _clients[user.pk].get(reverse("table", args=[table_id]))
    return response.status_code, response.content.decode()


def region_in_page(page: str, name: str, html: str) -> bool:
    """The page's element with this id holds exactly `html` (regions are inserted verbatim)."""
    opening = re.search(rf'<(div|aside) id="{name}"[^>]*>', page)
    return opening is not None and page.startswith(html + f"</{opening.group(1)}>", opening.end())


@sync_to_async
def autoplayed(user, table_id) -> bool:
    return Seat.objects.filter(table_id=table_id, user=user, autoplay=True).exists()


async def fresh_socket_view(user, table_id) -> dict:
    client = await ws_client(f"/ws/table/{table_id}/", user)
    first = await client.receive()
    await client.close()
    assert first["type"] == "state"
    return first


async def assert_matches_fresh(shown: Shown, version: int):
    assert shown.version == version, f"{shown.user} shows version {shown.version}, the table is at {version}"
    status, page = await page_for(shown.user, shown.table_id)
    assert status == 200
    for name, html in shown.regions.items():
        assert region_in_page(page, name, html), f"{shown.user}: region {name} differs from the page"
    if not await autoplayed(shown.user, shown.table_id):  # (a new socket would resume the seat)
        fresh = await fresh_socket_view(shown.user, shown.table_id)
        assert fresh["version"] == version
        assert fresh["html"] == shown.regions, f"{shown.user}: pushes and a fresh socket disagree"


# --- the log -------------------------------------------------------------------------


@sync_to_async
def assert_log_folds_to_snapshot(table_id):
    table = Table.objects.get(pk=table_id)
    rows = list(TableEvent.objects.filter(table_id=table_id).order_by("seq").values_list("seq", "action"))
    assert rows and rows[-1][0] == table.version  # every version has its row
    assert [seq for seq, _ in rows] == list(range(rows[0][0], table.version + 1))
    actions = [action for _seq, action in rows]
    starts = [i for i, action in enumerate(actions) if action["type"] == "start_match"]
    if table.state is None:
        return
    rules = replay.start_rules(actions[starts[-1]])
    folded = replay.fold(replay.engine_actions(actions[starts[-1] + 1 :]), rules)
    assert folded.to_json() == table.state


# --- acting --------------------------------------------------------------------------


@sync_to_async
def loaded(table_id):
    table = Table.objects.get(pk=table_id)
    seats = list(table.seats.select_related("user").order_by("position"))
    return table, seats, (engine.Game.from_json(table.state) if table.state else None)


async def act(table_id, action, *, user=None, issuer=Issuer.PLAYER):
    table, _seats, _game = await loaded(table_id)
    return await rooms.here().act(table_id, action=action, expected_version=table.version, user=user, issuer=issuer)


# The clock's memory (games/runtime/runner.py): the bots looked at this version of the
# table with this many cards dealt and declined, so that look is not due again.
LOOKED: dict[int, tuple[int, int]] = {}


@sync_to_async
def _due(table_id):
    table = Table.objects.get(pk=table_id)
    seats = list(table.seats.order_by("position"))
    memory = LOOKED.get(table_id)
    looked = memory[1] if memory and memory[0] == table.version else None
    return table, clock.due_step(table, engine.Game.from_json(table.state), seats, timezone.now(), looked=looked)


async def decided_step(table_id, kind, timeout=10.0):
    """Wait for the timed step `kind` to fall due and decide it as the runner does: the
    table, the step and its action with the bot's move; None when the bots looked and
    declined (remembered, as the runner remembers it)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + timeout
    while True:
        table, step = await _due(table_id)
        if step is not None and step.action and step.action["type"] == kind and step.due <= timezone.now():
            break
        assert loop.time() < give_up, f"{kind} never fell due (next: {step})"
        await asyncio.sleep(0.02)
    return await _decide(table_id, table, step)


async def _decide(table_id, table, step):
    action = await sync_to_async(with_bot_move)(table, step.action)
    if action.get("move", True) is None:
        LOOKED[table_id] = (table.version, step.look)
        return None
    return table, step, action


async def decide_due(table_id):
    """Whatever timed step is due now, decided: (its kind, the decision or None)."""
    table, step = await _due(table_id)
    if step is None or step.action is None or step.due > timezone.now():
        return None, None
    return step.action["type"], await _decide(table_id, table, step)


async def submit(table_id, decided):
    table, step, action = decided
    return await rooms.here().act(
        table_id, action=action, expected_version=table.version, user=None, issuer=step.issuer
    )


async def clock_step(table_id, kind, timeout=10.0):
    """Wait for the timed step `kind` to fall due and submit it as the runner does."""
    decided = await decided_step(table_id, kind, timeout)
    assert decided is not None, f"the bots declined the {kind} step"
    return await submit(table_id, decided)


async def verify(table_id, shown: list[Shown], acting, kind):
    """Submit one command; every socket's pushes must rebuild a fresh render of the new version."""
    before = (await loaded(table_id))[0].version
    outcome = await acting
    assert outcome.version > before
    await asyncio.gather(*(s.catch_up(outcome.version) for s in shown))
    for s in shown:
        await assert_matches_fresh(s, outcome.version)
    await assert_log_folds_to_snapshot(table_id)
    logged = await sync_to_async(list)(
        TableEvent.objects.filter(table_id=table_id, seq__gt=before).values_list("action__type", flat=True)
    )
    # A bot step is logged as the move it carried, a forced play as the play it was.
    logged_as = set(play.BOT_MOVES) if kind in play.BOT_STEPS else {"play"} if kind == "play_forced" else {kind}
    assert logged_as & set(logged), logged
    covered.add(kind)
    return outcome


def _invite(sender, recipient, table_id):
    from games.friends.models import Follow
    from games.friends.service import invitation_send

    Follow.objects.create(follower=sender, followed=recipient)
    Follow.objects.create(follower=recipient, followed=sender)
    return invitation_send(sender=sender, table_id=table_id, recipient_id=recipient.pk)


async def connect(user, table_id) -> Shown:
    shown = Shown(await ws_client(f"/ws/table/{table_id}/", user), user, table_id)
    await shown.catch_up((await loaded(table_id))[0].version)
    return shown


# --- the commands ----------------------------------------------------------------------


async def test_every_command_rebuilds_a_fresh_render_and_the_log_folds(players, fast_clock, no_runner):
    fast_clock.GAMES_DEAL_LEAD_IN_MS = 2500  # the start is verified before the first card
    north, east, south, west = players
    watcher = await sync_to_async(make_user)("watcher")
    moderator = await sync_to_async(make_moderator)()
    table = await sync_to_async(make_table)(
        north, players=[north], pace_ms=1, window_ms=50, turn_limit_s=1, allow_bots=True
    )
    tid = table.pk
    shown = [await connect(user, tid) for user in (north, east, watcher)]
    users = {0: north, 1: east, 2: south, 3: west}

    # Seating, before the match.
    await verify(tid, shown, act(tid, {"type": "sit", "seat": 1}, user=east), "sit")
    await verify(tid, shown, act(tid, {"type": "stand"}, user=east), "stand")
    # A friend takes the seat an invitation offers (games/friends/commands.py), then stands.
    invitation = await sync_to_async(_invite)(north, east, tid)
    accept = {"type": "accept_invitation", "invitation": invitation.pk}
    await verify(tid, shown, act(tid, accept, user=east), "accept_invitation")
    await verify(tid, shown, act(tid, {"type": "stand"}, user=east), "stand")
    await verify(tid, shown, act(tid, {"type": "add_bot", "seat": 2, "level": "basic"}, user=north), "add_bot")
    await verify(tid, shown, act(tid, {"type": "bot_level", "seat": 2, "level": "strong"}, user=north), "bot_level")
    await verify(tid, shown, act(tid, {"type": "remove_bot", "seat": 2}, user=north), "remove_bot")
    for seat in (1, 2, 3):
        await verify(tid, shown, act(tid, {"type": "sit", "seat": seat}, user=users[seat]), "sit")

    # The match starts (its first start_hand in the same write); then the deal runs.
    await verify(tid, shown, act(tid, {"type": "start_match"}, user=north), "start_match")
    table, _seats, _game = await loaded(tid)
    last_card = clock.card_due_at(table, clock.DECK_DEALT - 1)
    await asyncio.sleep(max(0.0, (last_card - timezone.now()).total_seconds()) + 0.3)
    for s in shown:  # the deal's card pushes, before the clock persists it
        await s.catch_up(table.version)
        if s.user in (north, east):
            assert s.arrived, f"{s.user} was pushed no dealt card"
            fresh = await fresh_socket_view(s.user, tid)
            assert fresh["version"] == s.version
            assert len(s.shown_hand()) == 25 and s.shown_hand() == hand_cards(fresh["html"]["hand"])
            assert s.shown_declare() == declare_block(fresh["html"]["hand"])
    await verify(tid, shown, clock_step(tid, "deal"), "deal")

    # A declaration in the last-chance window, then trump is fixed.
    _table, _seats, game = await loaded(tid)
    options = {seat: engine.view(game, seat)["can_declare"] for seat in range(4)}
    declarer = next(seat for seat in range(4) if options[seat])
    await verify(
        tid, shown, act(tid, {"type": "declare", "cards": options[declarer][0]}, user=users[declarer]), "declare"
    )
    await verify(tid, shown, clock_step(tid, "fix_trump"), "fix_trump")

    # The bury and a play by people; then a time-out makes a seat autoplayed.
    _table, _seats, game = await loaded(tid)
    bury = choose_action(game, game.turn, None)
    await verify(tid, shown, act(tid, {"type": "bury", "cards": bury["cards"]}, user=users[game.turn]), "bury")
    _table, _seats, game = await loaded(tid)
    cards = engine.sample_play(game, game.turn, random.Random(5))
    await verify(tid, shown, act(tid, {"type": "play", "cards": cards}, user=users[game.turn]), "play")
    _table, _seats, game = await loaded(tid)
    absent = game.turn
    await verify(tid, shown, clock_step(tid, "time_out"), "time_out")
    assert (await loaded(tid))[1][absent].autoplay

    # People play until the autoplayed seat's turn comes again: the server plays it.
    rng = random.Random(9)
    while True:
        _table, _seats, game = await loaded(tid)
        if game.turn == absent:
            break
        move = {"type": "play", "cards": engine.sample_play(game, game.turn, rng)}
        await verify(tid, shown, act(tid, move, user=users[game.turn]), "play")
    await verify(tid, shown, clock_step(tid, "bot_move"), "bot_move")
    await verify(tid, shown, act(tid, {"type": "resume"}, user=users[absent]), "resume")

    # Play on (unverified) until someone's only legal play is forced: it is played for them.
    while True:
        _table, _seats, game = await loaded(tid)
        forced = engine.forced_play(game, game.turn)
        if forced is not None:
            break
        await act(tid, {"type": "play", "cards": engine.sample_play(game, game.turn, rng)}, user=users[game.turn])
    await verify(tid, shown, act(tid, {"type": "play_forced"}, user=users[game.turn]), "play_forced")
    last = await sync_to_async(lambda: TableEvent.objects.filter(table_id=tid).order_by("-seq").first())()
    assert last.action["type"] == "play" and last.action["cards"] == forced

    # Moderation: a kick (a bot takes the seat), then the table is closed.
    from games.moderation import tables as moderation

    kicked = next(seat for seat in (2, 3) if seat != absent)
    await verify(
        tid,
        shown,
        sync_to_async(moderation.seat_kick)(
            moderator=moderator, table_id=tid, user_id=users[kicked].pk, reason="test kick"
        ),
        "kick",
    )
    assert (await loaded(tid))[1][kicked].bot == "basic"

    outcome = await sync_to_async(moderation.table_close)(moderator=moderator, table_id=tid, reason="test close")
    for s in shown:
        await s.catch_up(outcome.version + 1)  # until it is hung up on
        assert s.closed is not None and "test close" in s.closed["message"] and s.close_code == 4003
        assert (await page_for(s.user, tid))[0] == 404
        refused = await fresh_closed(s.user, tid)
        assert refused == 4403
    await assert_log_folds_to_snapshot(tid)
    covered.add("close_table")
    assert covered == PEOPLE_AND_MODERATORS


async def test_abandoning_an_idle_table_closes_it_and_the_log_folds(players, fast_clock, no_runner):
    """games/runtime/lifecycle.py: nobody connected for an hour ends the table."""
    from datetime import timedelta

    from games.runtime import lifecycle

    north = players[0]
    table = await sync_to_async(make_table)(north, players=players, pace_ms=1, window_ms=50, turn_limit_s=30)
    await act(table.pk, {"type": "start_match"}, user=north)
    shown = [await connect(north, table.pk)]
    long_ago = timezone.now() - timedelta(hours=2)
    await sync_to_async(Table.objects.filter(pk=table.pk).update)(people_seen_at=long_ago)
    closed = await sync_to_async(lifecycle.abandon_idle)()
    assert closed == [table.pk]
    await shown[0].catch_up((await loaded(table.pk))[0].version + 1)  # until it is hung up on
    assert shown[0].close_code == 4003 and "long time" in shown[0].closed["message"]
    await assert_log_folds_to_snapshot(table.pk)
    covered.add("abandon")
    assert covered == SYSTEM


async def test_ready_between_hands_rebuilds_a_fresh_render(players, fast_clock, no_runner):
    """games/runtime/readiness.py: North says ready (the page shows who the next hand waits
    for), then South, the last person, whose Ready starts the next hand in the same step."""
    from tests.table_driver import drive

    north, south = players[0], players[2]
    table = await sync_to_async(make_table)(north, players=(north, None, south, None), pace_ms=1, window_ms=0)
    tid = table.pk
    await sync_to_async(Seat.objects.filter(table_id=tid, position__in=(1, 3)).update)(bot="basic")
    await act(tid, {"type": "start_match"}, user=north)
    _table, game = await sync_to_async(drive)(tid, {0: north, 2: south}, lambda g: g.phase == "scored")
    shown = [await connect(user, tid) for user in (north, south)]
    hand = game.hand_no
    await verify(tid, shown, act(tid, {"type": "ready", "hand": hand}, user=north), "ready")
    fast_clock.GAMES_DEAL_LEAD_IN_MS = 1500  # the next hand is verified before its first card
    await verify(tid, shown, act(tid, {"type": "ready", "hand": hand}, user=south), "ready")
    _table, _seats, game = await loaded(tid)
    assert game.hand_no == hand + 1
    assert covered == BETWEEN_HANDS
    for s in shown:
        await s.client.close()


async def fresh_closed(user, table_id):
    from tests.conftest import WsClient, session_cookie

    client = WsClient(f"/ws/table/{table_id}/", user=user, cookie=await sync_to_async(session_cookie)(user))
    connected, code = await client.connect()
    assert not connected
    return code


async def test_timed_steps_of_bots_rebuild_a_fresh_render(players, fast_clock, no_runner):
    """Four bots (the owner watches): bot declarations, the dealer bot's bury, bots' plays
    and the next hand's start, all submitted as the clock submits them."""
    fast_clock.GAMES_NEXT_HAND_DELAY_MS = 0
    owner = players[0]
    watcher = await sync_to_async(make_user)("watcher")
    table = await sync_to_async(make_table)(owner, pace_ms=1, window_ms=0, allow_bots=True)
    tid = table.pk
    shown = [await connect(user, tid) for user in (owner, watcher)]
    for seat in range(4):
        await verify(tid, shown, act(tid, {"type": "add_bot", "seat": seat, "level": "basic"}, user=owner), "add_bot")
    fast_clock.GAMES_DEAL_LEAD_IN_MS = 1500  # the start is verified before the first card
    await verify(tid, shown, act(tid, {"type": "start_match"}, user=owner), "start_match")
    fast_clock.GAMES_DEAL_LEAD_IN_MS = 0

    verified = {}
    wanted = BOTS_AND_CLOCK - {"add_bot", "start_match"}
    for _ in range(3000):
        _table, _seats, game = await loaded(tid)
        kind, decided = await decide_due(tid)
        if decided is None:  # nothing due, or the bots looked and declined
            await asyncio.sleep(0.01)
            continue
        if kind == "bot_declare" and game.phase == "deal" and "bot_declare" not in verified:
            # Until one is verified the bots look away during the deal (as if they had
            # declined), so that their first declaration falls in the last-chance window: a
            # fast deal would otherwise leave them nothing to declare there, hand after hand.
            looked_at, step, _action = decided
            LOOKED[tid] = (looked_at.version, step.look)
            continue
        # Mid-deal a render depends on the time it is made: the bots' declarations then are
        # submitted but not verified; the ones in the last-chance window are.
        if verified.get(kind, 0) < 5 and (game.phase != "deal" or kind == "deal"):
            if kind == "start_hand":
                fast_clock.GAMES_DEAL_LEAD_IN_MS = 1500  # verified before its first card
            await verify(tid, shown, submit(tid, decided), kind)
            fast_clock.GAMES_DEAL_LEAD_IN_MS = 0
            verified[kind] = verified.get(kind, 0) + 1
        else:
            try:  # (the sockets read its pushes at the next check)
                await submit(tid, decided)
            except Refusal as refusal:
                # A bot's look decided just as the deal ended is no longer the step due:
                # the write path refuses it and the runner simply takes the next step.
                assert refusal.code == "not_due" and decided[2]["type"] == "bot_declare", refusal
        if wanted <= set(verified):
            break
    assert wanted <= set(verified), verified
    assert covered == BOTS_AND_CLOCK
    for s in shown:
        await s.client.close()


@pytest.mark.events
async def test_the_servers_seating_and_bots_rebuild_a_fresh_render(players, fast_clock, no_runner):
    """An event's commands (games/duplicate/): the server places a person at a seat, and
    hands every person's seat to a bot when the round's time is up."""
    north, east, south, west = players
    table = await sync_to_async(make_table)(north, players=[north], pace_ms=1, window_ms=50, turn_limit_s=30)
    shown = [await connect(north, table.pk), await connect(east, table.pk)]
    place = {"type": "place", "seat": 1, "user": east.pk}
    await verify(table.pk, shown, act(table.pk, place, issuer=Issuer.SYSTEM), "place")
    for seat, user in ((2, south), (3, west)):
        await act(table.pk, {"type": "place", "seat": seat, "user": user.pk}, issuer=Issuer.SYSTEM)
    fast_clock.GAMES_DEAL_LEAD_IN_MS = 5000  # verified before the first card: the deal is time-derived
    await act(table.pk, {"type": "start_match"}, issuer=Issuer.SYSTEM)
    await verify(table.pk, shown, act(table.pk, {"type": "bots_take_over"}, issuer=Issuer.SYSTEM), "bots_take_over")
    assert covered == SERVER
    for s in shown:
        await s.client.close()


def test_the_tests_above_cover_every_command_of_the_write_path():
    """A new kind of command needs a case here."""
    kinds = PEOPLE_AND_MODERATORS | BOTS_AND_CLOCK | SYSTEM | BETWEEN_HANDS | SERVER
    assert set(commands.command_names()) == kinds
