"""Reads for accounts. Writes live in services.py."""
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import F
from django.utils import timezone

from accounts.models import Ban, Kick, Mute, Profile


def profile_language(*, user: AbstractBaseUser) -> str:
    """The user's stored UI language code, or "" (browser default / no profile yet)."""
    return Profile.objects.filter(user=user).values_list("language", flat=True).first() or ""


def user_public_get(*, username: str) -> AbstractBaseUser | None:
    """The active user shown at /accounts/u/<username>/, or None."""
    return get_user_model().objects.filter(username=username, is_active=True).first()


# --- moderation (docs/moderation.md) ------------------------------------------------------

MODERATE_PERMISSION = "accounts.moderate"


def user_can_moderate(user) -> bool:
    """Staff with the moderation permission (superusers have every permission)."""
    return bool(
        user is not None and user.is_authenticated and user.is_active and user.is_staff
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
        user is not None and user.is_authenticated
        and Kick.objects.active().filter(user_id=user.pk, table_id=table_id).exists()
    )


@dataclass(frozen=True)
class EntryFacts:
    banned: bool
    kicked: bool  # from this table
    language: str  # the saved UI language, or ""


def entry_facts(*, user, table_id: int, now=None) -> EntryFacts:
    """What a socket entering a table needs to know about its user, in one statement:
    is_banned, is_kicked and profile_language together.

    In SQL because after a restart every socket enters at once, one after another in the
    process's database thread, and the ORM spends ~1 ms of CPU compiling each query
    (these three: 3 ms; this statement: 0.2 ms; docs/performance.md). "Active" is
    SanctionQuerySet.active(); tests/test_accounts_entry.py holds the two equal."""
    now = Ban._meta.get_field("expires_at").get_db_prep_value(now or timezone.now(), connection)
    active = "lifted_at IS NULL AND (expires_at IS NULL OR expires_at > %s)"
    quote = connection.ops.quote_name
    text = (
        f"SELECT EXISTS (SELECT 1 FROM {quote(Ban._meta.db_table)} WHERE user_id = %s AND {active}), "
        f"EXISTS (SELECT 1 FROM {quote(Kick._meta.db_table)} WHERE user_id = %s AND table_id = %s AND {active}), "
        f"(SELECT language FROM {quote(Profile._meta.db_table)} WHERE user_id = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(text, [user.pk, now, user.pk, table_id, now, user.pk])
        banned, kicked, language = cursor.fetchone()
    return EntryFacts(banned=bool(banned), kicked=bool(kicked), language=language or "")
