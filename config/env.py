"""Read deployment settings from the environment (twelve-factor style).

Kept apart from settings.py so the parsing is small, testable and obvious.
"""

import os
from pathlib import Path
from typing import Any

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


def channel_layer_from_url(url: str | None) -> dict[str, Any]:
    """REDIS_URL → the Redis channel layer; the in-memory layer when unset."""
    if not url:
        return {"BACKEND": "channels.layers.InMemoryChannelLayer"}
    return {
        # Pub/sub: a group message is one PUBLISH, and each process gets it once and hands it
        # to its own sockets, where the list-based layer queues and pops it per socket (a
        # large share of the server's CPU per action; bench/RESULTS.md, docs/performance.md).
        # Group messages here are only "changed, version N" hints, resynced on a gap, so
        # pub/sub's at-most-once delivery is what the design already assumes (STYLE pitfall 1).
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {
            # redis-py 8 caps an async pool at 100 connections and fails at once when it is
            # exhausted; keep the cap deliberate. It also defaults socket_timeout to 5 s,
            # which must not cut a quiet subscription: bounded, but above that.
            "hosts": [{"address": url, "max_connections": 2000, "socket_timeout": 15}],
        },
    }


def cache_from_url(url: str | None, key_prefix: str = "doubleup") -> dict:
    """Shared cache (login throttling, rate limits) in Redis; per-process memory when unset.
    `key_prefix` keeps two sites (or two test runs) on one Redis from counting each other's."""
    if not url:
        return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    # django-redis, not Django's own Redis backend: Django makes a cache object per thread and
    # per asyncio task (every socket), and its backend opened a connection pool for each,
    # kept as long as the socket; django-redis shares one pool per process.
    return {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": url, "KEY_PREFIX": key_prefix}
