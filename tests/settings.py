"""The site's settings for the test run, with one change for parallel runs: each
pytest-xdist worker (`PYTEST_XDIST_WORKER`, gw0, gw1, …) talks to a Redis database of its
own, 8 + its number. Channel groups are named after table ids, and the workers' test
databases hand out the same ids: on one Redis database, one worker's "table 5 changed"
would reach the other's sockets. The URL goes back into the environment so that the server
processes a test starts (which import these settings again) join the same database; the
mapping is absolute, so importing it twice changes nothing."""

import os
import re

from config.env import cache_from_url, channel_layer_from_url
from config.settings import *  # noqa: F403 (the site's settings, unchanged but for Redis)

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
_redis_url = os.environ.get("REDIS_URL", "")
if _worker.startswith("gw") and _redis_url:
    _redis_url = re.sub(r"(/\d+)?/?$", f"/{8 + int(_worker[2:])}", _redis_url, count=1)
    os.environ["REDIS_URL"] = _redis_url
    CHANNEL_LAYERS = {"default": channel_layer_from_url(_redis_url)}
    CACHES = {"default": cache_from_url(_redis_url, os.environ.get("CACHE_KEY_PREFIX") or "doubleup")}

# A test whose threads wait on each other's row locks (the test's transaction and asgiref's
# thread for sync code) would wait forever: PostgreSQL sees no deadlock in a wait that is
# Python's. A lock wait longer than this is an error instead.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["OPTIONS"]["options"] = "-c lock_timeout=60s"  # noqa: F405
