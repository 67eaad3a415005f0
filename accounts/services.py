"""Writes for accounts: users, profiles and demo data. Keyword-only, `<entity>_<action>`."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User  # settings.AUTH_USER_MODEL (the default)
from django.db import transaction

from accounts.language import language_supported
from accounts.models import Profile

DEMO_USERNAMES = ("alice", "bob", "carol", "dave")
DEMO_PASSWORD = "double-up-demo"


def _check_language(language: str) -> str:
    code = language_supported(language)
    if language and not code:
        raise ValueError(f"unsupported language {language!r}; expected one of settings.LANGUAGES or ''")
    return code


@transaction.atomic
def user_register(*, username: str, password: str, email: str = "", language: str = "") -> User:
    """Create a user and their profile. The caller has validated username and password;
    `language` is "" (browser default) or a code from settings.LANGUAGES."""
    user = get_user_model().objects.create_user(username=username, email=email, password=password)
    Profile.objects.create(user=user, language=_check_language(language))
    return user


def profile_ensure(*, user: User) -> Profile:
    """The user's profile, created if missing (users made by createsuperuser or the admin)."""
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def profile_set_language(*, user: User, language: str) -> str:
    """Remember the user's UI language: "" (browser default) or a code from LANGUAGES.

    Raises ValueError for other codes. Returns the code stored.
    """
    code = _check_language(language)
    profile = profile_ensure(user=user)
    if profile.language != code:
        profile.language = code
        profile.save(update_fields=["language", "updated_at"])
    return code


PREFERENCES = ("sound", "four_colour", "play_forced")  # Profile's on/off choices for the table


@transaction.atomic
def profile_update(*, user: User, language: str, email: str, **preferences: bool) -> str:
    """Save the settings page: preferred language, e-mail and the table preferences.
    Returns the stored language."""
    user.email = get_user_model().objects.normalize_email(email)
    user.save(update_fields=["email"])
    profile_set_preferences(user=user, **preferences)
    return profile_set_language(user=user, language=language)


def profile_set_preferences(*, user: User, **preferences: bool) -> Profile:
    """Set some of the on/off PREFERENCES (a toggle at the table sets one). Unknown names are refused."""
    unknown = set(preferences) - set(PREFERENCES)
    if unknown:
        raise ValueError(f"unknown preferences: {sorted(unknown)}")
    profile = profile_ensure(user=user)
    changed = [name for name, on in preferences.items() if getattr(profile, name) != bool(on)]
    for name in changed:
        setattr(profile, name, bool(preferences[name]))
    if changed:
        profile.save(update_fields=[*changed, "updated_at"])
    return profile


def profile_set_bot_level(*, user: User, level: str) -> Profile:
    """Remember the bot level "Play now" seats for this user. The caller checks that the level
    is one the bots offer (games/bot_levels.py: accounts knows nothing of games)."""
    if not isinstance(level, str) or len(level) > (Profile._meta.get_field("bot_level").max_length or 0):
        raise ValueError(f"not a bot level: {level!r}")
    profile = profile_ensure(user=user)
    if profile.bot_level != level:
        profile.bot_level = level
        profile.save(update_fields=["bot_level", "updated_at"])
    return profile


def demo_users_ensure() -> list[str]:
    """Create the demo players that are missing; existing ones are left untouched.

    Returns the usernames created. Callers decide whether demo users are allowed (DEBUG).
    """
    existing = set(get_user_model().objects.filter(username__in=DEMO_USERNAMES).values_list("username", flat=True))
    created = [name for name in DEMO_USERNAMES if name not in existing]
    for name in created:
        user_register(username=name, password=DEMO_PASSWORD)
    return created
