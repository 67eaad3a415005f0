"""Playing hands between bot levels without the web layer (for botmatch and tests).

Declarations: after each dealt card the seat that received it may declare (its own
checkpoint), and every seat gets one more look in the last-chance window (RULES §3.4).
"""

import multiprocessing
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from games import engine

from . import decide, decide_declaration, observe


def fresh_hand(seed: str, *, dealer: int, level: str, rules: engine.Rules = engine.DEFAULT_RULES) -> engine.Game:
    """A Game under `rules` about to deal a board: the hand of `seed` at `level` for both
    teams, dealer fixed (so both runs of a duplicate deal have the same dealer seat and
    cards). The engine's start_hand with a "board", as an event's tables start theirs."""
    game = engine.Game.new(rules)
    board = {"dealer": dealer, "levels": {"0": level, "1": level}}
    engine.apply(game, {"type": "start_hand", "seed": seed, "board": board})
    return game


def _declare(game: engine.Game, seat: int, level: str) -> None:
    if level == "random" or not engine.legal_declarations(game, seat):
        return
    cards = decide_declaration(observe(game, seat), level)
    if cards:
        engine.apply(game, {"type": "declare", "seat": seat, "cards": list(cards)})


def deal_and_fix(game: engine.Game, levels: Sequence[str]) -> None:
    """Deal, let each seat's bot level declare, and fix trump (RULES §3); once more after
    a redeal (house rule no_declaration=redeal), until the dealer is to bury."""
    while game.phase == "deal":
        while game.phase == "deal":
            engine.apply(game, {"type": "deal"})
            assert game.first is not None  # set by start_hand
            receiver = engine.deal_receiver(first=game.first, index=game.dealt - 1)
            _declare(game, receiver, levels[receiver])
        for seat in range(4):
            _declare(game, seat, levels[seat])
        engine.apply(game, {"type": "fix_trump"})


def play_hand(
    game: engine.Game,
    levels: Sequence[str],
    rng: random.Random,
    times: dict[str, list[float]] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Deal, declare, bury and play one hand; `levels[seat]` is each seat's bot level.
    Appends each bury/play decision's seconds to `times[level]`. Returns the result."""
    options = options or {}
    deal_and_fix(game, levels)
    while game.phase in ("bury", "play"):
        turn = game.turn
        assert turn is not None  # someone is to bury or play
        level = levels[turn]
        t0 = time.perf_counter()
        action = decide(observe(game, turn), level, rng, **options.get(level, {}))
        if times is not None:
            times.setdefault(level, []).append(time.perf_counter() - t0)
        engine.apply(game, action)
    assert game.result is not None  # the hand was scored
    return game.result


# --- duplicate matches (botmatch) ----------------------------------------------------
DEAL_LEVELS = engine.RANKS[:-1]  # 2..K: no hand starts at A (that would end the match)
T95 = {
    1: 12.71,
    2: 4.30,
    3: 3.18,
    4: 2.78,
    5: 2.57,
    6: 2.45,
    7: 2.36,
    8: 2.31,
    9: 2.26,
    10: 2.23,
    12: 2.18,
    15: 2.13,
    20: 2.09,
    25: 2.06,
    30: 2.04,
    40: 2.02,
    60: 2.00,
}


def t95(df: int) -> float:
    """Two-sided 95% Student t quantile (table, rounded down to the nearest df given)."""
    if df >= 120:
        return 1.96
    return T95[max(d for d in T95 if d <= max(df, 1))]


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan"), float("nan")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n - 1) * (var / n) ** 0.5
    return mean, mean - half, mean + half


def wilson_ci(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (draws count as half a win)."""
    if n == 0:
        return float("nan"), float("nan")
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5 / (1 + z * z / n)
    return centre - half, centre + half


def signed_levels(result: Mapping[str, Any], team_a: int) -> int:
    change = result["level_change"]
    levels: int = change["levels"]
    return levels if change["team"] == team_a else -levels


def deal_plan(seed: str, deals: int) -> list[tuple[str, int, str]]:
    """(deal seed, dealer seat, level) of each deal of a match: drawn in order from `seed`
    alone, so every worker plays exactly the deals one process would."""
    rng = random.Random(seed)
    return [(f"{seed}:{i}", rng.randrange(4), rng.choice(DEAL_LEVELS)) for i in range(deals)]


def play_pair(
    a: str, b: str, deal: tuple[str, int, str], options: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """One deal played twice (A on seats 0/2, then on 1/3): A's mean level gain, its pair
    score (1 win, ½ draw, 0 loss by the summed levels), its defender-point balance and
    the decision times by level. Everything random is seeded by the deal."""
    deal_seed, dealer, level = deal
    times: dict[str, list[float]] = {}
    gained = points = 0
    for team_a in (0, 1):
        seats = [a if engine.team_of(s) == team_a else b for s in range(4)]
        game = fresh_hand(deal_seed, dealer=dealer, level=level)
        play_rng = random.Random(f"{deal_seed}:{team_a}")
        result = play_hand(game, seats, play_rng, times, options)
        gained += signed_levels(result, team_a)
        score = result["defenders_score"]
        points += score if result["dealer_team"] != team_a else -score
    return {
        "levels": gained / 2,
        "score": 1.0 if gained > 0 else 0.5 if gained == 0 else 0.0,
        "points": points / 2,
        "times": times,
    }


def _pairs(
    a: str,
    b: str,
    plan: list[tuple[str, int, str]],
    *,
    start: float,
    seconds: float | None,
    workers: int,
    options: Mapping[str, Mapping[str, Any]] | None,
) -> Iterator[dict[str, Any]]:
    """The pairs' results in deal order. With several workers (one process each) the
    deals are handed out in order; once `seconds` have passed no further deal starts."""

    def late() -> bool:
        return seconds is not None and time.perf_counter() - start > seconds

    if workers <= 1:
        for deal in plan:
            if late():
                return
            yield play_pair(a, b, deal, options)
        return
    # spawn: each worker imports the bots afresh (nothing inherited from the caller)
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(play_pair, a, b, deal, options) for deal in plan]
        try:
            for fut in futures:
                if late():
                    for f in futures:
                        f.cancel()  # those not started yet; started ones finish
                if fut.cancelled():
                    return
                yield fut.result()
        finally:
            for f in futures:
                f.cancel()


def run_duplicate(
    a: str,
    b: str,
    *,
    deals: int,
    seed: str,
    seconds: float | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    on_pair: Callable[[int, list[float]], object] | None = None,
    workers: int = 1,
    from_deal: int = 0,
) -> dict[str, Any]:
    """Play up to `deals` deals twice (A on seats 0/2, then A on 1/3) with the same cards,
    dealer seat and level; stop starting new deals after `seconds`. Returns a dict of
    per-pair A level gains (the mean of its two hands), pair scores (1 win, ½ draw, 0
    loss by the pair's summed levels), points and decision times by level. Each pair's
    result depends on the seed and its deal's index only, whatever `workers` is; so a
    match that `seconds` cut short after N pairs is finished by a run with from_deal=N."""
    times: dict[str, list[float]] = {}
    pair_levels: list[float] = []
    pair_scores: list[float] = []
    pair_points: list[float] = []
    start = time.perf_counter()
    plan = deal_plan(seed, deals)[from_deal:]
    for pair in _pairs(a, b, plan, start=start, seconds=seconds, workers=workers, options=options):
        pair_levels.append(pair["levels"])
        pair_scores.append(pair["score"])
        pair_points.append(pair["points"])
        for level, ts in pair["times"].items():
            times.setdefault(level, []).extend(ts)
        if on_pair:
            on_pair(len(pair_levels), pair_levels)
    return {
        "a": a,
        "b": b,
        "pairs": len(pair_levels),
        "levels": pair_levels,
        "scores": pair_scores,
        "points": pair_points,
        "times": times,
        "seconds": time.perf_counter() - start,
        "workers": workers,
    }


def percentile(values: Sequence[float], q: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))] if v else float("nan")
