"""manage.py botmatch --a strong --b basic --deals 200 --seed 1 [--seconds 240]

Duplicate evaluation of two bot levels without the web layer (docs/bots.md): each deal
is played twice with the same cards, dealer seat and level, A on seats 0/2 then on 1/3.
Reports A's level gain per hand and deal-pair win rate with 95% confidence intervals,
defender-point balance, and the decision times of each level.
"""

from django.core.management.base import BaseCommand, CommandError

from games.bots import LEVELS, strong
from games.bots.match import mean_ci, percentile, run_duplicate, wilson_ci

EVAL_STRONG_MS = 300  # half the live budget: twice the deals in the same time


class Command(BaseCommand):
    help = "Play bot levels against each other in duplicate deals and report their strength."

    def add_arguments(self, parser):
        parser.add_argument("--a", default="strong", choices=LEVELS)
        parser.add_argument("--b", default="basic", choices=LEVELS)
        parser.add_argument("--deals", type=int, default=200, help="deal pairs at most")
        parser.add_argument("--seed", default="1")
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
        parser.add_argument("--progress", action="store_true")

    def handle(self, *args, a, b, deals, seed, seconds, strong_ms, progress, **options):
        if deals < 1:
            raise CommandError("--deals must be at least 1")
        opts = {"strong": {"budget": strong_ms / 1000}}

        def on_pair(n, levels):
            if progress and n % 5 == 0:
                m, lo, hi = mean_ci(levels)
                self.stderr.write(f"  {n} deal pairs: {m:+.3f} [{lo:+.3f}, {hi:+.3f}]")

        r = run_duplicate(a, b, deals=deals, seed=seed, seconds=seconds, options=opts, on_pair=on_pair)
        out = self.stdout.write
        n = r["pairs"]
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
        for level, times in sorted(r["times"].items()):
            out(
                f"decision time {level}: p50 {1000 * percentile(times, 0.5):.1f} ms  "
                f"p95 {1000 * percentile(times, 0.95):.1f} ms  "
                f"max {1000 * max(times):.1f} ms  ({len(times)} decisions)"
            )
