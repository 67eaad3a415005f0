"""Shared fixtures: users with real sessions, tables, and websocket clients that go
through the real ASGI application (auth middleware, origin check, channel layer)."""

import asyncio
import json
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.test import Client

pytest_plugins = [
    "tests.browser",  # the browser tests' live server and chromium, one per worker
    "tests.schedule",  # which worker takes which file
    "tests.table_points",  # tables at named points of one hand, played once per worker
]

ORIGIN = (b"origin", b"http://127.0.0.1:8000")
HOST = (b"host", b"127.0.0.1:8000")  # the site the test sockets connect to


def pytest_collection_modifyitems(items):
    """The long files first, by their markers: .ci/test hands out files in this order
    (`--dist loadfile --no-loadscope-reorder`, tests/schedule.py), so that no worker is left
    with a long file at the end while the others have finished."""

    def weight(item) -> int:
        for rank, marker in enumerate(("multihost", "browser", "slow")):
            if item.get_closest_marker(marker):
                return rank
        return 3

    items.sort(key=weight)


@pytest.fixture(autouse=True)
def fast_and_isolated(settings):
    """A cheap password hasher, and cache keys of this test only (login throttling and chat
    rate limits count in the shared Redis cache)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}


@pytest.fixture(autouse=True)
def default_language_after():
    """A test that renders in Chinese must not leave Chinese active for the next one."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Before the test's fixtures end (its event loop among them), the connections of its
    rooms' registry (games/web/rooms.py, table_rows.LoopConnections) are closed in that loop.
    Left to the loop's end, the pool's tasks take the loop's cancellation for a failed
    connection (psycopg_pool counts CancelledError among those and tries again) and the
    loop's close waits for them for good."""
    from games.web import rooms

    registry = rooms.current()
    if registry is not None and not registry.loop.is_closed() and asyncio._get_running_loop() is None:
        registry.loop.run_until_complete(asyncio.wait_for(registry.connections.aclose(), timeout=10))
    return (yield)


@pytest.fixture(autouse=True)
def sync_thread_connections_closed():
    """Async tests reach the database through asgiref's one thread for sync code, and the
    write path through the connections of the loop's rooms; close them after each test, or
    they still hold the test database when that is dropped."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    from games.web import rooms

    # Bounded: a test that left that thread blocked (on a row its own transaction locks, say)
    # fails here instead of holding the whole run.
    SyncToAsync.single_thread_executor.submit(connections.close_all).result(timeout=60)
    rooms.let_go()  # the event loop's registry, with its connections (games/web/rooms.py)


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """Each test runs its own event loop; a channel layer (and its receive lock) created in
    one loop must not be reused by the next, or one test's leftovers break the rest."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def fast_clock(settings):
    """Timed steps fast enough for tests; the clock logic is the same."""
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_NEXT_HAND_DELAY_MS = 60_000  # tests start the next hand themselves
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    return settings


def make_user(username: str, password: str = "a-long-test-pass-1"):
    return get_user_model().objects.create_user(username=username, password=password)


def make_moderator(username="mod"):
    """A staff user with the moderation permission (not a superuser)."""
    from django.contrib.auth.models import Permission

    user = make_user(username)
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.user_permissions.add(Permission.objects.get(codename="moderate", content_type__app_label="accounts"))
    return type(user).objects.get(pk=user.pk)  # fresh: no cached permissions


def session_id(user) -> str:
    """The key of a new session where `user` is logged in (Django's test client opens it)."""
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def session_cookie(user) -> bytes:
    return f"sessionid={session_id(user)}".encode()


def make_table(owner, *, players=(), pace_ms=5, window_ms=50, **options):
    """A table with `players` seated in order (None leaves a seat free)."""
    from games.models import Seat
    from games.runtime.tables import table_create

    table = table_create(
        owner=owner, name=f"{owner.username}'s table", deal_pace_ms=pace_ms, last_chance_ms=window_ms, **options
    )
    for position, user in enumerate(players):
        if user is not None:
            Seat.objects.filter(table=table, position=position).update(user=user)
    return table


class WsClient:
    """A websocket client that keeps every message it received (for leak checks)."""

    def __init__(self, path: str, user=None, cookie: bytes | None = None, origin=ORIGIN):
        from config.asgi import application

        headers = [HOST, origin] if origin else [HOST]
        if cookie is not None:
            headers.append((b"cookie", cookie))
        self.communicator = WebsocketCommunicator(application, path, headers=headers)
        self.received: list[dict] = []
        self.user = user

    async def connect(self):
        return await self.communicator.connect()

    async def send(self, payload):
        await self.communicator.send_to(text_data=json.dumps(payload) if not isinstance(payload, str) else payload)

    async def receive(self, timeout=5.0) -> dict:
        message = json.loads(await self.communicator.receive_from(timeout=timeout))
        self.received.append(message)
        return message

    async def receive_until(self, predicate, timeout=10.0) -> dict:
        import asyncio

        async def loop():
            while True:
                message = await self.receive(timeout=timeout)
                if predicate(message):
                    return message

        return await asyncio.wait_for(loop(), timeout)

    async def drain(self):
        while not await self.communicator.receive_nothing(timeout=0.05):
            await self.receive()

    async def close(self):
        await self.communicator.disconnect()


async def ws_client(path: str, user) -> WsClient:
    cookie = await sync_to_async(session_cookie)(user)
    client = WsClient(path, user=user, cookie=cookie)
    connected, _code = await client.connect()
    assert connected, f"{user} could not connect to {path}"
    return client


@pytest.fixture
def players(db):
    return [make_user(name) for name in ("north", "east", "south", "west")]


def make_guest(ip: str = "192.0.2.1"):
    """A guest as the front door makes one (accounts/guests.py): no password, flagged."""
    from accounts.guests import guest_create

    return guest_create(ip=ip)


@pytest.fixture(params=["accounts", "a guest at East"])
def players_and_guest(request, db):
    """The four players, East an account or a guest: the leak and bad-input tests run with both."""
    east = make_guest() if request.param == "a guest at East" else make_user("east")
    return [make_user("north"), east, make_user("south"), make_user("west")]
