"""Lessons 1–7: the cards, the trumps and the play of one trick.

Each position is written from the learner's seat (0) with the level, the trump, the hands
and the trick so far; each check reads what the engine made of the move (the finished
trick, its winner and points, a failed throw) and says why it reached the goal or not.
"""

from collections.abc import Callable

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine

from .lesson import Lesson
from .outcome import Outcome, Verdict, cards_label, our_team_won, sentences, throw_story, trick_story
from .positions import Position

RIGHT, PARTNER, LEFT = 1, 2, 3


def _points_check(outcome: Outcome) -> Verdict:
    trick = outcome.trick
    assert trick is not None
    mine = outcome.learner_cards(trick)
    given = engine.points(mine)
    if our_team_won(trick) and given >= 10:
        return Verdict(
            True,
            _(
                "Right: your %(card)s adds %(points)s points to your partner's trick. A 5 is worth 5 points, "
                "a 10 or a K is worth 10, every other card nothing: 200 points in the whole pack."
            )
            % {"card": cards_label(mine), "points": given},
        )
    return Verdict(
        False,
        _("Your %(card)s is worth %(points)s points. Your partner was winning: the ♠K would have given your team 10.")
        % {"card": cards_label(mine), "points": given},
    )


def _win_check(right: Promise, short: Promise) -> Callable[[Outcome], Verdict]:
    """A check for "win this trick": `right` explains the win ({cards}: the learner's
    cards), `short` is the lesson's hint after the engine's account of the trick."""

    def check(outcome: Outcome) -> Verdict:
        trick = outcome.trick
        assert trick is not None
        mine = cards_label(outcome.learner_cards(trick))
        if our_team_won(trick):
            return Verdict(True, str(right) % {"cards": mine})
        return Verdict(False, sentences(trick_story(outcome, trick), str(short) % {"cards": mine}))

    return check


def _follow_check(outcome: Outcome) -> Verdict:
    trick = outcome.trick
    assert trick is not None
    mine = outcome.learner_cards(trick)
    if engine.points(mine) == 0:
        return Verdict(
            True,
            _(
                "Right: you had to follow ♣, and %(cards)s gives nothing away. Only a player with no ♣ "
                "left may play a trump or another suit."
            )
            % {"cards": cards_label(mine)},
        )
    hint = _("Your %(cards)s gave them points. When you must follow and cannot win, play your lowest card.")
    return Verdict(False, sentences(trick_story(outcome, trick), hint % {"cards": cards_label(mine)}))


def _tractor_check(outcome: Outcome) -> Verdict:
    trick = outcome.trick
    assert trick is not None
    led = outcome.moves[0]
    if outcome.failed_throw:
        return Verdict(False, throw_story(outcome.failed_throw))
    if engine.shape_of(led, outcome.ctx)["shape"] != "tractor":
        not_one = _("%(cards)s is not a tractor.") % {"cards": cards_label(led)}
        return Verdict(False, sentences(not_one, trick_story(outcome, trick)))
    if not our_team_won(trick):
        return Verdict(False, trick_story(outcome, trick))
    return Verdict(
        True,
        _(
            "Right: %(cards)s is a tractor, two pairs next to each other in rank. Only a higher tractor of "
            "the same length beats it: the opponent on your right held ♠A ♠A, a pair, but no tractor."
        )
        % {"cards": cards_label(led)},
    )


def _throw_check(outcome: Outcome) -> Verdict:
    trick = outcome.trick
    assert trick is not None
    led = outcome.moves[0]
    if outcome.failed_throw:
        hint = _("Throw only what nobody can beat: here, the cards above every ♣ the others may hold.")
        return Verdict(False, sentences(throw_story(outcome.failed_throw), hint))
    if engine.shape_of(led, outcome.ctx)["shape"] != "throw":
        return Verdict(
            False,
            _("%(cards)s is one single, pair or tractor, not a throw: lead several of them at once.")
            % {"cards": cards_label(led)},
        )
    return Verdict(
        True,
        _(
            "Right: every part of %(cards)s stands, since nobody else can hold a higher ♣ pair or single. "
            "A throw must be unbeatable in every part, or it fails and costs points."
        )
        % {"cards": cards_label(led)},
    )


LESSONS = (
    Lesson(
        slug="cards-and-points",
        title=gettext_lazy("Cards and points"),
        goal=gettext_lazy("Your partner is winning this trick with ♠A. Give your team as many points as you can."),
        intro=gettext_lazy(
            "Double Up is played by two teams of two, with two packs of cards and four jokers. "
            "Your partner sits opposite you. Only three kinds of card score: every 5 is worth 5 points, "
            "every 10 and every K 10 points. The team that wins a trick takes its points."
        ),
        rule="1.2",
        action="play",
        position=Position(
            level="7",
            trump="H",
            dealer=RIGHT,
            hands=("SK S8 S5 S3 H9 CQ", "CA CJ D6 D8 H10", "DA DK C9 C6 HJ", "DQ DJ C8 C7 H8"),
            trick=((RIGHT, "S4"), (PARTNER, "SA"), (LEFT, "S9")),
        ),
        check=_points_check,
        showcase=(gettext_lazy("The point cards"), "S5 H10 DK"),
    ),
    Lesson(
        slug="trumps",
        title=gettext_lazy("Trumps and their order"),
        goal=gettext_lazy("Trumps were led. Win this trick."),
        intro=gettext_lazy(
            "Each hand has a level rank (here 7) and usually a trump suit (here ♥). Trumps are the jokers, "
            "every level card (every 7), every 2, and every card of the trump suit. A trump beats any card "
            "of another suit. Trumps are marked with a gold band."
        ),
        rule="2.3",
        action="play",
        position=Position(
            level="7",
            trump="H",
            dealer=RIGHT,
            hands=("D7 S2 HQ H4 CA C5", "SA SQ D10 C9 C8", "S9 S8 D8 C6 C4", "SK SJ D9 DJ CJ"),
            trick=((RIGHT, "HK"), (PARTNER, "H3"), (LEFT, "HA")),
        ),
        check=_win_check(
            gettext_lazy(
                "Right: %(cards)s is a trump above the ♥A. From the top: big joker, small joker, ♥7, the "
                "other 7s, ♥2, the other 2s, then ♥A, ♥K and down."
            ),
            gettext_lazy("Your %(cards)s is lower than ♥A. The 7s and 2s are trumps too, and rank above the ace."),
        ),
        showcase=(gettext_lazy("Trumps, highest first"), "HA H2 S7 BJK H7 SJK S2 HK HQ"),
    ),
    Lesson(
        slug="following-suit",
        title=gettext_lazy("Following suit"),
        goal=gettext_lazy("The opponents are winning this ♣ trick. Follow suit and give them no points."),
        intro=gettext_lazy(
            "Whoever leads a trick sets its suit. Every other player must play a card of that suit while "
            "they hold one. Only a player with none left may play a trump or any other card."
        ),
        rule="5.4",
        action="play",
        position=Position(
            level="7",
            trump="H",
            dealer=PARTNER,
            hands=("C10 C4 H9 H5 SK D3", "SA SQ D10 D8 D6", "S9 S8 D9 DJ H3", "SJ S6 DQ DK H4"),
            trick=((RIGHT, "CK"), (PARTNER, "C8"), (LEFT, "CA")),
        ),
        check=_follow_check,
    ),
    Lesson(
        slug="pairs",
        title=gettext_lazy("Pairs"),
        goal=gettext_lazy("The opponent on your right led a pair, ♦Q ♦Q. Beat it."),
        intro=gettext_lazy(
            "A pair is two identical cards, such as ♦K ♦K. When a pair is led, whoever holds a pair in that "
            "suit must play one. A pair is only beaten by a higher pair: two different cards never beat it."
        ),
        rule="5.1",
        action="play",
        position=Position(
            level="7",
            trump="H",
            dealer=RIGHT,
            hands=("DK DK D4 D4 D9 S6 S8", "SA SK C9 C8 H10", "S9 C6 C4 CJ HJ", "SJ SQ C3 CQ H8"),
            trick=((RIGHT, "DQ DQ"), (PARTNER, "D5 D3"), (LEFT, "D9 D8")),
        ),
        check=_win_check(
            gettext_lazy(
                "Right: %(cards)s is a pair higher than ♦Q ♦Q, so it wins, with your partner's 5 points and "
                "your kings' 20."
            ),
            gettext_lazy("Only a higher pair beats a pair, and %(cards)s is not one."),
        ),
    ),
    Lesson(
        slug="tractors",
        title=gettext_lazy("Tractors"),
        goal=gettext_lazy("You lead. Lead a tractor and win the trick with it."),
        intro=gettext_lazy(
            "A tractor is two or more pairs of one suit next to each other in rank, such as ♠Q ♠Q ♠J ♠J. "
            "Level cards and 2s are trumps, so they are left out of a suit: with 7 as the level, ♠8 ♠8 ♠6 ♠6 "
            "is a tractor too. Only a higher tractor of the same length beats a tractor."
        ),
        rule="5.1",
        action="play",
        position=Position(
            level="7",
            trump="H",
            dealer=LEFT,
            hands=(
                "SQ SQ SJ SJ S5 S3 CK",
                "SA SA SK S4 D6 D8 C5",
                "S10 S8 S6 DK DJ C9 C8",
                "S9 S9 S6 S4 D9 CJ C6",
            ),
            replies={RIGHT: ("SA", "SA SA", "SA SA SK S4")},
        ),
        check=_tractor_check,
    ),
    Lesson(
        slug="winning-tricks",
        title=gettext_lazy("Who wins a trick: ruffing"),
        goal=gettext_lazy("You have no ♥ left. Win this trick, with the ♥K your partner will add."),
        intro=gettext_lazy(
            "A trick goes to the highest card of the suit led, unless someone plays a trump. With no card of "
            "the led suit left, you may ruff: play a trump, which beats every card of that suit. A higher "
            "trump beats a lower one. A card of another suit (a discard) never wins. Here ♠ is trump."
        ),
        rule="5.5",
        action="play",
        position=Position(
            level="5",
            trump="S",
            dealer=LEFT,
            hands=("S3 SJ C4 C9 D6", "S10 DQ D8 CJ C6", "HK H4 D9 C8 C7", "HQ D10 DJ CQ"),
            trick=((LEFT, "HA"),),
            replies={RIGHT: ("S10",), PARTNER: ("HK",)},
        ),
        check=_win_check(
            gettext_lazy(
                "Right: with no ♥ left you ruffed, and your %(cards)s was high enough: the opponent on your right "
                "could only ruff lower, with ♠10."
            ),
            gettext_lazy(
                "%(cards)s could not hold the trick: ruff with a trump so high that nobody after you can beat it."
            ),
        ),
    ),
    Lesson(
        slug="throws",
        title=gettext_lazy("Leading a throw, and when it fails"),
        goal=gettext_lazy("You lead. Throw several ♣ cards at once, so that none of them can be beaten."),
        intro=gettext_lazy(
            "A throw leads several singles, pairs or tractors of one suit together. It stands only if no other "
            "player holds a higher card of the same kind for any part of it. If one part can be beaten, the "
            "throw fails: you lead only that part, and pay 10 points for each card that could be beaten."
        ),
        rule="5.3",
        action="play",
        position=Position(
            level="7",
            trump="H",
            dealer=PARTNER,
            hands=(
                "CA CA CK CJ D4 D6",
                "CQ C9 DK D8 S5 S3",
                "C10 C8 DQ DJ SJ S9",
                "C6 C3 D10 D9 SQ S8",
            ),
            replies={RIGHT: ("CQ", "CQ C9 S3")},
        ),
        check=_throw_check,
    ),
)
