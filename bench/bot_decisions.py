"""The expert's decisions checked against the hidden cards (pure Python, no Django):
`.venv/bin/python bench/bot_decisions.py [hands] [--seed S] [--budget SECONDS]`.

botmatch measures a whole match, and its levels/hand need hundreds of deal pairs to
show a small edge. This looks at single decisions instead: basic bots play `hands`
hands; at every bury and at about one play in eight the position is kept. For each, the
expert decides from the seat's view; where it leaves the basic bot's choice, both plays
are played out in the *true* deal (the real hidden hands and bury) with basic policies
for all four seats, and the difference of the smooth level outcome (strong.level_utility,
for the deciding seat's team) is the gain of the deviation. It prints the deviations
and their summed gain by kind of decision (bury, lead, follow, exact endgame).
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import bots, engine
from games.bots import basic, expert, observe, strong
from games.bots.knowledge import Knowledge
from games.bots.match import fresh_hand

KEEP = 0.12  # share of the plays kept as positions


def positions(hands: int, seed: str) -> list[engine.Game]:
    out = []
    for i in range(hands):
        g = fresh_hand(f"{seed}{i}", dealer=i % 4, level="23456789JQK"[i % 11])
        rng = random.Random(i)
        while g.phase == "deal":
            engine.apply(g, {"type": "deal"})
            r = engine.deal_receiver(first=g.first, index=g.dealt - 1)
            cards = bots.decide_declaration(observe(g, r), "basic") if engine.legal_declarations(g, r) else None
            if cards:
                engine.apply(g, {"type": "declare", "seat": r, "cards": cards})
        engine.apply(g, {"type": "fix_trump"})
        while g.phase in ("bury", "play"):
            if g.phase == "bury" or rng.random() < KEEP:
                out.append(engine.Game.from_json(g.to_json()))
            engine.apply(g, basic.decide(observe(g, g.turn)))
    return out


def true_value(g: engine.Game, cards: list[str]) -> float:
    """`cards` then basic play to the end, in the real deal (the bench sees everything)."""
    me = g.turn
    obs = observe(g, me)
    world = {s: list(g.hands[s]) for s in range(4) if s != me}
    if me != g.dealer:
        world["kitty"] = list(g.buried)
    r = strong.Rollout(obs, Knowledge.from_observation(obs), world)
    return r.play(None, bury=cards) if g.phase == "bury" else r.play(cards)


def kind(g: engine.Game) -> str:
    if g.phase == "bury":
        return "bury"
    exact = max(len(h) for h in g.hands) <= expert.EXACT_CARDS
    return ("lead" if not g.trick else "follow") + (" (exact)" if exact else "")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("hands", type=int, nargs="?", default=50)
    ap.add_argument("--seed", default="o2")
    ap.add_argument("--budget", type=float, default=0.3)
    args = ap.parse_args()
    start = time.perf_counter()
    games = positions(args.hands, args.seed)
    gains: dict[str, list[float]] = {}
    for j, g in enumerate(games):
        obs = observe(g, g.turn)
        chosen = expert.decide(obs, random.Random(j), budget=args.budget, wall=False)["cards"]
        plain = basic.decide(obs)["cards"]
        if sorted(chosen) != sorted(plain):
            gains.setdefault(kind(g), []).append(true_value(g, chosen) - true_value(g, plain))
    total = sum(sum(v) for v in gains.values())
    deviations = sum(len(v) for v in gains.values())
    print(
        f"{len(games)} positions from {args.hands} hands (seed {args.seed}), expert budget {args.budget} s: "
        f"{deviations} deviations from basic, summed gain {total:+.2f} levels "
        f"({total / len(games):+.4f} a position) in {time.perf_counter() - start:.0f} s"
    )
    for k, v in sorted(gains.items()):
        print(f"  {k}: {len(v)} deviations, gain {sum(v):+.2f}")


if __name__ == "__main__":
    main()
