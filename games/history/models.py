"""Each player's per-hand record, kept as hands are scored (docs/history.md). Imported by
games/models.py, so it belongs to the games app and its migrations.

A busy player has thousands of finished hands; the profile reads this one row instead of
scanning them all (docs/performance.md, bench/pages.py). It is derived data: the write
path adds each scored hand to it (games/history/hand_records.py, in the hand's own
transaction), and `manage.py hand_records_rebuild` recomputes every row from the hands
and must find exactly what is stored.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class HandRecord(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="hand_record"
    )
    as_dealer = models.PositiveIntegerField(default=0)  # hands the player's own seat dealt
    dealt = models.PositiveIntegerField(default=0)  # hands the player's team dealt
    kept = models.PositiveIntegerField(default=0)  # ... and kept the deal in
    as_defender = models.PositiveIntegerField(default=0)
    took_over = models.PositiveIntegerField(default=0)  # defended and took the deal over
    defended_points = models.IntegerField(
        default=0
    )  # sum of defenders' scores when defending (penalties can make one negative)
    kitty_won = models.PositiveIntegerField(default=0)
    kitty_won_points = models.PositiveIntegerField(default=0)
    kitty_conceded = models.PositiveIntegerField(default=0)
    kitty_conceded_points = models.PositiveIntegerField(default=0)
    best_level = models.CharField(max_length=2, blank=True)  # the highest the player's team reached
    latest_levels = models.JSONField(default=list)  # the latest hands' level moves, oldest first

    class Meta:
        verbose_name = _("hand record")
        verbose_name_plural = _("hand records")

    def __str__(self) -> str:
        return f"hand record of user {self.user_id}"
