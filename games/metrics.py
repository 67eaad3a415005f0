"""What a server process counts about itself, for Prometheus (prometheus-client).

Off unless `GAMES_METRICS_PORT` is set: then each server process serves its own counters
on that loopback port (config/asgi.py), outside the site and its proxy. Today it counts
the bots' decisions made inside the process (the quick levels; searching levels think in
worker processes, games/runtime/thinking.py): bench/live.py reads them to report the bots'
own CPU apart from the server's cost per action (issue 15, docs/performance.md).
"""

import logging
import os

from prometheus_client import Counter, start_http_server

log = logging.getLogger(__name__)
BOT_DECISIONS = Counter("games_bot_decisions", "Bot decisions made in this process", ["level"])
BOT_DECISION_CPU = Counter(
    "games_bot_decision_cpu_seconds", "CPU seconds of the bot decisions made in this process", ["level"]
)


def serve_from_environment() -> int | None:
    """Serve this process's counters on 127.0.0.1:$GAMES_METRICS_PORT (a thread of
    prometheus-client's); the port, or None when unset."""
    port = os.environ.get("GAMES_METRICS_PORT")
    if not port:
        return None
    try:
        start_http_server(int(port), addr="127.0.0.1")
    except OSError as error:  # another process of the same stack has it: this one serves none
        log.warning("metrics not served: port %s: %s", port, error)
        return None
    return int(port)
