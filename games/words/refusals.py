"""A refusal as a sentence in the reader's language (Django i18n): every page, socket and
lesson that refuses an action says it the same way."""

from django.utils import translation
from django.utils.translation import gettext_lazy  # not aliased: makemessages only knows its own names

from games.engine import Refusal

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
