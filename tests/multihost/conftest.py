"""One multi-host topology (tests/multihost/topology.py) for all the multihost tests of a
run, built once and mended after each test; the test process's own database connections go to
it too (the multi-host URL the application hosts use), so that the test reads the tables
it plays from the primary, whichever cluster that is."""

import time

import pytest
from asgiref.sync import SyncToAsync, sync_to_async
from django.conf import settings
from django.core.management import call_command
from django.db import connections

from config.env import channel_layer_from_url, database_from_url, redis_sentinels
from games.web import rooms
from tests.conftest import session_cookie
from tests.multihost import topology
from tests.servers import LiveClient, _connect, _upstream


def pytest_collection_modifyitems(items):
    """Every test here, and only those, carries the marker: `pytest -m multihost`."""
    for item in items:
        if "tests/multihost/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.multihost)
            item.add_marker(pytest.mark.django_db(transaction=True))


def connections_died() -> None:
    """After a PostgreSQL primary was lost: this thread's connection and every one of the
    pool (in the thread that runs sync code, from an async test: sync_to_async)."""
    connections.close_all()
    connections["default"].close_pool()
    rooms.end_connections()


def close_connections():
    """Every connection of this process (its threads', its pool's, its event loop's)."""
    connections.close_all()
    SyncToAsync.single_thread_executor.submit(connections.close_all).result()
    connections["default"].close_pool()
    rooms.end_connections()


# Package-scoped: built for the first test here, removed after the last, so the tests of
# the rest of the suite find the test database as they left it.
@pytest.fixture(scope="package")
def hosts(django_db_setup, django_db_blocker):
    why = topology.available()
    if why:
        pytest.skip(f"the multi-host topology cannot be built here: {why}")
    if connections["default"].vendor != "postgresql":
        pytest.skip("the multi-host tests run on PostgreSQL (set DATABASE_URL, as .ci/test does)")
    started = time.monotonic()
    built = topology.Topology(secret_key=settings.SECRET_KEY)
    database = connections["default"].settings_dict
    saved = {key: database[key] for key in ("HOST", "PORT", "NAME", "USER", "OPTIONS")}
    saved_layers = settings.CHANNEL_LAYERS
    try:
        built.build()
        ours = database_from_url(built.database_url(), settings.BASE_DIR)
        with django_db_blocker.unblock():
            close_connections()
            database.update({key: ours[key] for key in ("HOST", "PORT", "NAME", "USER", "OPTIONS")})
            call_command("migrate", verbosity=0)
        settings.CHANNEL_LAYERS = {
            "default": channel_layer_from_url(f"redis://{topology.MASTER}/0", redis_sentinels(built.sentinels()))
        }
        built.serve()
        # Nothing listens but on the private links and the hosts' own loopback.
        for ns, addresses in built.listeners().items():
            assert all(a.startswith(("10.41.", "127.0.0.1")) for a in addresses), (ns, addresses)
        print(f"\nthe topology started in {time.monotonic() - started:.1f} s")
        yield built
    finally:
        with django_db_blocker.unblock():
            close_connections()
        database.update(saved)
        settings.CHANNEL_LAYERS = saved_layers
        for name in ("app1", "app2", "front"):
            print(f"--- {name}'s log (end) ---\n{built.log(name)[-3000:]}")
        started = time.monotonic()
        built.destroy()
        print(f"the topology removed in {time.monotonic() - started:.1f} s")


@pytest.fixture
def site(hosts, db):
    """The topology for one test; afterwards this process's connections are closed (a
    failover broke them) and what the test broke is mended."""
    yield hosts
    close_connections()
    started = time.monotonic()
    hosts.heal()
    print(f"mended in {time.monotonic() - started:.1f} s")


def host_of(client) -> str:
    """The application host that served the client's latest connection."""
    upstream = client.upstream or ""
    return next(app for app in topology.APPS if f"/{app}/" in upstream)


async def open_client(site, table_id: int, user, *, reconnect: bool = True) -> LiveClient:
    """A player's socket through the front proxy, reconnecting as the page does."""
    cookie = await sync_to_async(session_cookie)(user)
    url = site.url(f"/ws/table/{table_id}/")
    connection = await _connect(url, site.origin, cookie)
    assert _upstream(connection)
    return LiveClient(connection, url=url, origin=site.origin, cookie=cookie, reconnect=reconnect)


async def open_clients(site, table, users) -> list[LiveClient]:
    clients = [await open_client(site, table.pk, user) for user in users]
    for client in clients:
        await client.wait_for(lambda m: m["type"] == "state")
    return clients
