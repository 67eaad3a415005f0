"""What the engine made of a learner's attempt, and the words a lesson explains it with.

An `Outcome` holds the Game after the attempt and the engine's events; a lesson's check
reads it (who won the trick, its points, a failed throw, the hand's score) and answers a
`Verdict` in the reader's language. Nothing here decides a rule: every fact comes from the
engine's events and state.
"""

from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext as _

from games import engine

from .positions import LEARNER

# The seats as the learner sees them (RULES §1.1: the next player sits on your right).
SEAT_LABELS = (
    pgettext_lazy("lesson seat", "You"),
    pgettext_lazy("lesson seat", "Right opponent"),
    pgettext_lazy("lesson seat", "Partner"),
    pgettext_lazy("lesson seat", "Left opponent"),
)
# The same seats inside a sentence ("the trick went to {who}").
SEAT_PHRASES = (
    gettext_lazy("you"),
    gettext_lazy("the opponent on your right"),
    gettext_lazy("your partner"),
    gettext_lazy("the opponent on your left"),
)


@dataclass(frozen=True)
class Verdict:
    passed: bool
    text: str


@dataclass(frozen=True)
class Outcome:
    """The Game after an attempt, the engine's events on the way and the learner's moves
    (cards played, declared or buried, in order)."""

    game: engine.Game
    events: list[dict[str, Any]]
    moves: list[list[str]]

    @property
    def ctx(self) -> engine.TrumpContext:
        return self.game.play_context() if self.game.trump else self.game.ctx

    @property
    def tricks(self) -> list[dict[str, Any]]:
        """The tricks finished during the attempt, as the Game records them."""
        done = self.game.tricks or []
        return [done[e["trick_no"] - 1] for e in self.events if e["type"] == "trick_won"]

    @property
    def trick(self) -> dict[str, Any] | None:
        """The first trick finished during the attempt (the one the learner played to)."""
        tricks = self.tricks
        return tricks[0] if tricks else None

    @property
    def failed_throw(self) -> dict[str, Any] | None:
        return next((e for e in self.events if e["type"] == "throw_failed"), None)

    @property
    def result(self) -> dict[str, Any] | None:
        return next((e["result"] for e in self.events if e["type"] == "hand_scored"), None)

    def learner_cards(self, trick: dict[str, Any]) -> list[str]:
        return next(list(cs) for seat, cs in trick["plays"] if seat == LEARNER)

    def winner_cards(self, trick: dict[str, Any]) -> list[str]:
        return next(list(cs) for seat, cs in trick["plays"] if seat == trick["winner"])


def our_team_won(trick: dict[str, Any]) -> bool:
    """Whether the learner's side (the learner or their partner) took `trick`."""
    return engine.same_team(trick["winner"], LEARNER)


def card_label(code: str) -> str:
    """A card as a lesson's sentence writes it: "♠K", or the joker's name."""
    if code == "BJK":
        return _("big joker")
    if code == "SJK":
        return _("small joker")
    return engine.SUIT_SYMBOLS[code[0]] + code[1:]


def cards_label(codes: list[str]) -> str:
    return " ".join(card_label(c) for c in codes)


def sentences(*parts: str) -> str:
    """Sentences one after the other: a space between them in English, none in Chinese
    (whose full stop "。" is its own space)."""
    return ("" if (get_language() or "").startswith("zh") else " ").join(parts)


def seat_phrase(seat: int) -> str:
    return str(SEAT_PHRASES[seat])


def trick_story(outcome: Outcome, trick: dict[str, Any]) -> str:
    """Who took the trick, with what, and its points: the engine's answer in words."""
    return _("The trick went to %(who)s, with %(cards)s; it held %(points)s points.") % {
        "who": seat_phrase(trick["winner"]),
        "cards": cards_label(outcome.winner_cards(trick)),
        "points": trick["points"],
    }


def throw_story(failed: dict[str, Any]) -> str:
    """A failed throw (RULES §5.3) as the engine reported it."""
    return _(
        "Your throw failed: another player holds a higher card or combination than part of it. "
        "Only %(forced)s was led, and the throw cost a penalty of %(penalty)s points."
    ) % {"forced": cards_label(failed["forced"]), "penalty": failed["penalty"]}


def result_story(result: dict[str, Any]) -> str:
    """The hand's score and what it did to the levels (RULES §6, §7), in one or two sentences."""
    score = result["defenders_score"]
    parts = [
        _("The defenders scored %(score)s: %(tricks)s in tricks, %(bonus)s from the kitty.")
        % {"score": score, "tricks": result["trick_points"], "bonus": result["kitty_bonus"]}
    ]
    if result["penalties"]:
        parts.append(_("Throw penalties: %(penalties)+d.") % {"penalties": result["penalties"]})
    levels = result["level_change"]["levels"]
    if engine.team_of(result["dealer"]) == result["level_change"]["team"]:
        sentence = ngettext(
            "Under 80: the dealer team keeps the deal and goes up %(levels)s level.",
            "Under 80: the dealer team keeps the deal and goes up %(levels)s levels.",
            levels,
        )
    elif not levels:
        sentence = _("80 or more: the defenders take over the deal, without going up a level.")
    else:
        sentence = ngettext(
            "80 or more: the defenders take over the deal and go up %(levels)s level.",
            "80 or more: the defenders take over the deal and go up %(levels)s levels.",
            levels,
        )
    return sentences(*parts, sentence % {"levels": levels})
