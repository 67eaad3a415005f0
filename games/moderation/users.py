"""Moderation writes for users, chat and reports (docs/moderation.md).

Every service checks that the moderator may moderate, writes the audit log
(`ModerationLog`) in the same transaction as its change, and sends socket notices
only after commit. Table actions (close a room, kick a seat) go through the table's
write path instead: games/moderation/tables.py.
"""

from datetime import timedelta

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from games import events
from games.engine import Refusal
from games.models import Seat, Table
from games.moderation.models import Ban, Kick, ModerationLog, Mute, Report
from games.runtime.commands import Issuer
from games.runtime.writer import table_act
from games.staff_log import moderation_log_write, moderator_check, reason_check

REPORTS_PER_HOUR = 10


def moderation_notice(*, kind: str, template: str, reason: str, user_id: int | None = None) -> dict:
    """The group message telling sockets why they are being closed (sent with
    `events.send_on_commit`).

    `template` (gettext_noop) is translated by each socket into its reader's language
    (games.web.i18n.translate_notice); `message` is the untranslated fallback.
    """
    notice: dict[str, object] = {
        "type": kind,
        "message": template.format(reason=reason),
        "template": template,
        "params": {"reason": reason},
    }
    if user_id is not None:
        notice["user_id"] = user_id
    return notice


def _sanction_check(*, moderator, user) -> None:
    if user.pk == moderator.pk:
        raise Refusal("self", gettext_noop("You cannot do that to yourself."))
    if user.is_superuser and not moderator.is_superuser:
        raise Refusal("superuser", gettext_noop("Only a superuser can do that to a superuser."))


def user_sessions_end(*, user) -> int:
    """Delete every stored session of this user (the database session backend)."""
    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if session.get_decoded().get(SESSION_KEY) == str(user.pk)
    ]
    Session.objects.filter(pk__in=ended).delete()
    return len(ended)


@transaction.atomic
def user_ban(*, moderator, user, reason: str, expires_at=None) -> Ban:
    """Ban a user: their sockets close now, their sessions end, login is refused, and the
    seats they hold are freed like a kick, until the ban is lifted or expires."""
    moderator_check(moderator)
    reason = reason_check(reason)
    _sanction_check(moderator=moderator, user=user)
    ban = Ban.objects.create(user=user, moderator=moderator, reason=reason, expires_at=expires_at)
    sessions = user_sessions_end(user=user)
    moderation_log_write(
        moderator=moderator,
        action=ModerationLog.Action.BAN,
        reason=reason,
        target_user=user,
        details={"expires_at": expires_at.isoformat() if expires_at else None, "sessions_ended": sessions},
    )
    events.send_on_commit(
        group=events.user_group(user.pk),
        message=moderation_notice(
            kind="user.removed",
            template=gettext_noop("Your account has been banned: {reason}"),
            reason=reason,
            user_id=user.pk,
        ),
    )
    seats_free_for_ban(moderator=moderator, user=user, reason=reason)
    return ban


def seats_free_for_ban(*, moderator, user, reason: str) -> None:
    """A banned user's seats at open tables are freed like a kick (inside the ban's
    transaction), through each table's write path."""
    table_ids = (
        Seat.objects.filter(user=user)
        .exclude(table__status=Table.Status.CLOSED)
        .order_by("table_id")
        .values_list("table_id", flat=True)
    )
    for table_id in list(table_ids):  # ascending ids: one lock order for every caller
        table_act(
            table_id=table_id,
            action={"type": "kick", "user": user.pk, "reason": reason, "ban": True},
            expected_version=None,
            user=moderator,
            issuer=Issuer.MODERATOR,
        )


def _lift(model, action, *, moderator, user, reason: str, **filters) -> int:
    moderator_check(moderator)
    reason = reason_check(reason)
    with transaction.atomic():
        active = model.objects.active().filter(user=user, **filters)
        lifted = active.update(lifted_at=timezone.now(), lifted_by=moderator)
        if not lifted:
            raise Refusal("nothing_to_lift", gettext_noop("There is nothing to lift."))
        moderation_log_write(
            moderator=moderator,
            action=action,
            reason=reason,
            target_user=user,
            table=filters.get("table"),
            details={"lifted": lifted},
        )
    return lifted


def user_unban(*, moderator, user, reason: str) -> int:
    return _lift(Ban, ModerationLog.Action.UNBAN, moderator=moderator, user=user, reason=reason)


@transaction.atomic
def user_mute(*, moderator, user, reason: str, expires_at=None) -> Mute:
    """Keep a user out of every table chat until lifted or `expires_at`."""
    moderator_check(moderator)
    reason = reason_check(reason)
    _sanction_check(moderator=moderator, user=user)
    mute = Mute.objects.create(user=user, moderator=moderator, reason=reason, expires_at=expires_at)
    moderation_log_write(
        moderator=moderator,
        action=ModerationLog.Action.MUTE,
        reason=reason,
        target_user=user,
        details={"expires_at": expires_at.isoformat() if expires_at else None},
    )
    return mute


def user_unmute(*, moderator, user, reason: str) -> int:
    return _lift(Mute, ModerationLog.Action.UNMUTE, moderator=moderator, user=user, reason=reason)


def kick_lift(*, moderator, user, table, reason: str) -> int:
    """Let a kicked player enter the table again."""
    return _lift(Kick, ModerationLog.Action.LIFT_KICK, moderator=moderator, user=user, reason=reason, table=table)


@transaction.atomic
def chat_message_delete(*, moderator, message, reason: str) -> None:
    """Hide one chat line (kept stored, marked deleted) and drop it from open chats."""
    moderator_check(moderator)
    reason = reason_check(reason)
    if message.deleted:
        raise Refusal("already_deleted", gettext_noop("That message is already deleted."))
    message.deleted = True
    message.deleted_by = moderator
    message.save(update_fields=["deleted", "deleted_by"])
    moderation_log_write(
        moderator=moderator,
        action=ModerationLog.Action.DELETE_MESSAGE,
        reason=reason,
        target_user=message.user,
        table=message.table,
        details={"message_id": message.pk, "text": message.text},
    )
    events.send_on_commit(group=events.chat_group(message.table_id), message=events.chat_line_deleted(message.pk))


def report_create(*, reporter, reason: str, user=None, table=None) -> Report:
    """A player reports a user or a table. The caller checked the reporter may see it."""
    if (user is None) == (table is None):
        raise ValueError("report exactly one of user or table")
    reason = " ".join(reason.split()) if isinstance(reason, str) else ""  # a report may run to 1000
    if not reason:
        raise Refusal("reason_required", gettext_noop("Give a reason."))
    if user is not None and user.pk == reporter.pk:
        raise Refusal("self", gettext_noop("You cannot report yourself."))
    mine = Report.objects.filter(reporter=reporter)
    if mine.filter(status=Report.Status.OPEN, user=user, table=table).exists():
        raise Refusal("duplicate", gettext_noop("You have already reported this; moderators will look at it."))
    if mine.filter(created_at__gt=timezone.now() - timedelta(hours=1)).count() >= REPORTS_PER_HOUR:
        raise Refusal("too_many", gettext_noop("You have sent many reports recently. Please try again later."))
    return Report.objects.create(reporter=reporter, user=user, table=table, reason=reason[:1000])


@transaction.atomic
def report_close(*, moderator, report: Report, status: str, note: str) -> Report:
    """Resolve or dismiss an open report, with the moderator's note."""
    moderator_check(moderator)
    note = reason_check(note)
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise ValueError(f"unknown report status {status!r}")
    report = Report.objects.select_for_update().get(pk=report.pk)
    if report.status != Report.Status.OPEN:
        raise Refusal("not_open", gettext_noop("That report has already been handled."))
    report.status, report.note = status, note
    report.handled_by, report.handled_at = moderator, timezone.now()
    report.save(update_fields=["status", "note", "handled_by", "handled_at"])
    action = (
        ModerationLog.Action.RESOLVE_REPORT if status == Report.Status.RESOLVED else ModerationLog.Action.DISMISS_REPORT
    )
    moderation_log_write(
        moderator=moderator,
        action=action,
        reason=note,
        target_user=report.user,
        table=report.table,
        details={"report_id": report.pk},
    )
    return report
