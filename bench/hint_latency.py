"""How long the Hint takes (docs/analysis.md, "Hint and the analysis"):
`.venv/bin/python bench/hint_latency.py [--hints 200] [--thinkers 1] [--seed S]`.

Random positions of basic bots' hands (every bury, and plays at random points of the
hands); for each, the consumer's own work after its one database read: the question
(the seat's Observation, the analysis's level and budget from the settings), the advice
thought out in games/runtime/thinking.py's worker pool (forkserver, niced, as on a
server), and the Why? text in English. Prints p50/p95/p99/max in ms, overall and by kind
of decision. The pool's first answer (its process starting) is not counted.
"""
# ruff: noqa: E402  (Django is set up before the site's modules are imported)

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.conf import settings
from django.utils import translation

from games import bots, engine
from games.analysis.why import explain
from games.bots.coach import CoachQuestion
from games.bots.match import fresh_hand
from games.runtime import thinking


def positions(count: int, seed: str) -> list[engine.Game]:
    """`count` positions: each hand's bury, then plays at random points (a hint's moments)."""
    out: list[engine.Game] = []
    n = 0
    while len(out) < count:
        rng = random.Random(f"{seed}{n}")
        g = fresh_hand(f"{seed}{n}", dealer=n % 4, level="23456789JQK"[n % 11])
        engine.apply(g, {"type": "deal", "upto": 100})
        engine.apply(g, {"type": "fix_trump"})
        while g.phase in ("bury", "play") and len(out) < count:
            if g.phase == "bury" or rng.random() < 0.1:
                out.append(g.copy())
            engine.apply(g, bots.decide(bots.observe(g, g.turn), "basic"))
        n += 1
    return out


def kind(g: engine.Game) -> str:
    return "bury" if g.phase == "bury" else "follow" if g.trick else "lead"


async def measure(games: list[engine.Game]) -> dict[str, list[float]]:
    level, budget = settings.GAMES_ANALYSIS_LEVEL, settings.GAMES_ANALYSIS_BUDGET
    warm = games[0]
    await thinking.coach(CoachQuestion(bots.observe(warm, warm.turn), level, budget, "warm"))
    times: dict[str, list[float]] = {"all": []}
    for index, g in enumerate(games):
        started = time.perf_counter()
        question = CoachQuestion(bots.observe(g, g.turn), level, budget, f"hand:{index}")
        advice = await thinking.coach(question)
        with translation.override("en"):
            explain(advice.facts)
        ms = 1000 * (time.perf_counter() - started)
        times["all"].append(ms)
        times.setdefault(kind(g), []).append(ms)
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hints", type=int, default=200)
    parser.add_argument("--thinkers", type=int, default=1, help="worker processes (0: a thread)")
    parser.add_argument("--seed", default="hint-bench-")
    args = parser.parse_args()
    settings.GAMES_BOT_THINKERS = args.thinkers
    games = positions(args.hints, args.seed)
    load = os.getloadavg()[0]
    try:
        times = asyncio.run(measure(games))
    finally:
        thinking.shutdown()
    level, budget = settings.GAMES_ANALYSIS_LEVEL, settings.GAMES_ANALYSIS_BUDGET
    print(f"{len(games)} hints, {level} at {budget} s counted, {args.thinkers} thinker(s), load {load:.1f}")
    for name, values in times.items():
        print(
            f"{name:>6}: n={len(values):3d}  p50 {statistics.median(values):6.0f} ms  "
            f"p95 {quantile(values, 0.95):6.0f}  p99 {quantile(values, 0.99):6.0f}  max {max(values):6.0f}"
        )


if __name__ == "__main__":
    main()
