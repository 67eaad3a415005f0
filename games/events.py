"""Every group message of the site goes out through here (Zulip's `send_event_on_commit`).

A socket told about a change reads the database, so a message sent inside the
transaction could make it read the old data (STYLE pitfall 3): the write paths call
`send_on_commit`, which sends only once the transaction commits (at once outside one).
A table's actor (games/runtime/actor.py) sends with `send` from the event loop after its
write instead, once it has pushed its own readers: no thread then waits for a busy loop.

Group messages are small (a version hint, a notice, a public chat line): no private
data ever travels through them (RULES §9). They are hints, delivered at most once: while
the channel layer (Redis) is unreachable a message is dropped and logged, never an error
for a change already committed; the sockets resync once it is back
(games/web/layer_watch.py).
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from redis.exceptions import RedisError

log = logging.getLogger(__name__)
# What the Redis channel layer raises when Redis is away (refused, reset, timed out).
LAYER_ERRORS = (RedisError, OSError, TimeoutError)

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    """Every socket of the table: told "changed, version N" and moderation notices."""
    return f"table-{table_id}"


def chat_group(table_id: int) -> str:
    """Every chat socket of the table: its public lines and moderation notices."""
    return f"chat-{table_id}"


def user_group(user_id: int) -> str:
    """Every socket of one user (a ban closes them all)."""
    return f"user-{user_id}"


def invitations_group(user_id: int) -> str:
    """The lobby sockets of one user (on every page): told when their invitations change."""
    return f"invitations-{user_id}"


def invitations_changed() -> dict:
    return {"type": "invitations.changed"}


def event_group(event_id: int) -> str:
    """Every socket of a duplicate event's page: told when its standings or rounds change."""
    return f"event-{event_id}"


def table_changed(version: int) -> dict:
    return {"type": "table.changed", "version": version}


def room_opened(channel: str) -> dict:
    """To a table's group: a room of the table now listens in another process
    (games/web/room.py); each room there answers `room_here`."""
    return {"type": "room.opened", "channel": channel}


def room_here(channel: str, version: int) -> dict:
    return {"type": "room.here", "channel": channel, "version": version}


def room_closed(channel: str) -> dict:
    return {"type": "room.closed", "channel": channel}


def lobby_changed() -> dict:
    return {"type": "lobby.changed"}


def chat_line_deleted(message_id: int) -> dict:
    """To a table's chat group: drop the line a moderator hid."""
    return {"type": "chat.deleted", "id": message_id}


async def send(*, group: str, message: dict) -> None:
    """Send now, from the event loop; the caller's change must be committed already."""
    try:
        await get_channel_layer().group_send(group, message)
    except LAYER_ERRORS as error:
        _dropped(group, message, error)


def send_on_commit(*, group: str, message: dict) -> None:
    """Send once the current transaction commits (dropped if it rolls back)."""
    transaction.on_commit(lambda: _send_from_sync(group, message))


def _send_from_sync(group: str, message: dict) -> None:
    try:
        async_to_sync(get_channel_layer().group_send)(group, message)
    except LAYER_ERRORS as error:
        _dropped(group, message, error)


def _dropped(group: str, message: dict, error: Exception) -> None:
    log.warning("channel layer unreachable, %s to %s dropped: %s", message.get("type"), group, error)
