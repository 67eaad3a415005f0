"""The decisions of a hand's log and their evaluation (pure: no Django, no database).

`hand_decisions` folds the match's engine actions up to the hand (games/engine/log.py
`fold`), then steps through the hand's own actions; before each bury or play a person
made (log source "player": never a bot's, nor the stand-in's of a player who timed out),
it builds that seat's `Observation` of the game at that moment (games.bots.observe: its
own view and the public trick history, never another hand, the deck or a kitty it did
not hold) and asks the coach (games/bots/coach.py `options`: the evaluator the Hint button asks too,
with the same seed rule) for the bot's options and their expected points, the play made
included. Each decision's generator is seeded by the analysis seed and the decision's place
in the hand, so an analysis is the same every time it runs, and a play the Hint suggested
is the analysis's own suggestion.
"""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games import bots, engine
from games.bots import coach

MISTAKE_POINTS = 5.0  # losing this many expected points or more is a mistake (one 5 card)
Evaluate = Callable[..., list[tuple[list[str], float]]]


@dataclass(frozen=True)
class LoggedAction:
    seq: int  # the TableEvent's seq
    source: str  # who acted: "player", "bot", "clock", ...
    action: dict[str, Any]


@dataclass(frozen=True)
class DecisionResult:
    seat: int
    index: int  # into the hand's engine actions
    seq: int
    kind: str  # bury, lead, follow
    played: list[str]
    played_points: float
    suggested: list[str]
    suggested_points: float
    lost: float
    options: int


def _key(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards))


def evaluate_decision(
    game: engine.Game,
    action: dict[str, Any],
    *,
    index: int,
    seq: int,
    seed: str,
    level: str,
    budget: float,
    evaluate: Evaluate = bots.evaluate_options,
) -> DecisionResult:
    """The analysis of `action` (a bury or play of `action["seat"]`) about to be applied to
    `game`: everything it reads of `game` goes through the seat's Observation."""
    seat = action["seat"]
    obs = bots.observe(game, seat)
    played = list(action["cards"])
    options = coach.options(obs, level=level, budget=budget, seed=seed, include=played, evaluate=evaluate)
    mine = next(points for cards, points in options if _key(cards) == _key(played))
    suggested, best = options[0]
    kind = "bury" if obs.phase == "bury" else "follow" if obs.trick else "lead"
    return DecisionResult(
        seat=seat,
        index=index,
        seq=seq,
        kind=kind,
        played=played,
        played_points=round(mine, 2),
        suggested=list(suggested),
        suggested_points=round(best, 2),
        lost=round(max(best - mine, 0.0), 2),
        options=len(options),
    )


def hand_decisions(
    before: Sequence[dict[str, Any]],
    own: Sequence[LoggedAction],
    *,
    rules: engine.Rules,
    seed: str,
    level: str,
    budget: float,
    evaluate: Evaluate = bots.evaluate_options,
) -> list[DecisionResult]:
    """Every person's bury and play of the hand whose actions are `own` (see the module doc)."""
    game = engine.fold(before, rules)
    out = []
    for index, logged in enumerate(own):
        action = logged.action
        if logged.source == "player" and action.get("type") in ("bury", "play"):
            out.append(
                evaluate_decision(
                    game, action, index=index, seq=logged.seq, seed=seed, level=level, budget=budget, evaluate=evaluate
                )
            )
        engine.apply_logged(game, action)
    return out


def seat_summary(decisions: Iterable[DecisionResult]) -> dict[str, dict[str, float]]:
    """Per seat: decisions with a choice, points lost in all, and accuracy — the share (%) of
    those decisions that lost less than MISTAKE_POINTS. A forced play is no decision."""
    out: dict[str, dict[str, float]] = {}
    for d in decisions:
        row = out.setdefault(str(d.seat), {"decisions": 0, "good": 0, "lost": 0.0})
        if d.options > 1:
            row["decisions"] += 1
            row["good"] += d.lost < MISTAKE_POINTS
            row["lost"] = round(row["lost"] + d.lost, 2)
    for row in out.values():
        row["accuracy"] = round(100 * row["good"] / row["decisions"], 1) if row["decisions"] else 100.0
    return out
