"""Every group message of the site goes out through here (Zulip's `send_event_on_commit`).

A socket told about a change reads the database, so a message sent inside the
transaction could make it read the old data (STYLE pitfall 3): the write paths call
`send_on_commit`, which sends only once the transaction commits (at once outside one).
The table's write path, when called from the event loop (`writer.table_act_async`),
sends with `send` from the loop after the write instead: the process's one database
thread then never waits for a busy loop.

Group messages are small (a version hint, a notice, a public chat line): no private
data ever travels through them (RULES §9).
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

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


def table_changed(version: int) -> dict:
    return {"type": "table.changed", "version": version}


def lobby_changed() -> dict:
    return {"type": "lobby.changed"}


async def send(*, group: str, message: dict) -> None:
    """Send now, from the event loop; the caller's change must be committed already."""
    await get_channel_layer().group_send(group, message)


def send_on_commit(*, group: str, message: dict) -> None:
    """Send once the current transaction commits (dropped if it rolls back)."""
    transaction.on_commit(lambda: async_to_sync(get_channel_layer().group_send)(group, message))
