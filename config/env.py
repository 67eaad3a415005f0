"""Read deployment settings from the environment (twelve-factor style).

Kept apart from settings.py so the parsing is small, testable and obvious.
"""

import os
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import dj_database_url


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def database_from_url(url: str | None, base_dir: Path, pool_size: int | None = None) -> dict[str, Any]:
    """DATABASE_URL → Django DATABASES['default'] (dj-database-url); SQLite when unset.

    PostgreSQL connections come from Django's own pool (psycopg_pool, `OPTIONS["pool"]`): a
    thread borrows one for a request or a database call and gives it back when Django closes
    it (CONN_MAX_AGE 0, as pooling requires). Under ASGI every HTTP request runs in a thread
    of its own, so a connection kept per thread would stay open after the thread is gone;
    the pool keeps at most `pool_size` per process (DATABASE_POOL_SIZE, 16 when unset)."""
    if not url:
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": base_dir / "db.sqlite3"}
    url, hosts, ports = _split_hosts(url)
    # parse() returns a TypedDict (DBConfig); the SQLite default above (its NAME a Path) is
    # not one, so both come back as the plain settings dict Django takes.
    database: dict[str, Any] = dict(
        dj_database_url.parse(
            url,
            conn_max_age=0,
            # No health check: it is one more round trip ("SELECT 1") each time a connection
            # leaves the pool, on every action. The price: after a database restart each
            # pooled connection fails once (a socket reconnects; the clock retries), and the
            # pool replaces it.
            conn_health_checks=False,
        )
    )
    if hosts:
        database.update(HOST=hosts, PORT=ports)
    if pool_size is None:
        pool_size = int(os.environ.get("DATABASE_POOL_SIZE", "16"))
    if database["ENGINE"] == "django.db.backends.postgresql":
        # A thread that finds every connection lent out (or the database away) waits for one,
        # at most `timeout` seconds.
        database["OPTIONS"] = {
            **database.get("OPTIONS", {}),
            "pool": {"min_size": 1, "max_size": pool_size, "timeout": 2},
        }
    return database


def _split_hosts(url: str) -> tuple[str, str, str]:
    """A libpq multi-host URL (postgres://user@db1:5432,db2:5432/name?target_session_attrs=
    read-write) → the URL with its first host only, which dj-database-url can parse, and every
    host and port, comma-separated as libpq takes them in HOST and PORT ("db1,db2",
    "5432,5432"; a host without a port gets 5432). libpq tries the hosts in turn and, with
    target_session_attrs=read-write, keeps the one that accepts writes: after a standby is
    promoted, new connections find it. One host: the URL as it was, and no hosts."""
    parts = urlsplit(url)
    credentials, _at, hostlist = parts.netloc.rpartition("@")
    if "," not in hostlist:
        return url, "", ""
    hosts, ports = [], []
    for entry in hostlist.split(","):
        host, colon, port = entry.rpartition(":")
        if not colon or entry.endswith("]"):  # no port given ([::1] is a host alone)
            host, port = entry, ""
        hosts.append(host.strip("[]"))
        ports.append(port or "5432")
    first = f"{credentials}@{hostlist.split(',')[0]}" if credentials else hostlist.split(",")[0]
    return urlunsplit(parts._replace(netloc=first)), ",".join(hosts), ",".join(ports)


def redis_sentinels(value: str | None) -> list[tuple[str, int]]:
    """REDIS_SENTINELS ("10.0.0.5:26379,10.0.0.6:26379,…") → [(host, port), …]; empty: none.
    With Sentinels, REDIS_URL's host is the name of the primary they watch
    (redis://doubleup/0), and every client asks them where that primary is now."""
    sentinels = []
    for entry in (value or "").split(","):
        if entry.strip():
            host, _colon, port = entry.strip().rpartition(":")
            sentinels.append((host, int(port or 26379)) if host else (entry.strip(), 26379))
    return sentinels


def channel_layer_from_url(url: str | None, sentinels: list[tuple[str, int]] | None = None) -> dict[str, Any]:
    """REDIS_URL → the Redis channel layer; the in-memory layer when unset. With `sentinels`
    (REDIS_SENTINELS), the layer's pool asks them for the current primary of the service
    REDIS_URL names (channels-redis's own Sentinel support) and asks again after a failover."""
    if not url:
        return {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    # redis-py 8 caps an async pool at 100 connections and fails at once when it is
    # exhausted; keep the cap deliberate. It also defaults socket_timeout to 5 s, which must
    # not cut a quiet subscription: bounded, but above that.
    limits = {"max_connections": 2000, "socket_timeout": 15}
    parts = urlsplit(url)
    db = int(parts.path.strip("/") or 0)
    if sentinels:
        host: dict[str, Any] = {
            "master_name": parts.hostname,
            "sentinels": sentinels,
            "db": db,
            # A Sentinel that is down must not hold up the question: ask the next one.
            "sentinel_kwargs": {"socket_timeout": 1, "socket_connect_timeout": 1},
            "socket_connect_timeout": 2,
            **limits,
        }
        if parts.password:
            host["password"] = parts.password
    else:
        host = {"address": url, **limits}
    return {
        # Pub/sub: a group message is one PUBLISH, and each process gets it once and hands it
        # to its own sockets, where the list-based layer queues and pops it per socket (a
        # large share of the server's CPU per action; bench/RESULTS.md, docs/performance.md).
        # Group messages here are only "changed, version N" hints, resynced on a gap, so
        # pub/sub's at-most-once delivery is what the design already assumes (STYLE pitfall 1).
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        # Redis's pub/sub channels ignore the database number: two sites (or two test
        # workers) on one Redis server, each on a database of its own, would hear each
        # other's "table 9 changed". The database number goes into every channel's name.
        "CONFIG": {"hosts": [host], "prefix": f"asgi.db{db}."},
    }


def cache_from_url(
    url: str | None, key_prefix: str = "doubleup", sentinels: list[tuple[str, int]] | None = None
) -> dict:
    """Shared cache (login throttling, rate limits) in Redis; per-process memory when unset.
    `key_prefix` keeps two sites (or two test runs) on one Redis from counting each other's.
    With `sentinels` (REDIS_SENTINELS), django-redis's Sentinel connection factory finds the
    primary of the service REDIS_URL names (reads too: a replica's counts may lag)."""
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    # django-redis, not Django's own Redis backend: Django makes a cache object per thread and
    # per asyncio task (every socket), and its backend opened a connection pool for each,
    # kept as long as the socket; django-redis shares one pool per process.
    cache: dict[str, Any] = {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": url, "KEY_PREFIX": key_prefix}
    if sentinels:
        cache["OPTIONS"] = {
            "CONNECTION_FACTORY": "django_redis.pool.SentinelConnectionFactory",
            "SENTINELS": sentinels,
            "SENTINEL_KWARGS": {"socket_timeout": 1, "socket_connect_timeout": 1},
            # The cache is never worth a long wait: a throttle check fails fast in a failover.
            "SOCKET_CONNECT_TIMEOUT": 2,
            "SOCKET_TIMEOUT": 2,
        }
    return cache
