"""Where each rule is explained to players: the sections of the site's rules page (`/rules/`)
and the section of RULES.md each one covers.

Code cites RULES.md by number ("5.4"); players never see that number. Every reference a
player meets (a refusal, the verdict, a house-rule option, a table's rules summary) links to
the page's section instead, found here. The anchors are stable: other pages, lessons and
old links point at them.
"""

from functools import cache

from django.urls import reverse

# The rules page's sections in reading order: (anchor id, the RULES.md sections it explains).
SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("goal", ("1.1",)),
    ("deck", ("1", "1.2", "1.3", "1.4", "7.1")),
    ("levels", ("2", "2.1")),
    ("trumps", ("2.2", "2.3", "2.4", "2.5", "2.6")),
    ("declaring", ("3", "3.1", "3.2", "3.3", "3.4", "3.5", "3.6")),
    ("kitty", ("4", "4.1", "4.2")),
    ("leading", ("5", "5.2")),
    ("pairs-tractors", ("5.1",)),
    ("throws", ("5.3",)),
    ("following", ("5.4",)),
    ("winning-tricks", ("5.5", "5.6")),
    ("kitty-bonus", ("6", "6.1", "6.2", "6.3")),
    ("scoring", ("7", "7.2")),
    ("match-end", ("8", "8.1", "8.2", "8.3", "8.4")),
    ("seeing", ("9",)),
    ("glossary", ("10",)),
)
ANCHORS = tuple(anchor for anchor, _sections in SECTIONS)
_ANCHOR_OF = {section: anchor for anchor, sections in SECTIONS for section in sections}


def rule_anchor(section: str) -> str:
    """The rules page's anchor for a RULES.md section ("5.4" → "following"); a subsection
    without its own entry falls back to its chapter ("5.4.2" → "5.4" → "5")."""
    key = section.strip().lstrip("§")
    while key:
        if key in _ANCHOR_OF:
            return _ANCHOR_OF[key]
        key = key.rpartition(".")[0]
    raise KeyError(f"no section of the rules page explains RULES §{section}")


@cache
def rules_page_url() -> str:
    """The rules page's address: the same for the whole process (config/urls.py), and asked
    for by every glossary word of the table's regions on every render."""
    return reverse("rules")


def rule_url(section: str) -> str:
    """The link to the rules page's section that explains RULES.md `section`."""
    return f"{rules_page_url()}#{rule_anchor(section)}"


def term_url(key: str) -> str:
    """The link to one word of the glossary (games/glossary.py names the words)."""
    return f"{rules_page_url()}#term-{key}"
