from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise  # a str or a lazy translation (stubs only)


def language_choices() -> "list[tuple[str, _StrOrPromise]]":
    """ "" means: follow the browser (Accept-Language). A callable keeps LANGUAGES out of migrations."""
    return [("", _("Browser default")), *settings.LANGUAGES]


class Profile(models.Model):
    """Per-user preferences. Created with the user (services.user_register) or on first need."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile", verbose_name=_("user")
    )
    language = models.CharField(
        _("language"),
        max_length=16,
        blank=True,
        default="",
        choices=language_choices,
        help_text=_("Language of the site for this player; empty follows the browser."),
    )
    # At the table (docs/table-ui.md): remembered per account, so every device plays alike.
    sound = models.BooleanField(_("sounds at the table"), default=True)
    four_colour = models.BooleanField(
        _("four-colour deck"),
        default=False,
        help_text=_("♠ black, ♥ red, ♦ blue, ♣ green: suits told apart without relying on red and black."),
    )
    play_forced = models.BooleanField(
        _("play forced moves for me"),
        default=False,
        help_text=_("When only one legal play exists, it is played for you at once."),
    )
    # The bots "Play now" seats, as chosen on its form; "" until then: the site's default,
    # settings.GAMES_BOT_LEVEL (expert). The levels are the games app's (games/bot_levels.py).
    bot_level = models.CharField(
        _("bot level for Play now"),
        max_length=16,
        blank=True,
        default="",
        help_text=_("Empty: the site's default level."),
    )
    # A guest plays without registering (accounts/guests.py): no password, never at rated
    # tables, swept after a while unless they register, which keeps the same user row.
    is_guest = models.BooleanField(_("guest"), default=False, db_index=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")
        # The moderators' permission, `accounts.moderate` (docs/moderation.md): a user's, so it
        # hangs on the profile; what it allows lives in games/moderation.
        permissions = [("moderate", _("Can moderate rooms and users"))]

    def __str__(self) -> str:
        return f"Profile of {self.user}"
