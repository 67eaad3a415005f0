"""Language of a websocket reader, and what it reads in it (Django i18n): moderation
notices and refusals (worded by games/words/refusals.py)."""

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from games.engine import Refusal
from games.words.refusals import refusal_text


def language_for_scope(scope, user, saved=None) -> str:
    """The user's saved choice (`saved`, when the caller read it), else the language
    cookie, else the browser's Accept-Language."""
    if saved is None:
        saved = getattr(getattr(user, "profile", None), "language", "")
    candidates = [saved, scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")]
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _q in parse_accept_lang_header(accept)]
    for code in candidates:
        if not code or code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def translate_notice(event: dict, language: str) -> str:
    """A moderation notice from a group message (games.moderation.users.moderation_notice),
    in this reader's language; `message` is the fallback."""
    if "template" not in event:
        return event.get("message", "")
    with translation.override(language):
        return translation.gettext(event["template"]).format(**event.get("params", {}))


def translate_rejection(refusal: Refusal, language: str) -> str:
    """A refusal in a socket reader's language."""
    with translation.override(language):
        return refusal_text(refusal)
