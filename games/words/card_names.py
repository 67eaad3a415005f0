"""The spoken name of a card, for screen readers and tooltips: "10 of hearts", "big joker",
"queen of spades, trump" / 红桃10, 大王, 黑桃Q，主. One place for the table, the replays
and every other page that shows cards; never the internal code (`H10`, `BJK`).

A face is the dict built for an engine card (games/words/faces.py):
keys code, rank, symbol, red, joker, big, trump.
"""

from functools import lru_cache

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _


def card_name(face: dict) -> str:
    """The card's name in the active language, with ", trump" when it is a trump."""
    return _name(face["code"], bool(face["trump"]), get_language())


@lru_cache(maxsize=1024)  # 54 cards × trump or not × a few languages
def _name(code: str, trump: bool, _language: str | None) -> str:
    if code == "BJK":
        name = _("big joker")
    elif code == "SJK":
        name = _("small joker")
    else:
        name = _("%(rank)s of %(suit)s") % {"rank": _rank(code[1:]), "suit": _suit(code[0])}
    return _("%(card)s, trump") % {"card": name} if trump else name


def _suit(letter: str) -> str:
    return {
        "S": pgettext("card suit", "spades"),
        "H": pgettext("card suit", "hearts"),
        "D": pgettext("card suit", "diamonds"),
        "C": pgettext("card suit", "clubs"),
    }[letter]


def _rank(rank: str) -> str:
    """Court cards and aces by their word; numbers as they are."""
    words = {
        "J": pgettext("card rank", "jack"),
        "Q": pgettext("card rank", "queen"),
        "K": pgettext("card rank", "king"),
        "A": pgettext("card rank", "ace"),
    }
    return words.get(rank, rank)
