"""Who watches a table without a seat: one `Spectator` row per socket (lobby counts).

Rows are refreshed every HEARTBEAT while the socket lives and count only while fresh,
so a crashed server's rows fade out by themselves.
"""

from datetime import timedelta

from django.utils import timezone

from games.models import Spectator

HEARTBEAT = timedelta(seconds=30)
FRESH_FOR = 3 * HEARTBEAT


def spectator_watch(*, table_id: int, channel_name: str, user) -> None:
    # One INSERT: a socket starts watching only when it is not counted (games/web/table_consumer.py).
    Spectator.objects.create(channel_name=channel_name, table_id=table_id, user=user)


def spectator_leave(*, channel_name: str) -> None:
    Spectator.objects.filter(channel_name=channel_name).delete()


def spectator_touch(*, channel_name: str) -> None:
    Spectator.objects.filter(channel_name=channel_name).update(seen_at=timezone.now())


def fresh_since():
    return timezone.now() - FRESH_FOR
