"""Moderators at a table: close the room, kick a player (docs/moderation.md).

Both are handlers of the one write path (`services.table_act`, source "moderator"):
they run under the table's row lock, are appended to `TableEvent` like any action,
write the moderation audit log in the same transaction, and tell the sockets why
they are being closed only after commit. Any other source is refused.
"""
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_noop

from accounts.models import Kick, ModerationLog
from games.moderation.users import moderation_log_write, moderator_check, notice_on_commit
from accounts.selectors import user_can_moderate
from games.runtime import records
from games.chat import chat_group
from games.models import Seat, Table
from games.runtime.commands import ActionRejected, Applied

CLOSED_NOTICE = gettext_noop("A moderator closed this table: {reason}")
KICKED_NOTICE = gettext_noop("A moderator removed you from this table: {reason}")


def _moderator_reason(action, user, source) -> str:
    """Only a moderator, through the moderation services, and always with a reason."""
    if source != "moderator" or not user_can_moderate(user):
        raise ActionRejected("not_allowed", gettext_noop("Only a moderator can do that."))
    reason = action.get("reason")
    reason = " ".join(reason.split())[:300] if isinstance(reason, str) else ""
    if not reason:
        raise ActionRejected("reason_required", gettext_noop("Give a reason."))
    return reason


def close_table(table, seats, action, user, source, now):
    """Close the room for good; a running match is kept in history, marked aborted."""
    reason = _moderator_reason(action, user, source)
    status_before = table.status
    events = [{"type": "table_closed"}]
    if table.status == Table.Status.PLAYING:
        records.abort_match(table, reason, now)
        events.append({"type": "match_aborted"})
    table.status = Table.Status.CLOSED
    table.closed_reason = reason
    table.deadline = None
    moderation_log_write(
        moderator=user, action=ModerationLog.Action.CLOSE_TABLE, reason=reason, table=table,
        details={"status_before": status_before, "version": table.version + 1},
    )
    notice_on_commit(table.group_name, "table.closed", CLOSED_NOTICE, reason=reason)
    notice_on_commit(chat_group(table.pk), "chat.closed", CLOSED_NOTICE, reason=reason)
    return [Applied({"type": "close_table", "reason": reason}, events)]


def kick(table, seats, action, user, source, now):
    """Remove a player (or spectator) from the table and keep them out of it.

    Their seat becomes free; during a running match a basic bot takes it, or — when the
    table allows no bots — the match is aborted (kept, marked) and the table waits again:
    a running match never has an empty seat. With `"ban": True` (from accounts'
    `user_ban`) no per-table kick is stored: the ban already keeps them out.
    """
    reason = _moderator_reason(action, user, source)
    target_id = action.get("user")
    target = get_user_model().objects.filter(pk=target_id).first() if isinstance(target_id, int) else None
    if target is None:
        raise ActionRejected("no_user", gettext_noop("No such player."))
    seat = next((s for s in seats if s.user_id == target.pk), None)
    events, effect = [], "removed"
    if seat is not None:
        events, effect = _free_seat(table, seat, reason, now)
    moderation_log_write(
        moderator=user, action=ModerationLog.Action.KICK, reason=reason, target_user=target, table=table,
        details={"seat": seat.position if seat else None, "effect": effect, "because_of_ban": bool(action.get("ban"))},
    )
    if not action.get("ban"):  # a ban closes every socket of the user itself
        Kick.objects.create(user=target, table=table, moderator=user, reason=reason)
        notice_on_commit(table.group_name, "user.removed", KICKED_NOTICE, reason=reason, user_id=target.pk)
        notice_on_commit(chat_group(table.pk), "chat.closed", KICKED_NOTICE, reason=reason, user_id=target.pk)
    logged = {"type": "kick", "user": target.pk, "seat": seat.position if seat else None, "reason": reason}
    return [Applied(logged, events)]


def _free_seat(table, seat, reason, now) -> tuple[list, str]:
    position = seat.position
    events, effect = [{"type": "stood", "seat": position}], "seat_freed"
    seat.user = None
    seat.autoplay = False
    if table.status == Table.Status.PLAYING and table.allow_bots:
        seat.bot = Seat.Bot.BASIC
        events.append({"type": "seated", "seat": position})
        effect = "bot_took_seat"
    elif table.status == Table.Status.PLAYING:
        records.abort_match(table, reason, now)
        table.status = Table.Status.WAITING
        table.state = None
        table.deadline = None
        table.deal_started_at = None
        events.append({"type": "match_aborted"})
        effect = "match_aborted"
    seat.save(update_fields=["user", "bot", "autoplay"])
    return events, effect


# --- services (STYLE: `<entity>_<action>`, keyword-only) --------------------------------

def table_close(*, moderator, table_id: int, reason: str):
    """Close a room: everyone at it is told why and disconnected; nobody can act on it again."""
    from games.runtime.writer import table_act

    moderator_check(moderator)
    return table_act(table_id=table_id, action={"type": "close_table", "reason": reason},
                     expected_version=None, user=moderator, source="moderator")


def seat_kick(*, moderator, table_id: int, user_id: int, reason: str):
    """Kick a player from a table: their sockets there close at once; they cannot come back."""
    from games.runtime.writer import table_act

    moderator_check(moderator)
    return table_act(table_id=table_id, action={"type": "kick", "user": user_id, "reason": reason},
                     expected_version=None, user=moderator, source="moderator")


def seats_free_for_ban(*, moderator, user, reason: str) -> None:
    """A banned user's seats at open tables are freed like a kick (inside the ban's transaction)."""
    from games.runtime.writer import table_act

    table_ids = (
        Seat.objects.filter(user=user).exclude(table__status=Table.Status.CLOSED)
        .order_by("table_id").values_list("table_id", flat=True)
    )
    for table_id in list(table_ids):  # ascending ids: one lock order for every caller
        table_act(table_id=table_id, action={"type": "kick", "user": user.pk, "reason": reason, "ban": True},
                  expected_version=None, user=moderator, source="moderator")
