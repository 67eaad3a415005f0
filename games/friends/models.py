"""Invitations to a seat (docs/friends.md). Imported by games/models.py, so they belong to
the games app. Follows and blocks are the accounts app's (accounts/models.py)."""

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
