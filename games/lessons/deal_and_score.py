"""Lessons 8–12: declaring, the bury, the last trick and the kitty bonus, the score, and a
whole guided hand. The checks read the engine's state after the move: the standing
declaration, the buried cards, and the hand's result (kitty multiplier, score, levels)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import engine

from .lesson import Lesson
from .outcome import Outcome, Verdict, cards_label, result_story, sentences
from .positions import LEARNER, Position

RIGHT, PARTNER, LEFT = 1, 2, 3


def _declare_check(outcome: Outcome) -> Verdict:
    standing = outcome.game.standing
    if standing and standing["seat"] == LEARNER and standing["trump"] == "S":
        return Verdict(
            True,
            _(
                "Right: two identical level cards outrank one, so your %(cards)s overrides the ♦ declaration. "
                "♠ is the trump suit now, and in the first hand whoever's declaration stands is the dealer."
            )
            % {"cards": cards_label(standing["cards"])},
        )
    return Verdict(False, _("That declaration stands, but it does not make ♠ trump."))


def _bury_check(outcome: Outcome) -> Verdict:
    buried = outcome.moves[-1]
    ctx = outcome.ctx
    trumps = [c for c in buried if ctx.is_trump(c)]
    scoring = [c for c in buried if engine.points([c])]
    if trumps:
        return Verdict(
            False,
            _("%(cards)s: trumps win tricks, keep them in your hand. Bury cards of the side suits.")
            % {"cards": cards_label(trumps)},
        )
    if scoring:
        return Verdict(
            False,
            _(
                "%(cards)s: %(points)s points. If the defenders win the last trick, the points in the kitty "
                "count for them, doubled or more."
            )
            % {"cards": cards_label(scoring), "points": engine.points(scoring)},
        )
    return Verdict(
        True,
        _("Right: no trump thrown away, and no point for the defenders to win back from the kitty."),
    )


def _kitty_check(outcome: Outcome) -> Verdict:
    result = outcome.result
    assert result is not None
    story = result_story(result)
    if result["kitty_multiplier"] >= 4:
        right = _(
            "Right: you took the last trick with a pair, so the kitty's %(points)s points counted ×%(times)s. "
            "A single counts ×2, a pair ×4, a tractor of two pairs ×16."
        ) % {"points": result["kitty_points"], "times": result["kitty_multiplier"]}
        return Verdict(True, sentences(right, story))
    if result["kitty_multiplier"]:
        hint = _("You took the last trick with a single: ×2 only. Keep your pair for the last trick: ×4.")
    else:
        hint = _(
            "The dealer's side took the last trick, so the kitty counted for nobody: a single ♣A can be ruffed, "
            "a pair only by a pair of trumps."
        )
    return Verdict(False, sentences(hint, story))


def _score_check(outcome: Outcome) -> Verdict:
    result = outcome.result
    assert result is not None
    change = result["level_change"]
    story = result_story(result)
    if change["team"] == engine.team_of(LEARNER) and change["levels"] >= 2:
        return Verdict(True, sentences(_("Right: under 40 is worth two levels to the dealer team."), story))
    hint = _("Under 40 would have been worth two levels: win the 15 points on the table.")
    return Verdict(False, sentences(story, hint))


LESSONS = (
    Lesson(
        slug="declaring",
        title=gettext_lazy("Declaring trump during the deal"),
        goal=gettext_lazy("The opponent on your right declared ♦ with one ♦2. Override it and make ♠ trump."),
        intro=gettext_lazy(
            "While the cards are dealt, anyone may declare the trump suit by showing level cards; in the first "
            "hand the level is 2. One level card declares its suit; two identical ones are stronger, and a pair "
            "of jokers declares no trump. A declaration must be stronger than the one standing."
        ),
        rule="3.2",
        action="declare",
        until="action",
        position=Position(
            level="2",
            trump=None,
            dealer=None,
            phase="deal",
            hands=(
                "S2 S2 H2 SJK SA SK S10 S9 C3 C6",
                "D9 C10 CJ HQ H9 S4 S5 D3 D5",
                "DA DK HA H8 C8 C9 S6 S7 D6 D8",
                "SQ SJ HK H10 CA CK D10 DJ DQ H4",
            ),
            declared=((RIGHT, "D2"),),
        ),
        check=_declare_check,
    ),
    Lesson(
        slug="burying",
        title=gettext_lazy("Burying the kitty"),
        goal=gettext_lazy("You are the dealer. Bury 8 cards: no trumps and no point cards."),
        intro=gettext_lazy(
            "After the deal the dealer picks up the 8 cards of the kitty (marked with a bar here) and buries "
            "8 cards face down in their place. Nobody else sees them until the hand is over. If the defenders "
            "win the last trick, the points buried count for them, doubled or more."
        ),
        rule="4.1",
        action="bury",
        until="action",
        position=Position(
            level="7",
            trump="H",
            dealer=LEARNER,
            phase="bury",
            hands=(
                "HA HK SJK S7 H2 DK C10 C5 S5 C3 C4 C6 C8 C9 D3 D4 D6",
                "SA SQ SJ D9 D10 CJ CQ H9 H8",
                "SK S9 S8 DJ DQ CK H10 H6 HJ",
                "S10 S6 S4 DA D8 CA C7 H5 HQ",
            ),
            kitty="C3 C4 DK C10 D3 H2 C8 D6",
        ),
        check=_bury_check,
    ),
    Lesson(
        slug="kitty-bonus",
        title=gettext_lazy("The last trick and the kitty bonus"),
        goal=gettext_lazy("Two tricks are left and you lead. Take the last trick with the biggest kitty bonus."),
        intro=gettext_lazy(
            "If the defenders win the last trick of a hand, the points buried in the kitty count for them, "
            "multiplied: ×2 when the last trick was led with a single, ×4 with a pair, ×16 with a tractor of "
            "two pairs. Here you defend, and the dealer buried 25 points."
        ),
        rule="6.1",
        action="play",
        until="hand",
        position=Position(
            level="7",
            trump="H",
            dealer=RIGHT,
            hands=("CA CA", "H3 D9", "S8 S9", "DJ S6"),
            buried="DK D10 C5 S3 S4 D3 D4 C3",
            defender_points=60,
            replies={RIGHT: ("H3", "H3 D9", "D9"), LEFT: ("S6", "DJ")},
        ),
        check=_kitty_check,
    ),
    Lesson(
        slug="scoring",
        title=gettext_lazy("Scoring and levels"),
        goal=gettext_lazy(
            "Your team deals and the defenders have 30 points. Keep them under 40, so your team goes up two levels."
        ),
        intro=gettext_lazy(
            "After the last trick, the defenders' points decide the levels. Under 80 the dealer team keeps the "
            "deal and goes up; the fewer points, the more levels. From 80 the defenders take over the deal. "
            "Both teams start at level 2; the first to win a hand at level A wins the match."
        ),
        rule="7.2",
        action="play",
        until="hand",
        position=Position(
            level="7",
            trump="H",
            dealer=LEARNER,
            hands=("SA S4", "D6", "D8", "D9"),
            trick=((RIGHT, "S10"), (PARTNER, "S3"), (LEFT, "S5")),
            defender_points=30,
        ),
        check=_score_check,
        scale=True,
    ),
    Lesson(
        slug="guided-hand",
        title=gettext_lazy("A complete hand"),
        goal=gettext_lazy("Play a whole hand against the bots, from declaring trump to the score."),
        intro=gettext_lazy(
            "Your partner, opposite you, is a bot; so are your opponents. All the cards are dealt: declare "
            "trump if you can, bury the kitty if you deal, then play every trick. A tip at each of your turns "
            "says what a sensible player would do."
        ),
        rule="1.4",
        action="hand",
        until="hand",
    ),
)
