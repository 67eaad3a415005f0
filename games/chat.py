"""Per-table chat: post a line, read the recent ones (STYLE: services and selectors).

Anyone who may open a table (`selectors.table_access`: its players and spectators)
may chat there. A line is plain text, at most `ChatMessage.MAX_LENGTH` characters,
stored, and — after commit — sent to the table's chat group (`events.chat_group`). Chat
is public to everyone at the table, so the line itself may travel in the group
message; each socket renders it with the same escaped partial as the page.

The rate limit (RATE_LIMIT lines per RATE_WINDOW seconds per user, over all tables)
lives in Django's cache — Redis when REDIS_URL is set — so it holds across server
processes. It is a fixed window that starts at the user's first line.

A muted user (games/sanctions.py) posts nothing. Moderators hide a line by setting
`ChatMessage.deleted` / `deleted_by` (games/moderation/users.py), and every open chat of
the table drops it (games/events.py `chat_line_deleted`); hidden lines are never shown again.
"""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_noop

from accounts.guests import is_guest
from accounts.throttle import count_in_window
from games import events
from games.engine import Refusal
from games.models import ChatMessage, Table
from games.sanctions import is_muted

RECENT = 50
DEFAULT_RATE_LIMIT = 5
DEFAULT_RATE_WINDOW_S = 10


def chat_is_muted(user, *, table: Table | None = None) -> bool:
    """May this user not chat (here)? A mute holds at every table."""
    return is_muted(user)


def guest_may_chat(user, *, table: Table) -> bool:
    """Accounts may chat anywhere; guests (accounts/guests.py) where the owner allows it."""
    return table.guests_may_chat or not is_guest(user)


def _rate_limit() -> int:
    return getattr(settings, "CHAT_RATE_LIMIT", DEFAULT_RATE_LIMIT)


def _rate_window() -> int:
    return getattr(settings, "CHAT_RATE_WINDOW_S", DEFAULT_RATE_WINDOW_S)


def chat_rate_key(user) -> str:
    return f"games:chat-rate:{user.pk}"


def _spend_rate(user) -> None:
    """Count one line against the user's window; refuse once the window is full."""
    key, window = chat_rate_key(user), _rate_window()
    if count_in_window(key, window) > _rate_limit():
        raise Refusal(
            "rate_limited",
            gettext_noop("You are sending messages too quickly: at most {limit} every {window} seconds."),
            limit=_rate_limit(),
            window=window,
        )


def check_chat_text(text) -> str:
    """The text as it will be stored: one line, trimmed, non-empty, not too long."""
    if not isinstance(text, str):
        raise Refusal("bad_message", gettext_noop("A chat message must be text."))
    cleaned = " ".join(text.split())  # newlines, tabs and runs of spaces become one space
    cleaned = "".join(ch for ch in cleaned if ch.isprintable())
    if not cleaned:
        raise Refusal("empty", gettext_noop("Type a message first."))
    if len(cleaned) > ChatMessage.MAX_LENGTH:
        raise Refusal(
            "too_long",
            gettext_noop("A chat message can be at most {limit} characters."),
            limit=ChatMessage.MAX_LENGTH,
        )
    return cleaned


def chat_post(*, table: Table, user, text) -> ChatMessage:
    """Post one line to the table's chat; raises Refusal (nothing stored) when it may not.

    The caller has checked that `user` may open the table (`selectors.table_access`).
    """
    if user is None or not user.is_authenticated:
        raise Refusal("login_required", gettext_noop("Please log in first."))
    if table.status == Table.Status.CLOSED:
        raise Refusal("table_closed", gettext_noop("This table has been closed."))
    if not guest_may_chat(user, table=table):
        raise Refusal("guest_chat", gettext_noop("Guests can chat only at tables whose owner allows it."))
    if chat_is_muted(user, table=table):
        raise Refusal("muted", gettext_noop("You are muted and cannot chat right now."))
    cleaned = check_chat_text(text)
    _spend_rate(user)
    with transaction.atomic():
        message = ChatMessage.objects.create(table=table, user=user, text=cleaned)
        message.user = user
        line = chat_line(message)
        events.send_on_commit(group=events.chat_group(table.pk), message={"type": "chat.message", **_wire(line)})
    return message


def chat_recent(*, table: Table, limit: int = RECENT) -> list[dict]:
    """The last `limit` visible lines of the table's chat, oldest first."""
    rows = (
        ChatMessage.objects.filter(table=table, deleted=False)
        .select_related("user")
        .order_by("-created_at", "-pk")[:limit]
    )
    return [chat_line(message) for message in reversed(list(rows))]


def chat_line(message: ChatMessage) -> dict:
    """What a rendered line needs (games/partials/chat_message.html)."""
    return {
        "id": message.pk,
        "username": message.user.username,
        "user_id": message.user_id,
        "text": message.text,
        "created_at": message.created_at,
    }


def _wire(line: dict) -> dict:
    return dict(line, created_at=line["created_at"].isoformat())
