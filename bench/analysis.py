"""Hand analysis benchmark (pure Python, no Django): how long one hand's analysis takes.

`.venv/bin/python bench/analysis.py [--hands N] [--budget S] [--people K] [--level strong]`

Plays N first hands of basic bots through the engine (recording the actions as a table's log
would), marks the first K seats' moves as a person's (source "player"), and times
`games.analysis.decisions.hand_decisions` over each hand, as the worker runs it
(docs/analysis.md). Prints seconds per hand (p50, max), per decision, and decisions per hand.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import bots, engine
from games.analysis.decisions import LoggedAction, hand_decisions


def logged_hand(seed: str, people: int) -> list[LoggedAction]:
    """The first hand of a match of basic bots (they declare as at a table), as logged."""
    game = engine.Game.new()
    log: list[LoggedAction] = []

    def act(action: dict, seat: int | None = None) -> None:
        engine.apply(game, action)
        source = "player" if seat is not None and seat < people else "bot"
        log.append(LoggedAction(len(log) + 1, source, action))

    act({"type": "start_hand", "seed": seed})
    while game.phase == "deal":
        act({"type": "deal", "upto": game.dealt + 1})
        receiver = engine.deal_receiver(first=game.first, index=game.dealt - 1)
        declare = bots.declaration(game=game, seat=receiver, level="basic")
        if declare:
            act(declare, receiver)
    act({"type": "fix_trump"})
    while game.phase in ("bury", "play"):
        seat = game.turn
        act(bots.decide(bots.observe(game, seat), "basic"), seat)
    return log


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--budget", type=float, default=0.2)
    parser.add_argument("--people", type=int, default=4)
    parser.add_argument("--level", default="strong")
    args = parser.parse_args()
    per_hand, per_decision, counts = [], [], []
    for n in range(args.hands):
        seed = f"bench-analysis-{n}"
        log = logged_hand(seed, args.people)
        t0 = time.perf_counter()
        found = hand_decisions([], log, rules=engine.DEFAULT_RULES, seed=seed, level=args.level, budget=args.budget)
        seconds = time.perf_counter() - t0
        per_hand.append(seconds)
        counts.append(len(found))
        per_decision.append(seconds / max(len(found), 1))
        print(f"hand {n}: {len(found)} decisions in {seconds:.1f} s", flush=True)
    print(
        f"budget {args.budget} s, {args.people} people: {statistics.median(per_hand):.1f} s per hand (p50), "
        f"max {max(per_hand):.1f} s; {statistics.median(per_decision) * 1000:.0f} ms per decision; "
        f"{statistics.median(counts):.0f} decisions per hand"
    )


if __name__ == "__main__":
    main()
