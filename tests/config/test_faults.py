"""Faults survived, against real services of the test's own (tests/services.py): Redis and
PostgreSQL restarted mid-hand, a server process killed, restarts in the deal, the
last-chance window and the bury. After each: the log folds to the stored snapshot and its
versions have no gap and none twice (tests/table_driver.assert_log_whole). The stacks here
spread a table's sockets over both processes (STACK_TABLE_AFFINITY=0), the hardest case."""

import asyncio
import random
import re
import time
from collections import Counter
from datetime import timedelta

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.management import call_command
from django.db import connections
from django.utils import timezone

from config.env import channel_layer_from_url
from games import engine
from games.models import Seat, TableEvent
from games.runtime import clock
from games.web import rooms
from tests.conftest import make_table, session_cookie
from tests.servers import LiveClient, Server, Stack
from tests.services import OwnPostgres, OwnRedis
from tests.table_driver import assert_log_whole, choose_action, load, own_cards, play_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

DONE = ("scored", "finished")


def _close_connections():
    connections.close_all()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    # The pools' connections were made for the database before (config/env.py, the rooms' registry).
    connections["default"].close_pool()
    rooms.end_connections()


def _connections_died() -> None:
    """After the database restarted: this thread's connection, and every one its pool holds."""
    connections.close_all()
    connections["default"].close_pool()


@pytest.fixture(scope="module")
def own_services(django_db_blocker):
    """This module's tests (and the servers they start) use a PostgreSQL and a Redis of
    their own, migrated here; the shared test database is left as it was."""
    if connections["default"].vendor != "postgresql":
        pytest.skip("the fault tests run on PostgreSQL (set DATABASE_URL, as .ci/test does)")
    postgres, redis = OwnPostgres().start(), OwnRedis().start()
    database = connections["default"].settings_dict  # the dict every thread's connection is made from
    saved = {key: database[key] for key in ("HOST", "PORT", "NAME", "USER")}
    saved_layers = settings.CHANNEL_LAYERS
    with django_db_blocker.unblock():
        _close_connections()
        database.update(HOST="127.0.0.1", PORT=str(postgres.port), NAME="postgres", USER="postgres")
        call_command("migrate", verbosity=0)
    settings.CHANNEL_LAYERS = {"default": channel_layer_from_url(redis.url())}
    try:
        yield postgres, redis
    finally:
        with django_db_blocker.unblock():
            _close_connections()
        database.update(saved)
        settings.CHANNEL_LAYERS = saved_layers
        postgres.destroy()
        redis.destroy()


@pytest.fixture
def services(own_services, db):
    """The own services for one test; afterwards every connection of this process is
    closed (a restarted PostgreSQL broke them) before the test database is flushed."""
    yield own_services
    _close_connections()


@pytest.fixture
def collected_static():
    call_command("collectstatic", interactive=False, verbosity=0)


async def seat_a_bot(table, position=3):
    await sync_to_async(lambda: Seat.objects.filter(table=table, position=position).update(bot="basic"))()


async def open_clients(target, table, users):
    clients = []
    for user in users:
        cookie = await sync_to_async(session_cookie)(user)
        clients.append(await LiveClient.open(target, f"/ws/table/{table.pk}/", cookie, reconnect=True))
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "state")
    return clients


async def eventually(check, timeout=10.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "did not happen in time"
        await asyncio.sleep(0.05)


async def all_see(clients, version, timeout=20.0):
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "state" and m["version"] >= version, timeout=timeout)


@sync_to_async
def actions(table_id, kind):
    return [row.action for row in TableEvent.objects.filter(table_id=table_id, action__type=kind)]


async def start_and_play(clients, table, done, **options):
    await clients[0].send({"action": "start_match", "version": table.version})
    return await play_until(clients, table.pk, done, **options)


async def test_redis_restarted_mid_hand(services, players):
    _postgres, redis = services
    stack = Stack(processes=2, STACK_TABLE_AFFINITY="0", REDIS_URL=redis.url()).start()
    try:
        table = await sync_to_async(make_table)(players[0], players=players[:3])
        await seat_a_bot(table)  # the clock moves it: a hand that ends proves the clock resumed
        clients = await open_clients(stack, table, players[:3])
        # Up to a person's turn (play_until sends nothing once it is done).
        table, game = await start_and_play(
            clients, table, lambda g: g.phase == "play" and len(g.tricks) >= 2 and g.turn != 3
        )

        # A move on its way as Redis goes: it is accepted, and only its news may be lost.
        seat = game.turn
        (move, copies), sent_at = once_only_move(game, seat), table.version
        await clients[seat].send({**move, "version": sent_at})
        await sync_to_async(redis.stop)()
        try:
            await eventually(lambda: all(client.closes for client in clients), timeout=5)  # every socket noticed
            accepted, _game = await load(table.pk)
            assert accepted.version > table.version
            await asyncio.sleep(1.0)  # reconnecting meanwhile is refused
        finally:
            await sync_to_async(redis.start)()

        # Every socket reconnected and read the table as it is, with the move made in the outage.
        await reconnected(clients)
        assert all(since_reconnect(client, "state")[0]["version"] >= accepted.version for client in clients)
        table, game = await play_until(clients, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
        assert game.result["hand_no"] == 1
        # That very move is in the log once: at the version it was sent for, never again (an
        # earlier entry with the same cards is the seat's play of their twin: two decks).
        logged = await sync_to_async(
            lambda: list(
                TableEvent.objects.filter(
                    table_id=table.pk, seq__gt=sent_at, action={"type": "play", "seat": seat, "cards": move["cards"]}
                ).values_list("seq", flat=True)
            )
        )()
        assert logged[:1] == [sent_at + 1] and len(logged) <= copies  # copies: 1 but in a rare deal
        await all_see(clients, table.version)
        await assert_log_whole(table.pk)
        for client in clients:
            await client.close()
    finally:
        stack.stop()


def once_only_move(game, seat):
    """A legal play of `seat`, if there is one, of cards it holds one copy of each (two decks:
    a seat may hold a card twice), so that it may be in this hand's log once only; and how
    many times it may be there."""
    rng = random.Random(3)
    for _attempt in range(200):
        move = choose_action(game, seat, rng)
        if all(game.hands[seat].count(card) == 1 for card in move["cards"]):
            break
    return move, min(game.hands[seat].count(card) for card in move["cards"])


async def test_postgres_restarted_mid_hand(services, players):
    postgres, redis = services
    stack = Stack(processes=2, STACK_TABLE_AFFINITY="0", REDIS_URL=redis.url()).start()
    try:
        # A turn time limit: the clock has a deadline to keep through the outage.
        table = await sync_to_async(make_table)(players[0], players=players, turn_limit_s=15)
        clients = await open_clients(stack, table, players)
        table, game = await start_and_play(clients, table, lambda g: g.phase == "play" and len(g.tricks) >= 2)
        seat, deadline = game.turn, table.deadline
        assert deadline is not None

        await sync_to_async(postgres.stop)()
        try:
            # The move of the player to move gets a clear error, and the socket stays open.
            move = choose_action(game, seat, random.Random(5))
            await clients[seat].send({**move, "version": table.version})
            error = await clients[seat].wait_for(lambda m: m["type"] == "error", timeout=10)
            assert error["code"] == "unavailable" and "nothing changed" in error["message"]
            assert not clients[seat].closes
            # The seat's turn ends while the database is away: the clock cannot write its
            # time-out then, and must not forget it.
            while timezone.now() < deadline + timedelta(seconds=1):
                await asyncio.sleep(0.1)
            back_at = timezone.now()
        finally:
            await sync_to_async(postgres.start)()
        await sync_to_async(_connections_died)()  # this process's died with it too

        # Nothing changed in the outage: the next entry of the log is the clock's time-out
        # (a bot plays the seat from then on), written once the database was back.
        timed_out = await sync_to_async(_first_after)(table.pk, table.version, timeout=20)
        assert timed_out.source == "bot" and timed_out.action["seat"] == seat
        assert timed_out.created_at >= back_at > deadline
        assert await sync_to_async(lambda: Seat.objects.get(table=table, position=seat).autoplay)()
        others = {s: client for s, client in enumerate(clients) if s != seat}  # the clock plays `seat`
        table, game = await play_until(others, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
        assert game.result["hand_no"] == 1
        await all_see(clients, table.version)
        await assert_log_whole(table.pk)
        for client in clients:
            await client.close()
    finally:
        stack.stop()


def _first_after(table_id, version, timeout):
    """The log's entry for version + 1, once it is there (waits up to `timeout` seconds)."""
    deadline = time.monotonic() + timeout
    while not (found := TableEvent.objects.filter(table_id=table_id, seq=version + 1).first()):
        assert time.monotonic() < deadline, "the clock did not act after the database came back"
        time.sleep(0.2)
    return found


async def test_a_killed_server_process_hands_its_sockets_and_the_clock_to_the_other(services, players):
    _postgres, redis = services
    stack = Stack(processes=2, STACK_TABLE_AFFINITY="0", REDIS_URL=redis.url()).start()
    try:
        doomed, survivor = stack.upstream_of("tables-1"), stack.upstream_of("tables-2")
        table = await sync_to_async(make_table)(players[0], players=players, pace_ms=40, window_ms=200)
        clients = await open_clients(stack, table, players)
        assert {c.upstream for c in clients} == {doomed, survivor}
        # Only the doomed process keeps sockets of the table, so only its clock runs it.
        away = [seat for seat, c in enumerate(clients) if c.upstream == survivor]
        for seat in away:
            await clients[seat].close()
        await clients[0 if 0 not in away else next(s for s in range(4) if s not in away)].send(
            {"action": "start_match", "version": table.version}
        )
        await asyncio.sleep(1.0)  # mid-deal (4 s at 40 ms a card)
        assert (await load(table.pk))[1].phase == "deal"

        await sync_to_async(stack.kill)("tables-1", for_good=True)  # it stays down: no restart to race
        for seat in away:  # those players come back, too
            cookie = await sync_to_async(session_cookie)(players[seat])
            clients[seat] = await LiveClient.open(stack, f"/ws/table/{table.pk}/", cookie, reconnect=True)
        # The doomed process's sockets reconnected through nginx to the survivor, whose clock
        # ends the deal and fixes trump.
        table, _game = await play_until(clients, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
        assert all(client.upstream == survivor for client in clients)
        assert all(clients[seat].upstreams == [doomed, survivor] for seat in range(4) if seat not in away)
        assert len(await actions(table.pk, "fix_trump")) == 1
        await all_see(clients, table.version)
        await assert_log_whole(table.pk)
        for client in clients:
            await client.close()
    finally:
        stack.stop()


async def restart(server):
    """Kill the one server process (a crash) and start a new one on its port: its memory is
    gone; the sockets reconnect by themselves (LiveClient with reconnect)."""
    await sync_to_async(server.kill)()
    return await sync_to_async(Server(port=server.port, REDIS_URL=server.env["REDIS_URL"]).start)()


HAND_BUTTON = re.compile(r'class="card-btn"[^>]*? data-card="([A-Z0-9]+)"')


def hand_cards(message) -> list[str]:
    """The cards of the seat's hand in a state message (its selectable buttons)."""
    return HAND_BUTTON.findall(message["html"]["hand"])


async def finish_hand(clients, table_id):
    """Play the hand out, check the log folds to the snapshot without gaps, hang up."""
    await play_until(clients, table_id, lambda g: g.phase in DONE, timeout=120)
    await assert_log_whole(table_id)
    for client in clients:
        await client.close()


async def reconnected(clients, timeout=20.0):
    """Every client connected again and got its first state on the new connection."""
    await eventually(
        lambda: all(len(c.connected_at) >= 2 and since_reconnect(c, "state") for c in clients), timeout=timeout
    )


def since_reconnect(client, kind):
    """The messages of this kind the client's latest connection received."""
    assert len(client.connected_at) >= 2, "the client did not reconnect"
    return [m for m in client.received[client.connected_at[-1] :] if m["type"] == kind]


async def test_a_restart_during_the_deal_resumes_it_exactly(services, players):
    _postgres, redis = services
    server = Server(REDIS_URL=redis.url()).start()
    try:
        # A last-chance window long enough to look at every hand before the dealer takes the
        # kitty into theirs (on a busy machine 300 ms was sometimes not).
        table = await sync_to_async(make_table)(players[0], players=players, pace_ms=80, window_ms=5000)
        clients = await open_clients(server, table, players)
        await clients[0].send({"action": "start_match", "version": table.version})
        # A declaration early in the deal, by the first seat that can make one (RULES §3.1).
        declared = None
        while declared is None:
            table, game = await load(table.pk)
            live = clock.live(table, game, timezone.now()) if game else None
            for seat in range(4) if live and live.phase == "deal" else ():
                options = engine.legal_declarations(live, seat)
                if options:
                    await clients[seat].send({"action": "declare", "cards": options[0], "version": table.version})
                    declared = (seat, options[0])
                    break
            await asyncio.sleep(0.02)
        table, game = await play_until(clients, table.pk, lambda g: g.standing is not None, timeout=5)
        standing = game.standing
        assert standing["seat"] == declared[0] and game.phase == "deal"
        while clock.dealt_at(table, timezone.now()) < 30:
            await asyncio.sleep(0.02)
        server = await restart(server)
        await reconnected(clients)
        table, game = await play_until(clients, table.pk, lambda g: g.phase != "deal", timeout=30)
        assert game.standing == standing  # the declaration survived
        for seat, client in enumerate(clients):
            # The first state after the reconnect shows the cards dealt so far and the pushes
            # after it bring the rest, none twice (the last may come with the next state
            # instead); once dealt, the hand is exactly the seat's 25 cards of the deck, but for
            # those it declared with, shown in its declaration area (RULES §3.2).
            dealt = Counter(game.deck[i] for i in range(engine.DEALT_CARDS) if (game.first + i) % 4 == seat)
            mine = dealt - Counter(game.areas[seat])
            await client.wait_for(lambda m: m["type"] == "state" and m["version"] >= table.version)
            first = hand_cards(since_reconnect(client, "state")[0])
            pushed = [m["card"] for m in since_reconnect(client, "card")]
            assert 0 < len(first) < 25 and len(first) + len(pushed) >= mine.total() - 1
            assert Counter(first + pushed) <= mine
            # A state carries only the regions that changed (games/web/room.py): the
            # page shows the hand of the latest state that carried one.
            shown = [m for m in since_reconnect(client, "state") if "hand" in m["html"]]
            assert Counter(hand_cards(shown[-1])) == mine
        await finish_hand(clients, table.pk)
    finally:
        server.kill()


async def test_a_restart_in_the_last_chance_window_keeps_its_deadline(services, players):
    _postgres, redis = services
    server = Server(REDIS_URL=redis.url()).start()
    try:
        table = await sync_to_async(make_table)(players[0], players=players, pace_ms=5, window_ms=8000)
        clients = await open_clients(server, table, players)
        await clients[0].send({"action": "start_match", "version": table.version})
        table, game = await play_until(clients, table.pk, lambda g: g.phase == "last_chance", timeout=30)
        deadline = table.deadline

        server = await restart(server)
        await reconnected(clients)
        after, game = await load(table.pk)
        assert (after.version, after.deadline, game.phase) == (table.version, deadline, "last_chance")
        # The window is still open after the restart: a declaration in it counts (RULES §3.4).
        seat = next(s for s in range(4) if engine.legal_declarations(game, s))
        cards = engine.legal_declarations(game, seat)[0]
        await clients[seat].send({"action": "declare", "cards": cards, "version": after.version})
        table, game = await play_until(
            clients, table.pk, lambda g: g.standing is not None or g.phase != "last_chance", timeout=5
        )
        assert game.phase == "last_chance" and game.standing["seat"] == seat
        assert (await actions(table.pk, "declare"))[-1]["cards"] == cards
        table, game = await play_until(clients, table.pk, lambda g: g.phase != "last_chance", timeout=30)
        fixes = await sync_to_async(
            lambda: list(TableEvent.objects.filter(table_id=table.pk, action__type="fix_trump"))
        )()
        assert len(fixes) == 1 and fixes[0].created_at >= deadline  # not before the window closed
        await finish_hand(clients, table.pk)
    finally:
        server.kill()


async def test_a_restart_during_the_bury_gives_the_dealer_their_33_cards(services, players):
    _postgres, redis = services
    server = Server(REDIS_URL=redis.url()).start()
    try:
        table = await sync_to_async(make_table)(players[0], players=players, pace_ms=5, window_ms=50)
        clients = await open_clients(server, table, players)
        await clients[0].send({"action": "start_match", "version": table.version})
        table, game = await play_until(clients, table.pk, lambda g: g.phase == "bury", timeout=30)
        dealer = game.dealer

        server = await restart(server)
        await reconnected(clients)
        shown = hand_cards(since_reconnect(clients[dealer], "state")[0])
        assert len(shown) == engine.DEALT_CARDS // 4 + 8
        assert set(shown) == own_cards(table.state, dealer, dealer)
        assert sorted(shown) == sorted(game.hands[dealer])
        for seat in set(range(4)) - {dealer}:  # the kitty stays the dealer's alone (RULES §9)
            assert len(hand_cards(since_reconnect(clients[seat], "state")[0])) == engine.DEALT_CARDS // 4
        await finish_hand(clients, table.pk)
    finally:
        server.kill()
