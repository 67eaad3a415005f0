"""`{% card face %}`: one playing card's HTML, built once per face and language.

A table view shows up to ~60 cards and is rendered for every seat after every action
(and for every dealt card), so an `{% include %}` per card dominated the render time
(docs/performance.md). The markup is the same for equal faces, so it is cached.
"""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.words.card_names import card_name

register = template.Library()


@register.simple_tag
def card(face: dict) -> str:
    return _card_html(
        face["code"],
        face["rank"],
        face["symbol"],
        face["red"],
        face["joker"],
        face["big"],
        face["trump"],
        bool(face.get("from_kitty")),
        card_name(face),
    )


@register.simple_tag
def cards(faces: list[dict]) -> str:
    """A row of faces (a trick, the point cards won, a kitty): one tag instead of a template
    loop of `{% card %}`, each face's markup fetched from its cached fragment."""
    return card_row(faces, get_language())


def card_row(faces: list[dict], language: str | None) -> SafeString:
    """`cards` in `language`: the table's regions (games/jinja_env.py) pass their render's."""
    return SafeString("".join([_face_fragment(face, language) for face in faces]))


_FRAGMENTS: dict[tuple, str] = {}  # (code, trump, from the kitty, language) → markup


def _face_fragment(face: dict, language: str | None) -> str:
    """One face's markup in the active language: a face is a pure function of its code, its
    trump flag and its kitty mark (games/words/faces.py), so that is the key."""
    key = (face["code"], bool(face["trump"]), bool(face.get("from_kitty")), language)
    html = _FRAGMENTS.get(key)
    if html is None:
        if len(_FRAGMENTS) >= 4096:  # 54 cards × 2 × 2 × the site's languages: never, in practice
            _FRAGMENTS.clear()
        html = _FRAGMENTS[key] = card(face)
    return html


@register.simple_tag
def card_buttons(hand: list[dict]) -> str:
    """The hand as selectable card buttons, a break before each new suit group (trumps are
    one group). A tag, not a template loop: it runs for every state a seat is shown."""
    parts, group = [], None
    for face in hand:
        if card_group(face) != group:
            group = card_group(face)
            parts.append(_group_break_html(group))
        parts.append(card_button(face))
    return SafeString("".join(parts))


def card_group(face: dict) -> str:
    return "trump" if face["trump"] else face["symbol"]


def card_button(face: dict) -> str:
    """One selectable card of the hand (also pushed alone as the deal brings it)."""
    return _button_html(face["code"], card_group(face), card(face))


@lru_cache(maxsize=16)
def _group_break_html(group: str) -> str:
    # static/js/table.js rebuilds these breaks the same way when a dealt card is added.
    return format_html('<span class="group-break" data-group="{}"></span>', group)


@lru_cache(maxsize=4096)
def _button_html(code: str, group: str, face_html: str) -> str:
    return format_html(
        '<button type="button" class="card-btn" data-testid="card" data-card="{}" data-group="{}" aria-pressed="false">{}</button>',
        code,
        group,
        face_html,
    )


@lru_cache(maxsize=4096)
def _card_html(code, rank, symbol, red, joker, big, trump, from_kitty, name) -> str:
    """One face; `name` (spoken, in the reader's language) also keys the cache by language."""
    classes = ["playing-card", f"s-{code[0]}" if not joker else "s-J"]  # s-*: the four-colour deck's suits
    classes += ["red"] * red + ["trump"] * trump + ["joker"] * joker + ["big"] * (joker and big)
    classes += ["from-kitty"] * from_kitty
    corner = format_html('<span class="pc-rank">{}</span>', rank)
    if not joker:
        corner += format_html('<span class="pc-suit">{}</span>', symbol)
    extra = ""
    if from_kitty:
        extra += '<span class="kitty-mark"></span>'  # a bar; the hand's head says what it means
        name = _("%(card)s, from the kitty") % {"card": name}
    # role="img": a screen reader says the card's name ("10 of hearts, trump"), not its glyphs.
    return mark_safe(
        format_html(
            '<span class="{}" data-card="{}" role="img" aria-label="{}"><span class="pc-corner">{}</span>'
            '<span class="pc-pip">{}</span>{}</span>',
            " ".join(classes),
            code,
            name,
            corner,
            "★" if joker else symbol,
            mark_safe(extra),
        )
    )
