"""Engine benchmark (pure Python, no Django):
`.venv/bin/python bench/engine.py [seconds] [--preset NAME]` (NAME: a house-rule preset,
docs/house-rules.md; default "standard", RULES.md).

Prints
- complete random-legal hands per second on one core: start_hand, deal (in chunks, with
  random declarations), fix_trump, a random bury, then sample_play until scored;
- p50/p99 time to validate one play (actions.check_play: the validation apply runs)
  for a 33-card hand (the dealer's hand after picking up the kitty) and 25-card hands,
  leads (throw checks included) and follows.
Targets: >= 50 hands/s, p99 validation <= 2 ms (every preset: >= 500 hands/s, <= 1 ms).
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import contextlib

from games.engine import PRESETS, Game, Refusal, apply, legal_declarations, preset_rules, sample_play
from games.engine.actions import check_play


def play_hand(g, rng):
    apply(g, {"type": "start_hand", "seed": f"bench-{rng.random()}"})
    while g.phase in ("deal", "last_chance"):
        while g.phase == "deal":
            apply(g, {"type": "deal", "upto": min(100, g.dealt + rng.randint(5, 40))})
            for seat in range(4):
                options = legal_declarations(g, seat)
                if options and rng.random() < 0.3:
                    apply(g, {"type": "declare", "seat": seat, "cards": rng.choice(options)})
        apply(g, {"type": "fix_trump"})  # a redeal (house rule) deals again
    apply(g, {"type": "bury", "seat": g.dealer, "cards": rng.sample(g.hands[g.dealer], 8)})
    while g.phase == "play":
        seat = g.turn
        apply(g, {"type": "play", "seat": seat, "cards": sample_play(g, seat, rng)})


def hands_per_second(seconds, rules):
    """(hands per wall-clock second, hands per CPU second of this process, hands): on a
    shared machine the CPU rate is the one-core rate, the wall rate what others left."""
    rng = random.Random(1)
    g = Game.new(rules)
    n = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        if g.phase == "finished":
            g = Game.new(rules)
        play_hand(g, rng)
        n += 1
    return n / (time.perf_counter() - start), n / (time.process_time() - cpu), n


def timed(samples, g, seat, cards):
    t = time.perf_counter()
    with contextlib.suppress(Refusal):
        check_play(g, seat, cards)
    samples.append(time.perf_counter() - t)


def dealt_and_fixed(rules, seed):
    """A game just past fix_trump (a redeal, house rule, deals again)."""
    g = Game.new(rules)
    apply(g, {"type": "start_hand", "seed": seed})
    while g.phase == "deal":
        apply(g, {"type": "deal", "upto": 100})
        apply(g, {"type": "fix_trump"})
    return g


def validation_samples(rounds, rules):
    """(33-card samples, 25-card samples) of check_play timings."""
    rng = random.Random(2)
    big, small = [], []
    for _ in range(rounds):
        g = dealt_and_fixed(rules, f"v-{rng.random()}")
        d = g.dealer
        # 33-card hand: pretend play has begun with the dealer still holding the kitty.
        g.phase, g.buried = "play", []
        g.turn = g.leader = d
        for _ in range(10):
            timed(big, g, d, sample_play(g, d, rng))  # lead (maybe a throw)
        prev = (d + 3) % 4
        g.turn = g.leader = prev
        lead = sample_play(g, prev, rng)
        try:
            check_play(g, prev, lead)
            g.trick = [[prev, lead]]
            g.turn = d
            for _ in range(10):
                timed(big, g, d, sample_play(g, d, rng))  # legal follow
                timed(big, g, d, rng.sample(g.hands[d], len(lead)))  # any selection
        except Refusal:
            pass
        # 25-card hands: after a real bury.
        g = dealt_and_fixed(rules, f"w-{rng.random()}")
        apply(g, {"type": "bury", "seat": g.dealer, "cards": rng.sample(g.hands[g.dealer], 8)})
        for _ in range(8):
            seat = g.turn
            cards = sample_play(g, seat, rng)
            if g.trick:
                timed(small, g, seat, rng.sample(g.hands[seat], len(g.trick[0][1])))
            timed(small, g, seat, cards)
            apply(g, {"type": "play", "seat": seat, "cards": cards})
    return big, small


def pct(samples, q):
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seconds", nargs="?", type=float, default=10.0)
    parser.add_argument("--preset", default="standard", choices=sorted(PRESETS))
    args = parser.parse_args()
    seconds, rules = args.seconds, preset_rules(args.preset)
    rate, cpu_rate, n = hands_per_second(seconds, rules)
    print(f"preset {args.preset}")
    print(
        f"complete random-legal hands: {rate:.1f}/s ({n} hands in {seconds:.0f}s, one core;"
        f" {cpu_rate:.1f} per CPU second)"
    )
    big, small = validation_samples(300, rules)
    for name, s in (("33-card hand", big), ("25-card hand", small)):
        print(
            f"validate one play, {name}: p50 {pct(s, 0.5):.3f} ms, p99 {pct(s, 0.99):.3f} ms,"
            f" max {max(s) * 1000:.3f} ms, mean {statistics.mean(s) * 1000:.3f} ms"
            f" ({len(s)} samples)"
        )


if __name__ == "__main__":
    main()
