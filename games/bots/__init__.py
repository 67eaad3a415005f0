"""Bots that fill seats (see docs/bots.md).

Honest by construction: `choose` and `declaration` turn the Game into the seat's
Observation (games/bots/observation.py) and every policy decides from that alone.

- `decide(obs, level, rng=None) -> action dict` for the bury and play phases;
- `decide_declaration(obs, level) -> cards | None` at any point of the deal;
- `evaluate_options(obs, level, rng=, budget=, include=)`: every reasonable play or bury
  with the card points its side is expected to end the hand with (replay analysis);
- levels: "random" (uniform legal play, never declares), "novice" (a beginner's habits),
  "basic", "strong", "expert";
- `coach.py`, `play_facts.py`: the evaluator's choice for one seat and what that play does,
  asked by the Hint button (games/runtime/thinking.py) and the hand analysis alike.
"""

import logging
import random
import zlib
from collections import Counter
from typing import Any, Protocol

from games import engine

from . import basic, evaluate, expert, novice, strong
from .observation import Observation, observe

LEVELS = ("random", "novice", "basic", "strong", "expert")  # weakest first
Action = dict[str, Any]  # an engine action: {"type", "seat", "cards"}


class TableStamp(Protocol):
    """What `choose` reads of a table (games.models.Table): its id and version."""

    @property
    def pk(self) -> object: ...

    @property
    def version(self) -> object: ...


logger = logging.getLogger(__name__)

__all__ = [
    "LEVELS",
    "Observation",
    "choose",
    "decide",
    "decide_declaration",
    "declaration",
    "evaluate_options",
    "observe",
]
EVALUATORS = ("strong", "expert")  # levels that `evaluate_options` knows


def obs_rng(obs: Observation) -> random.Random:
    """A generator seeded from the observation only (same view, same decision)."""
    return random.Random(zlib.crc32(repr(obs).encode()))


def random_decide(obs: Observation, rng: random.Random) -> Action:
    if obs.phase == "bury":
        return {"type": "bury", "seat": obs.seat, "cards": rng.sample(list(obs.hand), engine.KITTY_SIZE)}
    cards = engine.sample_hand_play(
        hand=list(obs.hand), trick=[(s, list(c)) for s, c in obs.trick], ctx=obs.ctx, rng=rng
    )
    return {"type": "play", "seat": obs.seat, "cards": cards}


def decide(obs: Observation, level: str = "basic", rng: random.Random | None = None, **options: Any) -> Action:
    """The action (bury or play) of a `level` bot seeing `obs`."""
    rng = rng or obs_rng(obs)
    if level == "random":
        return random_decide(obs, rng)
    if level == "novice":
        return novice.decide(obs, rng)
    if level == "strong":
        return strong.decide(obs, rng, **options)
    if level == "expert":
        return expert.decide(obs, rng, **options)
    return basic.decide(obs)


def evaluate_options(
    obs: Observation,
    level: str = "expert",
    *,
    rng: random.Random,
    budget: float,
    include: list[str] | None = None,
) -> list[tuple[list[str], float]]:
    """For a play or bury decision of `obs.seat`: each candidate's cards with the card
    points its own side is expected to have won by the end of the hand (kitty bonus
    included, RULES §6/§7), best first. The candidates hold the basic bot's best plays
    and `include` (the play actually made, say). `budget`: seconds of search, counted as
    work, so the answer depends on the rng's seed only."""
    if obs.phase not in ("bury", "play"):
        raise ValueError(f"no play or bury to evaluate in phase {obs.phase!r}")
    if level == "expert":
        return expert.evaluate_options(obs, rng=rng, budget=budget, include=include)
    if level == "strong":
        return evaluate.strong_options(obs, rng=rng, budget=budget, include=include)
    raise ValueError(f"no evaluator for level {level!r} (known: {', '.join(EVALUATORS)})")


def decide_declaration(obs: Observation, level: str = "basic") -> list[str] | None:
    """Cards to declare now, or None (the random bot never declares)."""
    if level == "random":
        return None
    if level == "novice":
        return novice.decide_declaration(obs)
    return basic.decide_declaration(obs)


def choose(*, table: TableStamp, game: engine.Game, seat: int, level: str) -> Action | None:
    """The server's entry point (games/runtime/writer.py `_bot_move`): the bot's action for
    `seat` in the bury or play phase. In the deal phases it returns a declare action,
    or None when the bot does not declare now."""
    obs = observe(game, seat)
    if obs.phase in ("deal", "last_chance"):
        return declaration(game=game, seat=seat, level=level)
    rng = random.Random(f"{table.pk}:{table.version}:{seat}")
    try:
        action = decide(obs, level, rng)
        if is_legal(obs, action):
            return action
        logger.error("bot %s chose an illegal action %s", level, action)
    except Exception:  # a bot must never stall a live table
        logger.exception("bot %s failed at seat %s", level, seat)
    return random_decide(obs, rng)


def is_legal(obs: Observation, action: Action) -> bool:
    """Legality of a bury or play judged from the observation alone (RULES §4, §5)."""
    cards = action.get("cards") or []
    if action.get("seat") != obs.seat or Counter(cards) - Counter(obs.hand):
        return False
    if obs.phase == "bury":
        return action["type"] == "bury" and len(cards) == engine.KITTY_SIZE
    if action["type"] != "play" or obs.turn != obs.seat:
        return False
    ctx = obs.ctx
    if not obs.trick:
        return engine.lead_refusal(list(obs.hand), cards, ctx) is None
    return engine.is_legal_follow(list(obs.trick[0][1]), list(obs.hand), cards, ctx)[0]


def declaration(*, game: engine.Game, seat: int, level: str) -> Action | None:
    """A declare action for `seat` now, or None (call it during the deal, see docs)."""
    obs = observe(game, seat)
    cards = decide_declaration(obs, level)
    if not cards:
        return None
    return {"type": "declare", "seat": seat, "cards": list(cards)}
