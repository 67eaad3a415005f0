"""Faults survived, against real services of the test's own (tests/services.py): Redis and
PostgreSQL restarted mid-hand, a server process killed, restarts in the deal, the
last-chance window and the bury. After each: the log folds to the stored snapshot and its
versions have no gap and none twice (tests/table_driver.assert_log_whole)."""

import asyncio
import random

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.management import call_command
from django.db import connections

from config.env import channel_layer_from_url
from games.models import Seat, TableEvent
from tests.conftest import make_table, session_cookie
from tests.servers import LiveClient, Stack
from tests.services import OwnPostgres, OwnRedis
from tests.table_driver import assert_log_whole, choose_action, load, play_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

DONE = ("scored", "finished")


def _close_connections():
    connections.close_all()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


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
    stack = Stack(processes=2, REDIS_URL=redis.url()).start()
    try:
        table = await sync_to_async(make_table)(players[0], players=players[:3])
        await seat_a_bot(table)  # the clock moves it: a hand that ends proves the clock resumed
        clients = await open_clients(stack, table, players[:3])
        table, game = await start_and_play(clients, table, lambda g: g.phase == "play" and len(g.tricks) >= 2)

        await sync_to_async(redis.stop)()
        # One more move while Redis is away, before the sockets notice: it is accepted, and
        # only its news is lost.
        before = game.to_json()
        accepted, _game = await play_until(clients, table.pk, lambda g: g.to_json() != before, timeout=10)
        assert accepted.version > table.version
        await eventually(lambda: all(client.closes for client in clients), timeout=5)  # every socket noticed
        await asyncio.sleep(1.0)  # reconnecting meanwhile is refused
        await sync_to_async(redis.start)()

        # Every socket reconnected and read the table as it is, with the move made in the outage.
        await all_see(clients, accepted.version)
        assert all(len(client.upstreams) >= 2 for client in clients)
        table, game = await play_until(clients, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
        assert len(game.history) == 1
        await all_see(clients, table.version)
        await assert_log_whole(table.pk)
        for client in clients:
            await client.close()
    finally:
        stack.stop()


async def test_postgres_restarted_mid_hand(services, players):
    postgres, redis = services
    stack = Stack(processes=2, REDIS_URL=redis.url()).start()
    try:
        table = await sync_to_async(make_table)(players[0], players=players)
        clients = await open_clients(stack, table, players)
        table, game = await start_and_play(clients, table, lambda g: g.phase == "play" and len(g.tricks) >= 2)
        seat = game.turn

        await sync_to_async(postgres.stop)()
        try:
            # The move of the player to move gets a clear error, and the socket stays open.
            move = choose_action(game, seat, random.Random(5))
            await clients[seat].send({**move, "version": table.version})
            error = await clients[seat].wait_for(lambda m: m["type"] == "error", timeout=10)
            assert error["code"] == "unavailable" and "nothing changed" in error["message"]
            assert not clients[seat].closes
        finally:
            await sync_to_async(postgres.start)()
        await sync_to_async(connections.close_all)()  # this process's connection died with it too

        # Nothing changed: the table goes on from the last accepted action.
        after, _game = await load(table.pk)
        assert after.version == table.version and after.state == table.state
        table, game = await play_until(clients, table.pk, lambda g: g.phase in DONE, timeout=120, resend_after=2.0)
        assert len(game.history) == 1
        await all_see(clients, table.version)
        await assert_log_whole(table.pk)
        for client in clients:
            await client.close()
    finally:
        stack.stop()
