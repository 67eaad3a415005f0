"""The analysis records (docs/analysis.md). Imported by games/models.py, so they belong to
the games app and its migrations."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class HandAnalysis(models.Model):
    """The analysis of one finished hand: queued when the hand is scored, done by the worker."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    hand = models.OneToOneField("games.Hand", on_delete=models.CASCADE, related_name="analysis")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    level = models.CharField(max_length=10)  # the evaluator (settings.GAMES_ANALYSIS_LEVEL)
    budget = models.FloatField()  # seconds per decision (settings.GAMES_ANALYSIS_BUDGET)
    seed = models.CharField(max_length=80)  # every decision's generator derives from it
    # Per seat ("0".."3") of a human player: {"accuracy": %, "lost": points, "decisions": n}.
    seats = models.JSONField(default=dict)
    seconds = models.FloatField(null=True, blank=True)  # how long the analysis took
    error = models.CharField(max_length=300, blank=True)
    queued_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("hand analysis")
        verbose_name_plural = _("hand analyses")

    def __str__(self):
        return f"analysis of hand {self.hand_id} ({self.status})"


class Decision(models.Model):
    """One decision of a human seat: what was played, what the bot suggests, their points."""

    class Kind(models.TextChoices):
        BURY = "bury", pgettext_lazy("decision", "bury")
        LEAD = "lead", pgettext_lazy("decision", "lead")
        FOLLOW = "follow", pgettext_lazy("decision", "follow")

    analysis = models.ForeignKey(HandAnalysis, on_delete=models.CASCADE, related_name="decisions")
    seat = models.PositiveSmallIntegerField()
    index = models.PositiveIntegerField()  # into the hand's engine actions (from its start_hand)
    seq = models.PositiveIntegerField()  # the TableEvent it was (the table version it produced)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    played = models.JSONField()
    played_points = models.FloatField()  # expected points of the seat's side after `played`
    suggested = models.JSONField()
    suggested_points = models.FloatField()
    lost = models.FloatField()  # suggested_points - played_points (≥ 0)
    options = models.PositiveSmallIntegerField()  # candidates evaluated

    class Meta:
        ordering = ["analysis", "index"]
        constraints = [models.UniqueConstraint(fields=["analysis", "index"], name="unique_analysis_decision")]

    def __str__(self):
        return f"decision {self.index} of seat {self.seat}"
