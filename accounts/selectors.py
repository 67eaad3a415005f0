"""Reads for accounts. Writes live in services.py."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User  # settings.AUTH_USER_MODEL (the default)
from django.db.models import F

from accounts.models import Ban, Block, Follow, Kick, Mute, Profile


def profile_language(*, user: User) -> str:
    """The user's stored UI language code, or "" (browser default / no profile yet)."""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def profile_bot_level(*, user: User) -> str:
    """The bot level the user chose for "Play now", or "" (none chosen yet)."""
    return Profile.objects.filter(user=user).values_list("bot_level", flat=True).first() or ""


def user_public_get(*, username: str) -> User | None:
    """The active user shown at /accounts/u/<username>/, or None."""
    return get_user_model().objects.filter(username=username, is_active=True).first()


# --- moderation (docs/moderation.md) ------------------------------------------------------

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


def ban_active(*, user):
    """The user's current site ban (the one that ends last), or None."""
    if user is None or not user.is_authenticated:
        return None
    return Ban.objects.active().filter(user_id=user.pk).order_by(F("expires_at").desc(nulls_first=True)).first()


def is_banned(user) -> bool:
    return bool(user is not None and user.is_authenticated and Ban.objects.active().filter(user_id=user.pk).exists())


def is_muted(user) -> bool:
    return bool(user is not None and user.is_authenticated and Mute.objects.active().filter(user_id=user.pk).exists())


def is_kicked(*, user, table_id: int) -> bool:
    """Was this user removed from this table by a moderator (and not let back)?"""
    return bool(
        user is not None
        and user.is_authenticated
        and Kick.objects.active().filter(user_id=user.pk, table_id=table_id).exists()
    )


# --- friends (docs/friends.md) -------------------------------------------------------------


def friends_of(*, user):
    """The players this user follows who follow them back, by name."""
    back = Follow.objects.filter(follower_id__in=Follow.objects.filter(follower=user).values("followed"), followed=user)
    return get_user_model().objects.filter(pk__in=back.values("follower"), is_active=True).order_by("username")


def follows(*, follower, followed) -> bool:
    return Follow.objects.filter(follower=follower, followed=followed).exists()


def blocked_ids(*, user) -> set[int]:
    """Whom this user blocked (their chat and invitations are hidden from this user)."""

    return set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))


def blocks(*, blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()
