"""manage.py botmatch --a expert --b basic --deals 400 --seed 1 [--seconds 240] [--workers 2]

Duplicate evaluation of two bot levels (any of `games.bots.LEVELS`: random, novice,
basic, strong, expert) without the web layer (docs/bots.md): each deal is played twice
with the same cards, dealer seat and level, A on seats 0/2 then on 1/3.
Reports A's level gain per hand and deal-pair win rate with 95% confidence intervals,
defender-point balance, and the decision times of each level. `--workers N` plays the
deal pairs in N processes; each pair's result depends on the seed and its index only, so
the results are those of one process (the expert's search counts its effort in simulated
cards; the strong bot's stops on the clock, so its runs are not bit-for-bit repeatable).
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.bots import LEVELS, expert, strong
from games.bots.match import mean_ci, percentile, run_duplicate, wilson_ci

EVAL_STRONG_MS = 300  # half the live budget: twice the deals in the same time
EVAL_EXPERT_MS = 300  # 3/8 of the live budget, counted as work (repeatable)


class Command(BaseCommand):
    help = "Play bot levels against each other in duplicate deals and report their strength."

    def add_arguments(self, parser):
        parser.add_argument("--a", default="strong", choices=LEVELS)
        parser.add_argument("--b", default="basic", choices=LEVELS)
        parser.add_argument("--deals", type=int, default=200, help="deal pairs at most")
        parser.add_argument("--seed", default="1")
        parser.add_argument(
            "--from-deal",
            type=int,
            default=0,
            help="skip the first N deals of the seed's plan (to finish a match its window cut short)",
        )
        parser.add_argument(
            "--seconds", type=float, default=240.0, help="stop starting new deals after this many seconds"
        )
        parser.add_argument(
            "--strong-ms",
            type=int,
            default=EVAL_STRONG_MS,
            help="time budget of one strong lead or bury (follows get half); "
            f"default {EVAL_STRONG_MS}, the live bot uses "
            f"{int(strong.BUDGET * 1000)}",
        )
        parser.add_argument(
            "--expert-ms",
            type=int,
            default=EVAL_EXPERT_MS,
            help="search effort of one expert lead or bury in ms of this machine's work "
            f"(follows get {round(expert.FOLLOW_SHARE * 100)}%%); default {EVAL_EXPERT_MS}, "  # argparse: %% is a %
            f"the live bot uses {int(expert.BUDGET * 1000)}",
        )
        parser.add_argument(
            "--wall-clock",
            action="store_true",
            help="stop the expert's search on the clock too, as at a live table (not repeatable)",
        )
        parser.add_argument("--workers", type=int, default=1, help="processes playing deal pairs")
        parser.add_argument("--progress", action="store_true")
        parser.add_argument("--pairs-out", metavar="FILE", help="write each deal pair's result (JSON) to FILE")
        parser.add_argument(
            "--compare",
            metavar="FILE",
            help="a --pairs-out file of an earlier run of the same plan: print this run minus that one, "
            "pair by pair (a paired interval, tighter than two runs' own side by side)",
        )

    def handle(
        self,
        *args,
        a,
        b,
        deals,
        seed,
        from_deal,
        seconds,
        strong_ms,
        expert_ms,
        wall_clock,
        workers,
        progress,
        pairs_out,
        compare,
        **options,
    ):
        if from_deal < 0:
            raise CommandError("--from-deal must be 0 or more (the index of the plan's first deal to play)")
        if from_deal >= deals:
            raise CommandError("--deals must be at least 1 and more than --from-deal")
        if workers < 1:
            raise CommandError("--workers must be at least 1")
        earlier = read_pairs(compare, seed) if compare else None
        opts = {
            "strong": {"budget": strong_ms / 1000},
            "expert": {"budget": expert_ms / 1000, "wall": wall_clock},
        }

        def on_pair(n, levels):
            if progress and n % 5 == 0:
                m, lo, hi = mean_ci(levels)
                self.stderr.write(f"  {n} deal pairs: {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")

        out = self.stdout.write
        budgets = []
        if "strong" in (a, b):
            budgets.append(f"strong {strong_ms} ms a lead or bury, on the clock")
        if "expert" in (a, b):
            cards = int(expert_ms / 1000 * expert.CARDS_PER_SECOND)
            clock = ", capped by the clock" if wall_clock else " (repeatable)"
            budgets.append(f"expert {expert_ms} ms a lead or bury as work, {cards} simulated cards{clock}")
        skipped = f", deals {from_deal}-{deals - 1} of its plan" if from_deal else ""
        out(f"seed {seed}{skipped}, {workers} worker(s), time budget: " + ("; ".join(budgets) or "none (no search)"))
        r = run_duplicate(
            a,
            b,
            deals=deals,
            seed=seed,
            from_deal=from_deal,
            seconds=seconds,
            options=opts,
            on_pair=on_pair,
            workers=workers,
        )
        n = r["pairs"]
        if n == 0:
            raise CommandError("no deal pair finished")
        budget = f", strong budget {strong_ms} ms" if "strong" in (a, b) else ""
        out(f"botmatch A={a} B={b} seed={seed}: {n} deal pairs ({2 * n} hands) in {r['seconds']:.0f} s{budget}")
        m, lo, hi = mean_ci(r["levels"])
        out(f"levels/hand for A: {m:+.3f}  95% CI [{lo:+.3f}, {hi:+.3f}]")
        w = sum(r["scores"]) / n
        wl, wh = wilson_ci(w, n)
        wins = sum(1 for s in r["scores"] if s == 1.0)
        draws = sum(1 for s in r["scores"] if s == 0.5)
        out(
            f"deal-pair win rate for A: {100 * w:.1f}%  95% CI [{100 * wl:.1f}%, "
            f"{100 * wh:.1f}%]  (won {wins}, drawn {draws}, lost {n - wins - draws})"
        )
        p, pl, ph = mean_ci(r["points"])
        out(f"defender points/hand, A minus B: {p:+.1f}  95% CI [{pl:+.1f}, {ph:+.1f}]")
        if pairs_out:
            keep = {"a": a, "b": b, "seed": seed, "from_deal": from_deal, "levels": r["levels"], "points": r["points"]}
            Path(pairs_out).write_text(json.dumps(keep))
        if earlier is not None:
            out(paired_difference(r["levels"], from_deal, earlier, compare))
        for level, times in sorted(r["times"].items()):
            out(
                f"decision time {level}: p50 {1000 * percentile(times, 0.5):.1f} ms  "
                f"p95 {1000 * percentile(times, 0.95):.1f} ms  "
                f"p99 {1000 * percentile(times, 0.99):.1f} ms  "
                f"max {1000 * max(times):.1f} ms  ({len(times)} decisions)"
            )


def read_pairs(path: str, seed: str) -> dict:
    """An earlier run's --pairs-out, checked before anything is played."""
    try:
        earlier = json.loads(Path(path).read_text())
        levels, first = earlier["levels"], earlier["from_deal"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CommandError(f"--compare {path}: not a --pairs-out file ({e})") from e
    if earlier.get("seed") != seed:
        raise CommandError(
            f"--compare {path}: its seed is {earlier.get('seed')!r}, this run's {seed!r}: not the same deals"
        )
    return {"levels": levels, "from_deal": first}


def paired_difference(levels: list[float], from_deal: int, earlier: dict, path: str) -> str:
    """This run's levels/hand minus the earlier run's, on the deals both played."""
    mine = dict(enumerate(levels, from_deal))
    theirs = dict(enumerate(earlier["levels"], earlier["from_deal"]))
    both = sorted(mine.keys() & theirs.keys())
    if len(both) < 2:
        return f"compared with {path}: fewer than 2 deal pairs in common"
    m, lo, hi = mean_ci([mine[i] - theirs[i] for i in both])
    changed = sum(mine[i] != theirs[i] for i in both)
    return (
        f"levels/hand, this run minus {path}: {m:+.3f}  95% CI [{lo:+.3f}, {hi:+.3f}]  "
        f"(deals {both[0]}-{both[-1]}: {len(both)} pairs, {changed} with another result)"
    )
