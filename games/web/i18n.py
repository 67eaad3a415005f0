"""Language of a websocket reader, and translation of refusals (Django i18n)."""

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy  # not aliased: makemessages only knows its own names
from django.utils.translation.trans_real import parse_accept_lang_header

from games.engine import Refusal


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


# The phases in words (the scoreboard, refusals).
PHASES = {
    "ready": gettext_lazy("waiting to deal"),
    "deal": gettext_lazy("dealing"),
    "last_chance": gettext_lazy("last chance to declare"),
    "bury": gettext_lazy("dealer buries"),
    "play": gettext_lazy("playing"),
    "scored": gettext_lazy("hand over"),
    "finished": gettext_lazy("match over"),
}


def refusal_text(refusal: Refusal) -> str:
    """A refusal in the active language: every template is marked with gettext_noop (or
    the engine's plural marker); translate it, then fill it."""
    return refusal_sentence(refusal.template, refusal.plural, refusal.params)


def refusal_sentence(template: str, plural: str | None, params: dict) -> str:
    """A refusal's sentence from its parts (as games.engine.advice hands them over too).
    A phase is named in words ("the playing phase"), never by its code."""
    if "phase" in params:
        params = {**params, "phase": PHASES.get(params["phase"], params["phase"])}
    if plural is not None:
        return translation.ngettext(template, plural, params["count"]).format(**params)
    return translation.gettext(template).format(**params)


def translate_rejection(refusal: Refusal, language: str) -> str:
    """A refusal in a socket reader's language."""
    with translation.override(language):
        return refusal_text(refusal)
