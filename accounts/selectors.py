"""Reads for accounts. Writes live in services.py."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User  # settings.AUTH_USER_MODEL (the default)

from accounts.models import Profile


def profile_language(*, user: User) -> str:
    """The user's stored UI language code, or "" (browser default / no profile yet)."""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def profile_bot_level(*, user: User) -> str:
    """The bot level the user chose for "Play now", or "" (none chosen yet)."""
    return Profile.objects.filter(user=user).values_list("bot_level", flat=True).first() or ""


def user_public_get(*, username: str) -> User | None:
    """The active user shown at /accounts/u/<username>/, or None."""
    return get_user_model().objects.filter(username=username, is_active=True).first()


# --- moderation (docs/moderation.md; its records and reads are games/moderation's) --------

MODERATE_PERMISSION = "accounts.moderate"


def user_can_moderate(user) -> bool:
    """Staff with the moderation permission (superusers have every permission)."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and user.is_staff
        and user.has_perm(MODERATE_PERMISSION)
    )
