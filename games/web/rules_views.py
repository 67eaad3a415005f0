"""The rules page, `/rules/`: the game explained to someone who has never played it.

One frame (templates/games/rules.html) holds the title, the table of contents and a section
per anchor of games/rulebook.py, in the rulebook's order. Each section's prose is a small
template per language (templates/games/rules/<language>/<anchor>.html): long explanations
read better written whole in each language than cut into hundreds of msgids. The glossary
section is built from games/glossary.py in both languages. The level table and the kitty
multipliers are asked from the engine (RULES §7.2, §6.1), never written here.
"""

from django.shortcuts import render
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from games import engine
from games.glossary import TERMS
from games.rulebook import ANCHORS

GLOSSARY = "glossary"
# The heading of each section, also its line in the table of contents.
TITLES = {
    "goal": _("The game in a minute"),
    "deck": _("The cards and the points"),
    "levels": _("The levels"),
    "trumps": _("Trumps and their order"),
    "declaring": _("Declaring trumps during the deal"),
    "kitty": _("The kitty and the bury"),
    "leading": _("Tricks and leading"),
    "pairs-tractors": _("Singles, pairs and tractors"),
    "throws": _("Throws and their penalty"),
    "following": _("Following"),
    "winning-tricks": _("Who wins a trick"),
    "kitty-bonus": _("The kitty bonus"),
    "scoring": _("Scoring a hand and going up levels"),
    "match-end": _("How a match ends"),
    "seeing": _("What each player sees"),
    GLOSSARY: _("Glossary"),
}
# The level table's rows: every score below this one.
LEVEL_TABLE_UP_TO = 240
# Example last leads for the kitty bonus, ♣ with level 2 and ♠ trump (RULES §6.1).
KITTY_LEADS = ("C9", "C9 C9", "C8 C8 C9 C9", "C7 C7 C8 C8 C9 C9")


def prose_language() -> str:
    """Which language's section templates to show: Chinese for zh-hans, else English."""
    return "zh_hans" if (get_language() or "").startswith("zh") else "en"


def sections() -> list[dict]:
    language = prose_language()
    return [
        {
            "anchor": anchor,
            "title": TITLES[anchor],
            "template": "games/rules/glossary.html" if anchor == GLOSSARY else f"games/rules/{language}/{anchor}.html",
        }
        for anchor in ANCHORS
    ]


def level_bands() -> list[dict]:
    """RULES §7.2's table (engine.score_bands) score by score, so the rows read as the
    rulebook's (1–39), up to LEVEL_TABLE_UP_TO (the page says "each further 40" in words)."""
    bands = engine.score_bands(upto=LEVEL_TABLE_UP_TO - 1, step=1)
    bands[-1]["high"] = LEVEL_TABLE_UP_TO - 1
    return bands


def kitty_examples() -> list[dict]:
    ctx = engine.context("2", "S")
    return [
        {"cards": lead, **engine.shape_of(lead.split(), ctx), "multiplier": engine.kitty_multiplier(lead.split(), ctx)}
        for lead in KITTY_LEADS
    ]


def rules_page(request):
    return render(
        request,
        "games/rules.html",
        {
            "sections": sections(),
            "terms": [{"key": key, "term": term, "section": TITLES.get(term.anchor)} for key, term in TERMS.items()],
            "level_bands": level_bands(),
            "kitty_examples": kitty_examples(),
        },
    )
