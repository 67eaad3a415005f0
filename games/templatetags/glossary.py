"""`{% term "kitty" %}`: one of the game's words in running text, explaining itself.

    {% load glossary %}
    … the dealer picks up the {% term "kitty" %} …
    … {% term "bury" "buries" %} eight cards …      (the second argument: the text shown)

renders the word as a link to its glossary entry on the rules page with its definition in a
tooltip beside it (role="tooltip", named by the link's aria-describedby). CSS shows the tip
on hover and keyboard focus (static/css/site.css, "Glossary terms"); on a touch screen
static/js/glossary.js makes the first tap show it and a second tap follow the link. Without
JavaScript a tap follows the link at once, to the same definition.

The markup is one Jinja2 macro, games/jinja2/games/partials/term.html: the table's regions call
it as `term(key, shown, place)`, Python code calls `term_html(key, text)`.
"""

from itertools import count

from django import template

from games.glossary import TERMS
from games.jinja_env import macro

register = template.Library()

# Each tooltip needs an id of its own on the page, however often its word appears there;
# a process-wide counter never repeats one.
_tip_ids = count(1)


def term_html(key: str, text: str | None = None, place: str | None = None) -> str:
    """The markup of glossary term `key` (a key of games.glossary.TERMS), showing `text`
    (escaped) or the term's word in the active language. An unknown key raises KeyError:
    a misspelt term is a bug to find in tests, not a word to show unexplained.

    `place` names where the word stands when it is the only one of its key there (the table's
    regions): its tooltip's id is then the same on every render, so a region that did not
    change renders the same markup (and is not pushed again)."""
    shown = TERMS[key].word if text is None else text
    return macro("games/partials/term.html", "term")(key, shown, place if place else next(_tip_ids))


@register.simple_tag
def term(key: str, text: str | None = None, place: str | None = None) -> str:
    return term_html(key, text, place)
