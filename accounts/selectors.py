"""Reads for accounts. Writes live in services.py."""
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from accounts.models import Profile


def profile_language(*, user: AbstractBaseUser) -> str:
    """The user's stored UI language code, or "" (browser default / no profile yet)."""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def user_public_get(*, username: str) -> AbstractBaseUser | None:
    """The active user shown at /accounts/u/<username>/, or None."""
    return get_user_model().objects.filter(username=username, is_active=True).first()
