"""The guided hand: one whole first hand from a fixed deck, the learner at seat 0 against
bots, with a one-line tip at each of the learner's turns.

Every step goes through the engine: the deal, the declarations (the learner's, then the
bots'), the fixing of trump, the bury and every trick. The learner declares (or passes)
once the cards are dealt; a bot's override gives them one more say while they still hold
a stronger declaration. The opponents are the novice bot (the beginner's level) where this
build has it, the partner is the basic bot. Tips read the engine too: the legal
declarations, the forced play, who is winning the trick, and the basic bot's choice.
"""

import random
from typing import Any

from django.utils.translation import gettext as _

from games import bots, engine
from games.engine.errors import rule_refusal

from .outcome import cards_label
from .positions import LEARNER

# A deal in which the learner holds a pair of 2s of a long suit: they can declare, deal
# and bury, and the whole hand is played (tests/lessons/test_lessons.py plays it through).
SEED = "guided-hand-31"
PARTNER_LEVEL = "basic"
ADVISER = "basic"  # whose choice the tips suggest

Events = list[dict[str, Any]]


def opponent_level() -> str:
    """The novice bot when this build has it, else the basic bot."""
    return "novice" if "novice" in bots.LEVELS else "basic"


def level_of(seat: int) -> str:
    return PARTNER_LEVEL if seat == engine.partner_of(LEARNER) else opponent_level()


def start() -> engine.Game:
    """The hand dealt out, the learner to declare or pass (the last chance to declare)."""
    game = engine.Game.new()
    engine.apply(game, {"type": "start_hand", "seed": SEED})
    engine.apply(game, {"type": "deal", "upto": engine.DEALT_CARDS})
    return game


def is_over(game: engine.Game) -> bool:
    return game.phase in ("scored", "finished")


def act(game: engine.Game, action: dict[str, Any]) -> tuple[engine.Game, Events]:
    """The learner's move (declare, pass, bury or play) and everything the bots do after
    it, up to the learner's next turn. Raises Refusal, changing nothing, for a move the
    engine refuses."""
    if action["type"] == "pass":
        if game.phase != "last_chance":
            raise rule_refusal("wrong_phase", phase=game.phase)
        events: Events = []
    else:
        game, events = engine.step(game, action)
    if game.phase == "last_chance":
        game, more = _bots_declare(game)
        events += more
        if any(e["type"] == "declared" for e in more) and engine.legal_declarations(game, LEARNER):
            return game, events  # overridden: the learner may answer
        game, more = engine.step(game, {"type": "fix_trump"})
        events += more
    game, more = advance(game)
    return game, events + more


def _bots_declare(game: engine.Game) -> tuple[engine.Game, Events]:
    events: Events = []
    for seat in (1, 2, 3):
        action = bots.declaration(game=game, seat=seat, level=level_of(seat))
        if action is not None:
            try:
                game, more = engine.step(game, action)
            except engine.Refusal:
                continue
            events += more
    return game, events


def advance(game: engine.Game) -> tuple[engine.Game, Events]:
    """The bots' bury and plays until the learner has a move to make or the hand is over."""
    events: Events = []
    while not is_over(game) and game.phase != "last_chance":
        seat = game.dealer if game.phase == "bury" else game.turn
        assert seat is not None
        if seat == LEARNER:
            break
        game, more = bot_move(game, seat, level_of(seat))
        events += more
    return game, events


def bot_move(game: engine.Game, seat: int, level: str) -> tuple[engine.Game, Events]:
    """A bot's bury or play through the engine; should a bot ever choose an illegal move,
    the engine's random legal play stands in for it (as at a live table)."""
    action = bots.decide(bots.observe(game, seat), level)
    try:
        return engine.step(game, action)
    except engine.Refusal:
        rng = random.Random(f"{seat}:{len(game.tricks or [])}")
        return engine.step(game, {"type": "play", "seat": seat, "cards": engine.sample_play(game, seat, rng)})


def advice(game: engine.Game) -> list[str] | None:
    """The cards the tip suggests now, the basic bot's choice from the learner's seat: a
    declaration (None: pass), the 8 cards to bury or the play; None when it is not the
    learner's move."""
    observation = bots.observe(game, LEARNER)
    if game.phase == "last_chance":
        return bots.decide_declaration(observation, ADVISER) if observation.can_declare else None
    if (game.phase == "bury" and game.dealer == LEARNER) or (game.phase == "play" and game.turn == LEARNER):
        return list(bots.decide(observation, ADVISER)["cards"])
    return None


def tip(game: engine.Game) -> str:
    """One line of advice for the learner's turn, from what their seat may see."""
    if game.phase == "last_chance":
        return _declaring_tip(game)
    if game.phase == "bury":
        return _(
            "Tip: bury low cards of your shortest side suits; keep trumps and point cards (5, 10, K) out of the kitty."
        )
    cards = advice(game)
    if cards is None:
        return ""
    if engine.forced_play(game, LEARNER) is not None:
        return _("Tip: %(cards)s is your only legal play.") % {"cards": cards_label(cards)}
    said = {"cards": cards_label(cards)}
    trick = game.trick or []
    if not trick:
        return (
            _(
                "Tip: you lead. An ace, a pair or a tractor of a side suit is hard to beat; the basic bot would lead %(cards)s."
            )
            % said
        )
    ctx = game.play_context()
    if engine.trick_winner(trick, ctx) == engine.partner_of(LEARNER):
        return (
            _(
                "Tip: your partner is winning this trick: give them points (a 5, 10 or K) if you can; the basic bot would play %(cards)s."
            )
            % said
        )
    led = ctx.cls[trick[0][1][0]]
    if not any(ctx.cls[c] == led for c in (game.hands or [[]])[LEARNER]):
        return (
            _(
                "Tip: you have none of the led suit: ruff with a trump to win it, or throw away a low card; the basic bot would play %(cards)s."
            )
            % said
        )
    return (
        _("Tip: follow the led suit; win the trick if you can, else play low. The basic bot would play %(cards)s.")
        % said
    )


def _declaring_tip(game: engine.Game) -> str:
    options = engine.legal_declarations(game, LEARNER)
    if not options:
        return _("Tip: you have no stronger declaration to make: pass.")
    cards = advice(game)
    if cards:
        return _("Tip: declare %(cards)s: that suit becomes trump, and in the first hand the declarer deals.") % {
            "cards": cards_label(cards)
        }
    return _("Tip: you could declare %(cards)s, but you hold few cards of that suit: passing is wiser.") % {
        "cards": cards_label(options[0])
    }
