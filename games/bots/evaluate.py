"""Expected points of candidate plays from one seat's view, for the replay analysis
(docs/analysis.md): the "strong" level's evaluator behind `games.bots.evaluate_options`.

Candidates are the basic bot's best plays (or burys), plus the play actually made. Each
is played out to the end of the hand on the same sampled worlds (strong.sample_world:
the unseen cards dealt consistently with the observation) with basic policies for all
four seats, through the engine's `Playout`. A candidate's value is the card points the
seat's own side holds at the end of the hand (`side_points`), averaged over the worlds.

Deterministic: the number of worlds comes from the budget (`worlds_for`), never from the
clock, so the same observation and generator give the same numbers on any machine and
at any load.
"""

import random
from collections.abc import Sequence

from games import engine

from . import basic, strong
from .knowledge import Knowledge
from .observation import Observation

Option = tuple[list[str], float]

CANDIDATES = 4  # the basic bot's best plays considered, besides the one made
# A budget of one second buys this many playouts (the rest of a hand with basic policies
# for all four seats; bench/bot_decisions.py times them). The count is fixed, so results
# do not depend on the machine's load.
PLAYOUTS_PER_SECOND = 120
MIN_WORLDS, MAX_WORLDS = 4, 200
TOTAL_POINTS = engine.points(engine.full_deck())  # 200 with two decks (RULES §1.2)


def worlds_for(budget: float, candidates: int) -> int:
    """Worlds to sample for `candidates` options within `budget` seconds (reference speed);
    a lone (forced) option needs only a few, for its expected points."""
    if candidates <= 1:
        return MIN_WORLDS
    return max(MIN_WORLDS, min(MAX_WORLDS, round(budget * PLAYOUTS_PER_SECOND / max(candidates, 1))))


def side_points(playout: engine.Playout, seat: int) -> float:
    """The card points `seat`'s side holds once `playout` is over. Defenders: their score
    (trick points, the kitty bonus when they took the last trick, penalties: RULES §6,
    §7.1). The dealer's side: the points of the tricks it won, the kitty's points when it
    took the last trick (the kitty stays with it), minus the penalties in the defenders'
    favour (§5.3)."""
    assert playout.score is not None  # finished
    dealer = playout.dealer
    if engine.is_defender(seat, dealer):
        return float(playout.score)
    kitty = engine.points(playout.buried)
    won = TOTAL_POINTS - kitty - playout.defender_points
    if not engine.is_defender(playout.turn, dealer):  # `turn` is the last trick's winner
        won += kitty
    return float(won - playout.penalties)


def _key(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards))


def candidates(obs: Observation, k: Knowledge, include: Sequence[str] | None) -> list[list[str]]:
    """The basic bot's best options (its own choice first), and `include` if it is not one."""
    if obs.phase == "bury":
        cands: list[list[str]] = []
        for _, cards in basic.bury_options(obs):
            if all(_key(cards) != _key(c) for c in cands):
                cands.append(list(cards))
            if len(cands) == CANDIDATES:
                break
    else:
        cands = strong.candidate_plays(k, CANDIDATES)
    if include is not None and all(_key(include) != _key(c) for c in cands):
        cands.append(list(include))
    return cands


def strong_options(
    obs: Observation, *, rng: random.Random, budget: float, include: Sequence[str] | None = None
) -> list[Option]:
    """[(cards, expected points of the seat's side)] best first (see the module doc)."""
    if obs.phase not in ("bury", "play"):
        raise ValueError(f"nothing to evaluate in phase {obs.phase!r}")
    k = Knowledge.from_observation(obs)
    k.kitty_points = basic.kitty_estimate(obs, k)
    cands = candidates(obs, k, include)
    search = strong.Search(obs, k, cands, rng, lambda r, cards: 0.0)  # its world sampler only
    totals = [0.0] * len(cands)
    worlds = 0
    for _ in range(worlds_for(budget, len(cands))):
        world = search.world()
        if world is None:
            break
        rollout = strong.Rollout(obs, k, world)
        for i, cards in enumerate(cands):
            playout = rollout.finish(None, bury=cards) if obs.phase == "bury" else rollout.finish(cards)
            totals[i] += side_points(playout, obs.seat)
        worlds += 1
    means = [t / max(worlds, 1) for t in totals]
    order = sorted(range(len(cands)), key=lambda i: (-means[i], i))  # ties: the basic order
    return [(cands[i], means[i]) for i in order]
