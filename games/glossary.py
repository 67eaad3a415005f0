"""The game's words, explained to players: each term's English word, its Chinese word(s) and a
short definition, and the rules page section it belongs to.

The rules page (`/rules/#glossary`) lists them; `{% term "kitty" %}` and
`games.templatetags.glossary.term_html` put one into running text, where it explains itself
on hover, focus and tap and links to its entry (`games.rulebook.term_url`).

Both words are shown in either language (players meet both: a Chinese-speaking player learns
"kitty" from an English guide, an English speaker hears 扣底 at a real table); the
definition follows the reader's language.
"""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Term:
    english: str
    chinese: tuple[str, ...]  # the usual word first, then others players also say
    definition: Promise  # one or two sentences, in the reader's language
    anchor: str = ""  # the rules page section that explains it (games/rulebook.py ANCHORS)

    @property
    def word(self) -> str:
        """The word in the active language: the one a term shows in running text."""
        return self.chinese[0] if (get_language() or "").startswith("zh") else self.english


TERMS: dict[str, Term] = {
    "dealer": Term(
        "dealer",
        ("庄家",),
        _(
            "The player who picks up the kitty and leads the first trick. The dealer and "
            "their partner are the dealer team: they try to keep the defenders under 80 points."
        ),
        "goal",
    ),
    "defenders": Term(
        "defenders",
        ("闲家", "抓分方"),
        _("The team that is not dealing. They collect point cards: 80 or more takes the deal from the dealers."),
        "goal",
    ),
    "partner": Term(
        "partner",
        ("对家",),
        _("The player sitting opposite you. Partners are one team: their points and their level are shared."),
        "goal",
    ),
    "hand": Term(
        "hand",
        ("一副", "一局"),
        _("One deal played out, from the first card dealt to the score. Your hand is also the cards you hold."),
        "goal",
    ),
    "match": Term(
        "match",
        ("整场",),
        _("A series of hands, until a team at level A wins a hand."),
        "match-end",
    ),
    "point-cards": Term(
        "point cards",
        ("分牌",),
        _("The 5s are worth 5 points, the 10s and the Ks 10 each. The two decks hold 200 points in all."),
        "deck",
    ),
    "level": Term(
        "level",
        ("级",),
        _(
            "Each team's progress, from 2 up to A. The dealer team's level names this hand's "
            "level cards; a team that wins a hand at A wins the match."
        ),
        "levels",
    ),
    "level-card": Term(
        "level card",
        ("级牌",),
        _(
            "A card of the dealer team's level rank, in any suit (every 7 while they are on 7). "
            "Level cards are trumps, just below the jokers."
        ),
        "trumps",
    ),
    "trump": Term(
        "trump",
        ("主牌", "主"),
        _(
            "A card of the strongest group: both jokers, every level card, every 2 and every card "
            "of the trump suit. All trumps count as one suit."
        ),
        "trumps",
    ),
    "trump-suit": Term(
        "trump suit",
        ("主花色",),
        _("The suit chosen by the declaration. Its cards are trumps, below the jokers, the level cards and the 2s."),
        "trumps",
    ),
    "no-trump": Term(
        "no-trump",
        ("无主",),
        _("A hand without a trump suit: only the jokers, the level cards and the 2s are trumps."),
        "trumps",
    ),
    "permanent-trumps": Term(
        "permanent trumps",
        ("常主",),
        _("The cards that are trumps whatever suit is chosen: the jokers, the level cards and, in this game, every 2."),
        "trumps",
    ),
    "declare": Term(
        "declare",
        ("亮主",),
        _(
            "During the deal, show a level card from your hand to make its suit the trump suit "
            "(or a pair of jokers for no-trump). Anyone may declare."
        ),
        "declaring",
    ),
    "override": Term(
        "override",
        ("反主",),
        _(
            "Replace the standing declaration with a stronger one: a pair of level cards beats "
            "a single one, a pair of jokers beats a level pair."
        ),
        "declaring",
    ),
    "reinforce": Term(
        "reinforce",
        ("自保",),
        _(
            "Add the second, identical level card to your own single declaration while it "
            "stands: it becomes a pair, which only jokers can override."
        ),
        "declaring",
    ),
    "last-chance": Term(
        "last chance",
        ("最后亮主机会",),
        _("A short moment after the last card is dealt when players may still declare or override."),
        "declaring",
    ),
    "kitty": Term(
        "kitty",
        ("底牌",),
        _("The last 8 cards of the deck, dealt to nobody. The dealer picks them up and buries 8 cards in their place."),
        "kitty",
    ),
    "bury": Term(
        "bury",
        ("扣底",),
        _(
            "The dealer lays 8 cards face down after picking up the kitty. Nobody else sees them "
            "until the hand is over."
        ),
        "kitty",
    ),
    "lead": Term(
        "lead",
        ("首出", "出牌"),
        _(
            "Play the first cards of a trick. The dealer leads the first trick; the winner of each trick leads the next."
        ),
        "leading",
    ),
    "trick": Term(
        "trick",
        ("一轮", "一圈"),
        _("One play from each of the four players, starting with the lead. The best play takes all the cards."),
        "leading",
    ),
    "single": Term(
        "single",
        ("单张",),
        _("One card played on its own."),
        "pairs-tractors",
    ),
    "pair": Term(
        "pair",
        ("对子",),
        _("Two identical cards: the same suit and the same rank, such as two ♥K or two small jokers."),
        "pairs-tractors",
    ),
    "tractor": Term(
        "tractor",
        ("拖拉机",),
        _("Two or more pairs next to each other in rank, all trumps or all of one suit, such as ♠8 ♠8 ♠9 ♠9."),
        "pairs-tractors",
    ),
    "throw": Term(
        "throw",
        ("甩牌",),
        _(
            "A lead of several cards of one suit that is not one single, pair or tractor. It stands "
            "only if nobody can beat any part of it; a failed throw costs points."
        ),
        "throws",
    ),
    "follow": Term(
        "follow",
        ("跟牌",),
        _(
            "Play after the lead: as many cards as were led, of the led suit while you have any, "
            "with pairs and tractors if the lead had them and you can."
        ),
        "following",
    ),
    "discard": Term(
        "discard",
        ("垫牌",),
        _("Play cards of another suit because you have none of the led one. A discard never wins the trick."),
        "following",
    ),
    "ruff": Term(
        "ruff",
        ("毙", "杀"),
        _(
            "Play trumps on a lead of another suit when you have none of that suit. A ruff of the "
            "lead's shape beats every card of the led suit."
        ),
        "winning-tricks",
    ),
    "overruff": Term(
        "overruff",
        ("盖毙",),
        _("Ruff with higher trumps after another player has already ruffed the same trick."),
        "winning-tricks",
    ),
    "kitty-bonus": Term(
        "kitty bonus",
        ("抠底",),
        _(
            "When the defenders win the last trick, the points buried in the kitty count for them, "
            "multiplied: ×2 after a single, ×4 after a pair, more after a tractor."
        ),
        "kitty-bonus",
    ),
}
