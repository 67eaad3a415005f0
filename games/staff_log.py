"""What every moderator's write does first and last: check the moderator, clean the reason,
and write the audit log row in the change's own transaction (docs/moderation.md).

Below the features: moderation, events (a corrected board result) and ratings (a voided
match) all write through it."""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext_noop

from accounts.selectors import user_can_moderate
from games.engine import Refusal
from games.moderation.models import ModerationLog


def moderator_check(moderator) -> None:
    if not user_can_moderate(moderator):
        raise PermissionDenied("moderation permission required")


def reason_check(reason: object) -> str:
    """Every moderation write carries a reason: one line, at most 300 characters."""
    cleaned = " ".join(reason.split()) if isinstance(reason, str) else ""
    if not cleaned:
        raise Refusal("reason_required", gettext_noop("Give a reason."))
    return cleaned[:300]


def moderation_log_write(
    *, moderator, action: str, reason: str, target_user=None, table=None, details: dict | None = None
) -> ModerationLog:
    """One audit-log row. Call inside the transaction of the change it records."""
    if target_user is not None:
        target = target_user.username
    elif table is not None:
        target = str(table)
    else:
        target = ""
    return ModerationLog.objects.create(
        moderator=moderator,
        action=action,
        reason=reason,
        target_user=target_user,
        table=table,
        target=target[:200],
        details=details or {},
    )
