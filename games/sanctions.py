"""Is a user banned, muted, kicked from a table (STYLE: selectors; docs/moderation.md).

Below the features: moderation writes these sanctions; chat, friends, the tables and the
pages read them here. Who may moderate is the accounts app's (accounts.selectors.user_can_moderate)."""

from django.db.models import F

from games.moderation.models import Ban, Kick, Mute


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
