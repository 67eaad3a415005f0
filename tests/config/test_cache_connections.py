"""The shared cache keeps one Redis connection pool per process.

Django gives every thread and every asyncio task its own cache object (tickets #33625,
#35651); its Redis backend opened a pool, and a connection, for each, and only a finished
HTTP request closes them: every websocket that touched the cache (presence, rate limits)
left one behind, and a server's Redis connections and memory grew all day (the soak,
docs/performance.md). django-redis keeps its pools process-wide."""

import asyncio

import pytest
import redis
from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache


def _connections_to_our_db(client: redis.Redis, db: int) -> int:
    return sum(1 for entry in client.client_list() if int(entry["db"]) == db)


@pytest.mark.skipif(not settings.CACHES["default"]["BACKEND"].startswith("django_redis"), reason="needs REDIS_URL")
async def test_many_sockets_using_the_cache_share_one_pool():
    url = settings.CACHES["default"]["LOCATION"]
    db = int(url.rsplit("/", 1)[1] or 0)
    admin = redis.Redis.from_url(url)

    # Not from this task: what it sets, the tasks below would inherit (each socket starts
    # from the server's context, in which nothing touched the cache).
    async def warm() -> None:
        await database_sync_to_async(cache.set)("warm", 1, 5)

    await asyncio.create_task(warm())
    before = _connections_to_our_db(admin, db)

    touched, close = asyncio.Semaphore(0), asyncio.Event()

    async def open_socket(number: int) -> None:  # a task of its own, as each socket is
        await database_sync_to_async(cache.set)(f"presence-{number}", number, 5)
        assert await database_sync_to_async(cache.get)(f"presence-{number}") == number
        touched.release()
        await close.wait()  # the socket stays open

    sockets = [asyncio.create_task(open_socket(n)) for n in range(200)]
    for _ in sockets:
        await touched.acquire()
    opened = _connections_to_our_db(admin, db) - before
    close.set()
    await asyncio.gather(*sockets)
    admin.close()
    assert opened <= 4, f"200 open sockets hold {opened} Redis connections"
