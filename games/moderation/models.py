"""Moderation's records (docs/moderation.md): sanctions (ban, mute, kick), the audit log and
players' reports. Imported by games/models.py, so they belong to the games app; their
tables kept the names they had in the accounts app (games migration 0018 moved them)."""

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def active_at(now: datetime) -> models.Q:
    """THE definition of an active sanction: not lifted, and not expired at `now`. The
    queryset (`.active()`) and the admin's column use it; the socket entry's one statement
    (games.selectors.socket_entry) writes it out, and tests/runtime/test_table_entry.py holds the two
    equal."""
    return models.Q(lifted_at__isnull=True) & (models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now))


class SanctionQuerySet(models.QuerySet):
    def active(self, now: datetime | None = None) -> "SanctionQuerySet":
        return self.filter(active_at(now or timezone.now()))

    def with_active(self, now: datetime | None = None) -> "SanctionQuerySet":
        """Each row annotated `active_now` (for lists that show every sanction)."""
        return self.annotate(
            active_now=models.ExpressionWrapper(active_at(now or timezone.now()), output_field=models.BooleanField())
        )


class Sanction(models.Model):
    """A restriction on one user, from `created_at` until lifted or `expires_at` (None: no end)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("moderator")
    )
    reason = models.CharField(_("reason"), max_length=300)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)
    lifted_at = models.DateTimeField(_("lifted"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("lifted by"),
    )

    objects = SanctionQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["-created_at"]


class Ban(Sanction):
    """Keeps a user out of the site: no login, no sockets, no sessions."""

    class Meta(Sanction.Meta):
        verbose_name = _("ban")
        verbose_name_plural = _("bans")
        db_table = "accounts_ban"
        indexes = [models.Index(fields=["user", "lifted_at"], name="ban_user_lifted")]

    def __str__(self):
        return f"ban of {self.user_id}"


class Mute(Sanction):
    """Keeps a user out of every table chat."""

    class Meta(Sanction.Meta):
        verbose_name = _("mute")
        verbose_name_plural = _("mutes")
        db_table = "accounts_mute"
        indexes = [models.Index(fields=["user", "lifted_at"], name="mute_user_lifted")]

    def __str__(self):
        return f"mute of {self.user_id}"


class Kick(Sanction):
    """A player removed from one table: they may not enter it again (page, socket, chat)."""

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="kicks", verbose_name=_("table"))

    class Meta(Sanction.Meta):
        verbose_name = _("kick")
        verbose_name_plural = _("kicks")
        db_table = "accounts_kick"
        indexes = [models.Index(fields=["table", "user"], name="kick_table_user")]

    def __str__(self):
        return f"kick of {self.user_id} from {self.table_id}"


class ModerationLog(models.Model):
    """The audit log: who did what to whom, when and why. Append-only; never editable."""

    class Action(models.TextChoices):
        CLOSE_TABLE = "close_table", _("close table")
        KICK = "kick", _("kick")
        BAN = "ban", _("ban")
        UNBAN = "unban", _("unban")
        MUTE = "mute", _("mute")
        UNMUTE = "unmute", _("unmute")
        LIFT_KICK = "lift_kick", _("lift kick")
        DELETE_MESSAGE = "delete_message", _("delete chat message")
        RESOLVE_REPORT = "resolve_report", _("resolve report")
        DISMISS_REPORT = "dismiss_report", _("dismiss report")
        VOID_MATCH = "void_match", _("void rated match")
        ADJUST_RESULT = "adjust_result", _("adjust event result")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("moderator")
    )
    action = models.CharField(_("action"), max_length=20, choices=Action.choices, db_index=True)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user"),
    )
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("table")
    )
    # A readable name of the target that survives its deletion ("alice", "Friday game (#12)").
    target = models.CharField(_("target"), max_length=200)
    reason = models.CharField(_("reason"), max_length=300)
    details = models.JSONField(_("details"), default=dict, blank=True)
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        db_table = "accounts_moderationlog"

    def __str__(self):
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.target}"


class Report(models.Model):
    """A player's report about a user or a table; moderators resolve or dismiss it."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")
        DISMISSED = "dismissed", _("dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made", verbose_name=_("reporter")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports_received",
        verbose_name=_("reported user"),
    )
    table = models.ForeignKey(
        "games.Table",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports",
        verbose_name=_("reported table"),
    )
    reason = models.CharField(_("reason"), max_length=1000)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)
    note = models.CharField(_("moderator's note"), max_length=300, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        db_table = "accounts_report"

    def __str__(self):
        return f"report {self.pk} ({self.status})"
