"""Why the Hint and the analysis share a seed (docs/analysis.md, "Hint and the analysis"):
`.venv/bin/python bench/coach_noise.py [--hands 12] [--budget 0.2] [--level expert]`.

Pure Python, no Django. In positions of basic bots' hands (every bury, about one play in
eight), the coach's choice under one seed is evaluated again, as the analysis would if it
drew other worlds, under another seed: the points it "loses" there are the evaluator's own
noise. Prints how often that noise alone would count the hint as losing something, and as a
mistake (decisions.MISTAKE_POINTS or more).
"""

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import bots, engine
from games.analysis.decisions import MISTAKE_POINTS
from games.bots import coach
from games.bots.match import fresh_hand

KEEP = 0.12  # share of the plays kept as positions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--level", default="expert")
    args = parser.parse_args()
    lost = []
    for i in range(args.hands):
        g = fresh_hand(f"noise{i}", dealer=i % 4, level="23456789JQK"[i % 11])
        engine.apply(g, {"type": "deal", "upto": 100})
        engine.apply(g, {"type": "fix_trump"})
        rng = random.Random(i)
        while g.phase in ("bury", "play"):
            if g.phase == "bury" or rng.random() < KEEP:
                obs = bots.observe(g, g.turn)
                hint = coach.options(obs, level=args.level, budget=args.budget, seed="hint")[0][0]
                again = coach.options(obs, level=args.level, budget=args.budget, seed="other", include=hint)
                mine = next(value for cards, value in again if sorted(cards) == sorted(hint))
                lost.append(again[0][1] - mine)
            engine.apply(g, bots.decide(bots.observe(g, g.turn), "basic"))
    lost.sort()
    some = sum(x > 0 for x in lost) / len(lost)
    mistakes = sum(x >= MISTAKE_POINTS for x in lost) / len(lost)
    print(f"{len(lost)} positions, {args.level} at {args.budget} s counted, another seed for the analysis:")
    print(f"  the hint loses something {100 * some:.0f} %, a mistake (≥ {MISTAKE_POINTS:g}) {100 * mistakes:.0f} %")
    print(f"  points lost: p50 {statistics.median(lost):.1f}, p90 {lost[int(0.9 * len(lost))]:.1f}, max {lost[-1]:.1f}")


if __name__ == "__main__":
    main()
