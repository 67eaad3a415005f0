"""The language cookie and the supported language codes (settings.LANGUAGES).

LocaleMiddleware reads the cookie first, then Accept-Language, so the cookie is how
a stored profile language takes effect.
"""

from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import get_supported_language_variant


def language_supported(code: str | None) -> str:
    """The LANGUAGES code matching `code` ("zh-Hans" → "zh-hans"), or "" if unsupported.

    Django's set_language accepts any language Django itself has a catalog for
    (e.g. "fr"); only codes in settings.LANGUAGES may be stored.
    """
    if not code:
        return ""
    try:
        return get_supported_language_variant(code.lower())
    except LookupError:
        return ""


def language_cookie_set(response: HttpResponse, code: str) -> None:
    """Set the language cookie exactly as django.views.i18n.set_language does."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def language_cookie_delete(response: HttpResponse) -> None:
    """Forget the chosen language so the browser's Accept-Language applies again."""
    response.delete_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
