"""Deployment settings read from the environment (config/env.py)."""

import asyncio
import os
import re
from pathlib import Path

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from config.env import cache_from_url, channel_layer_from_url, database_from_url, redis_sentinels


def test_no_url_means_the_embedded_sqlite_database():
    assert database_from_url(None, Path("/srv/site")) == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": Path("/srv/site/db.sqlite3"),
    }


def test_a_postgres_url_pools_connections_without_health_checks():
    settings = database_from_url("postgres://game:s%40cret@db.example:6543/double_up", Path("."))
    assert settings["ENGINE"] == "django.db.backends.postgresql"
    assert (settings["USER"], settings["PASSWORD"]) == ("game", "s@cret")
    assert (settings["HOST"], settings["PORT"], settings["NAME"]) == ("db.example", 6543, "double_up")
    assert settings["CONN_MAX_AGE"] == 0  # a connection goes back to the pool when Django closes it
    assert settings["CONN_HEALTH_CHECKS"] is False
    assert settings["OPTIONS"]["pool"]["max_size"] == 16


def test_a_multi_host_url_gives_libpq_every_host_and_port():
    settings = database_from_url(
        "postgres://game:pw@db1.example:5432,db2.example,10.0.0.7:6543/double_up"
        "?target_session_attrs=read-write&connect_timeout=2",
        Path("."),
    )
    assert (settings["HOST"], settings["PORT"]) == ("db1.example,db2.example,10.0.0.7", "5432,5432,6543")
    assert (settings["USER"], settings["PASSWORD"], settings["NAME"]) == ("game", "pw", "double_up")
    assert settings["OPTIONS"]["target_session_attrs"] == "read-write"
    assert settings["OPTIONS"]["connect_timeout"] == 2
    assert settings["OPTIONS"]["pool"]["max_size"] == 16


def test_a_multi_host_url_reaches_the_host_that_takes_writes(db):
    """The settings go to psycopg as they are: libpq skips a host that is down."""
    import psycopg
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    from tests.servers import free_port

    real = connection.settings_dict
    url = (
        f"postgres://{real['USER']}@127.0.0.1:{free_port()},{real['HOST']}:{real['PORT']}/{real['NAME']}"
        "?target_session_attrs=read-write&connect_timeout=2"
    )
    settings = database_from_url(url, Path("."))
    options = {key: value for key, value in settings["OPTIONS"].items() if key != "pool"}
    with psycopg.connect(
        host=settings["HOST"], port=settings["PORT"], user=settings["USER"], dbname=settings["NAME"], **options
    ) as opened:
        assert opened.execute("select not pg_is_in_recovery()").fetchone() == (True,)


def test_sentinels_name_the_primary_for_the_channel_layer_and_the_cache():
    sentinels = redis_sentinels("10.0.0.5:26379, 10.0.0.6:26380,sentinel-3")
    assert sentinels == [("10.0.0.5", 26379), ("10.0.0.6", 26380), ("sentinel-3", 26379)]
    assert redis_sentinels("") == redis_sentinels(None) == []

    (host,) = channel_layer_from_url("redis://:s3cret@doubleup/2", sentinels)["CONFIG"]["hosts"]
    assert (host["master_name"], host["sentinels"], host["db"], host["password"]) == (
        "doubleup",
        sentinels,
        2,
        "s3cret",
    )
    assert host["max_connections"] == 2000 and "address" not in host
    cache = cache_from_url("redis://doubleup/2", "site", sentinels)
    assert cache["LOCATION"] == "redis://doubleup/2"
    assert cache["OPTIONS"]["CONNECTION_FACTORY"] == "django_redis.pool.SentinelConnectionFactory"
    assert cache["OPTIONS"]["SENTINELS"] == sentinels


def test_without_sentinels_redis_url_is_the_server_itself():
    (host,) = channel_layer_from_url("redis://127.0.0.1:6379/1")["CONFIG"]["hosts"]
    assert host["address"] == "redis://127.0.0.1:6379/1"
    assert "OPTIONS" not in cache_from_url("redis://127.0.0.1:6379/1")


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (a real Redis server)")
async def test_sites_on_two_databases_of_one_redis_never_hear_each_others_groups():
    """PUBLISH reaches every subscriber of the server, whatever its database: the layers of
    two sites on databases 14 and 15 of one Redis must still keep their groups apart."""
    server = re.sub(r"(/\d+)?/?$", "", os.environ["REDIS_URL"], count=1)
    ours, theirs = (RedisPubSubChannelLayer(**channel_layer_from_url(f"{server}/{db}")["CONFIG"]) for db in (14, 15))
    try:
        mine, other = await ours.new_channel(), await theirs.new_channel()
        await ours.group_add("table-9", mine)
        await theirs.group_add("table-9", other)
        await theirs.group_send("table-9", {"type": "table.changed", "version": 12})
        assert await asyncio.wait_for(theirs.receive(other), 5) == {"type": "table.changed", "version": 12}
        await ours.group_send("table-9", {"type": "table.changed", "version": 7})
        # Ours hears only its own site's news: the other site's version 12 never reached it.
        assert await asyncio.wait_for(ours.receive(mine), 5) == {"type": "table.changed", "version": 7}
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(theirs.receive(other), 0.5)
    finally:
        await ours.flush()
        await theirs.flush()
