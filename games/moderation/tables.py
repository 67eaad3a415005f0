"""Moderators at a table: close the room, kick a player (docs/moderation.md).

Both are commands of the one write path (`writer.table_act`, issued by `Issuer.MODERATOR`;
the writer refuses anyone without the moderation permission): they run in its
transaction, are appended to `TableEvent` like any action, write the moderation
audit log in the same transaction, and tell the sockets why they are being closed only
after commit.
"""

from datetime import datetime

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_noop

from games import engine, events
from games.engine import Refusal
from games.models import Seat, Table
from games.moderation.models import Kick, ModerationLog
from games.moderation.users import moderation_notice
from games.runtime import records
from games.runtime.commands import Applied, Issuer, Role, command
from games.runtime.writer import Outcome, table_act
from games.staff_log import moderation_log_write, moderator_check, reason_check

CLOSED_NOTICE = gettext_noop("A moderator closed this table: {reason}")
KICKED_NOTICE = gettext_noop("A moderator removed you from this table: {reason}")
MODERATORS_ONLY = ("not_allowed", gettext_noop("Only a moderator can do that."))


@command("close_table", may={Role.MODERATOR}, refusal=MODERATORS_ONLY, lobby_visible=True)
def close_table(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Close the room for good; a running match is kept in history, marked aborted."""
    reason = reason_check(action.get("reason"))
    status_before = table.status
    happened = [{"type": "table_closed"}]
    if table.status == Table.Status.PLAYING:
        records.abort_match(table, reason, now)
        happened.append({"type": "match_aborted"})
    table.status = Table.Status.CLOSED
    table.closed_reason = reason
    table.deadline = None
    moderation_log_write(
        moderator=user,
        action=ModerationLog.Action.CLOSE_TABLE,
        reason=reason,
        table=table,
        details={"status_before": status_before, "version": table.version + 1},
    )
    events.send_on_commit(
        group=events.table_group(table.pk),
        message=moderation_notice(kind="table.closed", template=CLOSED_NOTICE, reason=reason),
    )
    events.send_on_commit(
        group=events.chat_group(table.pk),
        message=moderation_notice(kind="chat.closed", template=CLOSED_NOTICE, reason=reason),
    )
    return [Applied({"type": "close_table", "reason": reason}, happened)]


@command("kick", may={Role.MODERATOR}, refusal=MODERATORS_ONLY, lobby_visible=True)
def kick(
    *, table: Table, seats: list[Seat], game: engine.Game | None, action: dict, user, issuer: Issuer, now: datetime
) -> list[Applied]:
    """Remove a player (or spectator) from the table and keep them out of it.

    Their seat becomes free; during a running match a basic bot takes it, or — when the
    table allows no bots — the match is aborted (kept, marked) and the table waits again:
    a running match never has an empty seat. With `"ban": True` (from accounts'
    `user_ban`) no per-table kick is stored: the ban already keeps them out.
    """
    reason = reason_check(action.get("reason"))
    target_id = action.get("user")
    target = get_user_model().objects.filter(pk=target_id).first() if isinstance(target_id, int) else None
    if target is None:
        raise Refusal("no_user", gettext_noop("No such player."))
    seat = next((s for s in seats if s.user_id == target.pk), None)
    happened: list[dict] = []
    effect = "removed"
    if seat is not None:
        happened, effect = _free_seat(table, seat, reason, now)
    moderation_log_write(
        moderator=user,
        action=ModerationLog.Action.KICK,
        reason=reason,
        target_user=target,
        table=table,
        details={"seat": seat.position if seat else None, "effect": effect, "because_of_ban": bool(action.get("ban"))},
    )
    if not action.get("ban"):  # a ban closes every socket of the user itself
        Kick.objects.create(user=target, table=table, moderator=user, reason=reason)
        events.send_on_commit(
            group=events.table_group(table.pk),
            message=moderation_notice(kind="user.removed", template=KICKED_NOTICE, reason=reason, user_id=target.pk),
        )
        events.send_on_commit(
            group=events.chat_group(table.pk),
            message=moderation_notice(kind="chat.closed", template=KICKED_NOTICE, reason=reason, user_id=target.pk),
        )
    logged = {"type": "kick", "user": target.pk, "seat": seat.position if seat else None, "reason": reason}
    return [Applied(logged, happened)]


def _free_seat(table: Table, seat: Seat, reason: str, now: datetime) -> tuple[list, str]:
    position = seat.position
    happened, effect = [{"type": "stood", "seat": position}], "seat_freed"
    if table.status == Table.Status.PLAYING:
        records.seat_left(table, position)
    seat.user = None
    seat.autoplay = False
    if table.status == Table.Status.PLAYING and table.allow_bots:
        seat.bot = Seat.Bot.BASIC
        happened.append({"type": "seated", "seat": position})
        effect = "bot_took_seat"
    elif table.status == Table.Status.PLAYING:
        records.abort_match(table, reason, now)
        table.status = Table.Status.WAITING
        table.state = None
        table.deadline = None
        table.deal_started_at = None
        happened.append({"type": "match_aborted"})
        effect = "match_aborted"
    seat.save(update_fields=["user", "bot", "autoplay"])
    return happened, effect


# --- services (STYLE: `<entity>_<action>`, keyword-only) --------------------------------


def table_close(*, moderator, table_id: int, reason: str) -> Outcome:
    """Close a room: everyone at it is told why and disconnected; nobody can act on it again."""
    moderator_check(moderator)
    return table_act(
        table_id=table_id,
        action={"type": "close_table", "reason": reason},
        expected_version=None,
        user=moderator,
        issuer=Issuer.MODERATOR,
    )


def seat_kick(*, moderator, table_id: int, user_id: int, reason: str) -> Outcome:
    """Kick a player from a table: their sockets there close at once; they cannot come back."""
    moderator_check(moderator)
    return table_act(
        table_id=table_id,
        action={"type": "kick", "user": user_id, "reason": reason},
        expected_version=None,
        user=moderator,
        issuer=Issuer.MODERATOR,
    )
