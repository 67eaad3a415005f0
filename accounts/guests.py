"""Guests: people who play before they register.

A guest is an ordinary user row with `Profile.is_guest` and no usable password, logged in
through the session like anyone else, so every check of the site (the seat, the phase, the
version, what a seat may see, bans and mutes) holds for a guest exactly as for an account.
What differs is decided where it matters: guests never sit at rated tables, chat only where
a table's owner allows it, and their creation is limited per client address.

Registering as a guest keeps the same row: the matches, replays and analyses played as a
guest stay theirs. Guests who never register are swept after `GUEST_KEEP_DAYS` without a
visit (games/management/commands/guests_sweep.py removes their tables first).
"""

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet

from accounts.language import language_supported
from accounts.models import Profile
from accounts.throttle import count_in_window, subject_digest

GUEST_PREFIX = "guest-"  # registration refuses names that start with it (forms.RegisterForm)
DEFAULT_CREATE_LIMIT = 10  # guests one client address may create per window
DEFAULT_CREATE_WINDOW_S = 60 * 60
DEFAULT_KEEP_DAYS = 14


class TooManyGuests(Exception):
    """This client created its share of guests for now."""

    def __init__(self, window_s: int) -> None:
        self.window_s = window_s
        super().__init__(f"too many guests from this address; try again within {window_s} s")


def is_guest(user) -> bool:
    """Whether `user` is a signed-in guest (anonymous visitors and accounts are not)."""
    if user is None or not user.is_authenticated:
        return False
    profile = getattr(user, "profile", None)
    return bool(profile and profile.is_guest)


@transaction.atomic
def guest_create(*, ip: str, language: str = "") -> User:
    """A new guest for a visitor at `ip`; raises TooManyGuests past the per-address limit."""
    limit = getattr(settings, "GUEST_CREATE_LIMIT", DEFAULT_CREATE_LIMIT)
    window = getattr(settings, "GUEST_CREATE_WINDOW_S", DEFAULT_CREATE_WINDOW_S)
    if count_in_window(f"accounts:guest-create:ip:{subject_digest(ip)}", window) > limit:
        raise TooManyGuests(window)
    users = get_user_model().objects
    while True:  # 32 bits of randomness: a clash is rare, and the loop takes another
        username = f"{GUEST_PREFIX}{secrets.token_hex(4)}"
        if not users.filter(username__iexact=username).exists():
            break
    user = users.create_user(username=username)  # no password: set_unusable_password
    Profile.objects.create(user=user, is_guest=True, language=language_supported(language))
    return user


@transaction.atomic
def guest_register(*, user: User, username: str, password: str, email: str = "") -> User:
    """Turn a guest into an account in place: the same row, so every table, match, replay
    and analysis the guest played stays theirs. The caller validated the form."""
    user.username = username
    user.email = get_user_model().objects.normalize_email(email)
    user.set_password(password)
    user.save(update_fields=["username", "email", "password"])
    Profile.objects.filter(user=user).update(is_guest=False)
    user.profile.is_guest = False
    return user


def guests_stale(*, now: datetime) -> QuerySet:
    """Guests not seen for GUEST_KEEP_DAYS (their last login, else when they were made)."""
    cutoff = now - timedelta(days=getattr(settings, "GUEST_KEEP_DAYS", DEFAULT_KEEP_DAYS))
    seen_before = Q(last_login__lt=cutoff) | Q(last_login__isnull=True, date_joined__lt=cutoff)
    return get_user_model().objects.filter(seen_before, profile__is_guest=True)
