"""`{% card face %}`: one playing card's HTML, built once per face and language.

A table view shows up to ~60 cards and is rendered for every seat after every action
(and for every dealt card), so an `{% include %}` per card dominated the render time
(docs/performance.md). The markup is the same for equal faces, so it is cached.
"""
from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag
def card(face: dict) -> str:
    return _card_html(
        face["code"], face["rank"], face["symbol"], face["red"], face["joker"], face["big"],
        face["trump"], bool(face.get("from_kitty")), get_language(),
    )


@lru_cache(maxsize=4096)
def _card_html(code, rank, symbol, red, joker, big, trump, from_kitty, _language) -> str:
    classes = ["playing-card"]
    classes += ["red"] * red + ["trump"] * trump + ["joker"] * joker + ["big"] * (joker and big)
    classes += ["from-kitty"] * from_kitty
    corner = format_html('<span class="pc-rank">{}</span>', rank)
    if not joker:
        corner += format_html('<span class="pc-suit">{}</span>', symbol)
    extra = ""
    if trump:
        extra += format_html('<span class="visually-hidden"> ({})</span>', _("trump"))
    if from_kitty:
        extra += format_html('<span class="kitty-mark">{}</span>', _("kitty"))
    return mark_safe(format_html(
        '<span class="{}" data-card="{}"><span class="pc-corner">{}</span>'
        '<span class="pc-pip" aria-hidden="true">{}</span>{}</span>',
        " ".join(classes), code, corner, "★" if joker else symbol, mark_safe(extra),
    ))
