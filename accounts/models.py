from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def language_choices() -> list[tuple[str, str]]:
    """"" means: follow the browser (Accept-Language). A callable keeps LANGUAGES out of migrations."""
    return [("", _("Browser default")), *settings.LANGUAGES]


class Profile(models.Model):
    """Per-user preferences. Created with the user (services.user_register) or on first need."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile", verbose_name=_("user")
    )
    language = models.CharField(
        _("language"), max_length=16, blank=True, default="", choices=language_choices,
        help_text=_("Language of the site for this player; empty follows the browser."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return f"Profile of {self.user}"
