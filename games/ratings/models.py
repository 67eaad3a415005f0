"""The rating records (docs/ratings.md). Imported by games/models.py, so they belong to
the games app and its migrations.

`RatedMatch` is the rating history itself: one row per match that changed ratings, its
id the order in which they were applied. `Rating` (each player's current skill) and
`RatingChange` (each player's before/after per match) are derived from it and the matches'
results: `manage.py ratings_rebuild` recomputes both and must find exactly what is stored.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.ratings.maths import PROVISIONAL_MATCHES


class Rating(models.Model):
    """A player's current skill (OpenSkill μ, σ), its displayed number and match count."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    display = models.IntegerField(_("rating"))  # maths.display(μ, σ), kept for the leaderboard's index
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    rated_at = models.DateTimeField()  # the latest rated match

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [
            # The leaderboard: established players by displayed rating (games/ratings/selectors.py).
            models.Index(
                fields=["-display", "user"],
                name="rating_board",
                condition=models.Q(matches__gte=PROVISIONAL_MATCHES),
            )
        ]

    def __str__(self):
        return f"rating of {self.user_id}: {self.display}"

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


class RatedMatch(models.Model):
    """A rated game that changed ratings, either a match (finished or abandoned by a team at
    a rated table by four people) or a board of a rated duplicate event (the sides that
    played it, ranked per direction). A moderator may void a match; ratings are then
    replayed without it."""

    match = models.OneToOneField(
        "games.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="rating_entry"
    )
    event_board = models.OneToOneField(
        "games.EventBoard", null=True, blank=True, on_delete=models.CASCADE, related_name="rating_entry"
    )
    # A match's four players' ids, sorted: the same four people again within a day count
    # for less. Empty for a board: an event's movement, not the players, chooses who meets.
    lineup = models.CharField(max_length=100)
    rated_at = models.DateTimeField()
    voided = models.BooleanField(_("voided"), default=False)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")
        indexes = [models.Index(fields=["lineup", "rated_at"], name="rated_lineup_recent")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(match__isnull=False, event_board__isnull=True)
                | models.Q(match__isnull=True, event_board__isnull=False),
                name="rated_match_or_board",
            )
        ]

    def __str__(self):
        if self.match_id is None:
            return f"rated event board {self.event_board_id}"
        return f"rated match {self.match_id}"


class RatingChange(models.Model):
    """One player's rating before and after one rated match ("+14, now 1032")."""

    rated_match = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    position = models.PositiveSmallIntegerField()  # the seat (an event board: at the player's table)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    matches_after = models.PositiveIntegerField()
    factor = models.FloatField(default=1.0)  # < 1: a repeated line-up (maths.repeat_factor)
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["rated_match", "position"]
        constraints = [models.UniqueConstraint(fields=["rated_match", "user"], name="unique_rating_change")]
        indexes = [
            models.Index(fields=["user", "rated_match"], name="rating_change_user"),
            # The 30-day leaderboard sums over this index alone (an index-only scan).
            models.Index(
                fields=["rated_at", "user"], name="rating_change_recent", include=["display_before", "display_after"]
            ),
        ]

    def __str__(self):
        return f"{self.user_id}: {self.display_before} → {self.display_after}"

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before
