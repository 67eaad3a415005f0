"""A rule reference as players see it: a short link in words ("rules: following suit") to
the section of the rules page that explains it (games/rulebook.py), never a bare "§5.4".

`{% rule_link section %}` in templates; `rule_link_html(section)` and `rule_link_words(section)`
for Python code and socket messages. It opens in a new tab, so a player who looks a rule up
in the middle of a hand does not leave the table.
"""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext_lazy

from games import rulebook

register = template.Library()

# What each section of the rules page is called in a link, by its anchor (rulebook.ANCHORS).
# The context keeps these apart from the page's own headings, which may word them otherwise.
LINK_WORDS = {
    "goal": pgettext_lazy("rule link", "the goal"),
    "deck": pgettext_lazy("rule link", "cards and points"),
    "levels": pgettext_lazy("rule link", "levels"),
    "trumps": pgettext_lazy("rule link", "trumps"),
    "declaring": pgettext_lazy("rule link", "declaring trump"),
    "kitty": pgettext_lazy("rule link", "the kitty and the bury"),
    "leading": pgettext_lazy("rule link", "leading a trick"),
    "pairs-tractors": pgettext_lazy("rule link", "pairs and tractors"),
    "throws": pgettext_lazy("rule link", "throws"),
    "following": pgettext_lazy("rule link", "following suit"),
    "winning-tricks": pgettext_lazy("rule link", "who wins a trick"),
    "kitty-bonus": pgettext_lazy("rule link", "the kitty bonus"),
    "scoring": pgettext_lazy("rule link", "scoring and levels"),
    "match-end": pgettext_lazy("rule link", "how a match ends"),
    "seeing": pgettext_lazy("rule link", "what everyone sees"),
    "glossary": pgettext_lazy("rule link", "glossary"),
}


def rule_link_words(section: str) -> str:
    """The link's words in the active language: "rules: following suit" for "5.4"."""
    return gettext("rules: %(section)s") % {"section": LINK_WORDS[rulebook.rule_anchor(section)]}


def rule_link_html(section: str) -> SafeString:
    """The link to the rules page's section that explains RULES.md `section`."""
    return format_html(
        '<a class="rule-link" href="{}" target="_blank" rel="noopener">{}</a>',
        rulebook.rule_url(section),
        rule_link_words(section),
    )


@register.simple_tag
def rule_link(section: str | None) -> str:
    """{% rule_link "5.4" %}: the link, or nothing for a reference-less refusal."""
    return rule_link_html(section) if section else ""
