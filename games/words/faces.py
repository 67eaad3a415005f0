"""A card as people see it: its face (rank, suit symbol, colour, trump mark), the dict every
card template draws (games/templatetags/cards.py) and its spoken name reads
(games/words/card_names.py). Never more than the card's own code: a face is built only for
a card the reader may see."""

from collections import Counter

from django.utils.translation import gettext as _

from games import engine

SUITS = engine.SUIT_SYMBOLS


def card_face(code: str, ctx) -> dict:
    """The face of `code`; `ctx` (engine.context / view_context) marks trumps, None marks none."""
    joker = code.endswith("JK")
    suit = "" if joker else code[0]
    return {
        "code": code,
        "rank": (_("JOKER") if code == "BJK" else _("Joker")) if joker else code[1:],
        "symbol": "🃏" if joker else SUITS[suit],
        "red": code == "BJK" or suit in ("H", "D"),
        "joker": joker,
        "big": code == "BJK",
        "trump": ctx is not None and ctx.is_trump(code),
    }


def faces(cards, ctx) -> list[dict]:
    return [card_face(code, ctx) for code in cards or ()]


def hand_faces(view, ctx) -> list[dict]:
    """A seat's hand; during the bury the dealer's 8 picked-up kitty cards are marked (§4.1)."""
    hand = faces(view["hand"], ctx)
    if view["phase"] == "bury" and view.get("kitty"):
        pending = Counter(view["kitty"])
        for card in hand:
            if pending[card["code"]]:
                pending[card["code"]] -= 1
                card["from_kitty"] = True
    return hand
