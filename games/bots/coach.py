"""The coach: the evaluator's choice for one seat in one position (pure: no Django).

The Hint button of casual tables (games/web/table_questions.py, thought out in a worker
process by games/runtime/thinking.py) and the hand analysis (games/analysis/decisions.py) both ask
`options` with the same level, budget and seed rule. The evaluator counts its effort
instead of timing it (games/bots/expert.py), so for the same Observation they get the same
numbers: a player who plays the hinted cards plays the analysis's own suggestion, and
loses nothing by it (docs/analysis.md, "Hint and the analysis").

The seed of a decision is public: the hand's id (in every replay's address) and the
decision's place in the hand, read from the Observation. Never the deck's seed, which
would tell the whole deal.
"""

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games import bots
from games.bots import play_facts
from games.bots.observation import Observation

Option = tuple[list[str], float]
Evaluate = Callable[..., list[Option]]


def hand_seed(hand_id: int) -> str:
    """The seed every decision of the hand derives from (HandAnalysis.seed)."""
    return f"hand:{hand_id}"


def decision_seed(seed: str, obs: Observation) -> str:
    """The generator's seed for the decision `obs` shows: one per bury, one per place in a
    trick (tricks finished, cards already in the current one). Each is made once a hand."""
    if obs.phase == "bury":
        return f"{seed}:bury"
    return f"{seed}:{len(obs.tricks)}.{len(obs.trick)}"


def options(
    obs: Observation,
    *,
    level: str,
    budget: float,
    seed: str,
    include: list[str] | None = None,
    evaluate: Evaluate = bots.evaluate_options,
) -> list[Option]:
    """The evaluator's candidates for `obs.seat` with its side's expected card points at
    the end of the hand, best first (games.bots.evaluate_options); `include` is evaluated too."""
    rng = random.Random(decision_seed(seed, obs))
    return evaluate(obs, level, rng=rng, budget=budget, include=include)


@dataclass(frozen=True)
class CoachQuestion:
    """What a worker needs to answer a Hint: the seat's Observation only (RULES §9)."""

    obs: Observation
    level: str
    budget: float
    seed: str  # hand_seed of the hand being played


@dataclass(frozen=True)
class Advice:
    cards: list[str]
    facts: dict[str, Any]  # play_facts.facts: what the page's "Why?" says, in words later


def advise(q: CoachQuestion) -> Advice:
    """The hint: the evaluator's best option, with the facts that explain it."""
    found = options(q.obs, level=q.level, budget=q.budget, seed=q.seed)
    cards = list(found[0][0])
    return Advice(cards, play_facts.facts(q.obs, cards, found))
