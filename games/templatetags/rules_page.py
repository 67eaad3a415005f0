"""Card pictures for the rules page (templates/games/rules/): the table's own card faces
(games/templatetags/cards.py), ordered and marked as trumps by the engine.

    {% example "H6 H6 H8 H8" level="7" trump="H" shape="tractor" %}
    {% trump_order level="7" trump="H" %}

`example` shows the cards as written; with `level` and `trump` (a suit letter or "NT") it
marks the trumps as the table does. `shape` states what the prose says the cards are; it is
written into the markup (data-shape) and tests/web/test_rules_page.py checks every such claim
against the engine (RULES §5.1), so the page cannot teach a shape the game does not play.
"""

from itertools import groupby

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games import engine
from games.templatetags.cards import card_row
from games.words.faces import card_face

register = template.Library()


def _context(level: str, trump: str) -> engine.TrumpContext | None:
    return engine.context(level, trump) if level and trump else None


@register.simple_tag
def example(cards: str, level: str = "", trump: str = "", shape: str = "") -> SafeString:
    codes = cards.split()
    ctx = _context(level, trump)
    return format_html(
        '<span class="rules-cards" data-cards="{}" data-level="{}" data-trump="{}" data-shape="{}">{}</span>',
        " ".join(codes),
        level,
        trump,
        shape,
        card_row([card_face(code, ctx) for code in codes], get_language()),
    )


@register.simple_tag
def trump_order(level: str, trump: str) -> SafeString:
    """Every trump once, high to low (RULES §2.3), equal-ranked cards side by side in one group
    and a ">" after each but the last: the order comes from the engine's positions."""
    ctx = engine.context(level, trump)
    trumps = ctx.sort(code for code in engine.CODES if ctx.is_trump(code))
    groups = [list(group) for _position, group in groupby(trumps, key=ctx.position)]
    language = get_language()
    # After each group but the last a ">" for the eye, words for a screen reader ("big joker,
    # trump, ranks above…"); inside the group, so a line never starts with ">".
    above = format_html(
        '<span class="rules-order__gt"><span aria-hidden="true">&gt;</span><span class="visually-hidden">{}</span></span>',
        _("ranks above"),
    )
    return format_html(
        '<span class="rules-order" data-level="{}" data-trump="{}">{}</span>',
        level,
        trump,
        format_html_join(
            "",
            '<span class="rules-order__group">{}{}</span>',
            (
                (card_row([card_face(code, ctx) for code in group], language), above if i < len(groups) - 1 else "")
                for i, group in enumerate(groups)
            ),
        ),
    )
