"""Follows, blocks and invitations to a seat (docs/friends.md). Imported by games/models.py,
so they belong to the games app; follows and blocks kept the tables they had in the
accounts app (games migration 0018 moved them)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="invitations")
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent")
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_received"
    )
    seat = models.PositiveSmallIntegerField()  # the free seat offered (another free one if it was taken)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        indexes = [models.Index(fields=["recipient", "status", "expires_at"], name="invitation_inbox")]

    def __str__(self):
        return f"invitation {self.pk}: {self.sender_id} → {self.recipient_id} at {self.table_id}"


class Follow(models.Model):
    """One player follows another; two who follow each other are friends."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="following", verbose_name=_("follower")
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers", verbose_name=_("followed")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        db_table = "accounts_follow"
        constraints = [models.UniqueConstraint(fields=["follower", "followed"], name="unique_follow")]
        indexes = [models.Index(fields=["followed", "follower"], name="follow_followed")]

    def __str__(self):
        return f"{self.follower_id} follows {self.followed_id}"


class Block(models.Model):
    """A player blocks another: their chat lines and invitations no longer reach them."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocking", verbose_name=_("blocker")
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by", verbose_name=_("blocked")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        db_table = "accounts_block"
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="unique_block")]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blocked_id}"
