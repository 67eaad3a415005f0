"""A banned user's right password does not log them in (docs/moderation.md): one of
settings.ACCOUNTS_LOGIN_CHECKS, which the site's and the admin's login forms consult
(accounts.forms.LoginChecksMixin) without the accounts app importing moderation."""

from django.core.exceptions import ValidationError
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from games.sanctions import ban_active


def ban_refusal(user) -> None:
    """Refuse the login of a user under a site ban, saying until when and why."""
    ban = ban_active(user=user)
    if ban is None:
        return
    if ban.expires_at is None:
        message = _("This account has been banned. Reason: %(reason)s")
    else:
        message = _("This account has been banned until %(until)s. Reason: %(reason)s")
    until = formats.date_format(timezone.localtime(ban.expires_at), "DATETIME_FORMAT") if ban.expires_at else ""
    raise ValidationError(message, code="banned", params={"reason": ban.reason, "until": until})
