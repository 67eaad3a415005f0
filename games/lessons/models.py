"""Lesson progress of accounts (guests included). Imported by games/models.py, so it
belongs to the games app and its migrations. A visitor who is not logged in keeps their
progress in the session instead (games/lessons/progress.py)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class LessonProgress(models.Model):
    """One lesson an account has completed (a lesson's slug: games/lessons/catalogue.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lesson_progress")
    lesson = models.CharField(_("lesson"), max_length=40)
    completed_at = models.DateTimeField(_("completed at"), default=timezone.now)

    class Meta:
        verbose_name = _("lesson progress")
        verbose_name_plural = _("lesson progress")
        constraints = [models.UniqueConstraint(fields=["user", "lesson"], name="lesson_progress_once_per_user")]

    def __str__(self):
        return f"{self.user_id} completed {self.lesson}"
