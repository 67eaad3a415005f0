"""The expert bot: information-set search from the seat's view (docs/bots.md).

For a play or the bury it takes a few candidates (the basic bot's best, safe and
unsafe throws of the highest cards left), samples worlds — the unseen cards dealt out
consistently with everything public: hand sizes, shown voids and missing pairs,
declared cards still held, and the habits `inference.py` reads into the history — and
values every candidate in the same worlds: a rollout to the end of the hand with basic
policies for all four seats (the engine's `Playout`), or, once every hand holds
`EXACT_CARDS` cards or fewer, the exact result of best play in that world
(`endgame.solve`). It keeps the basic choice unless another candidate beats it clearly
on the paired results.

The effort is counted in simulated cards, not seconds, so a decision is repeatable
from its seed (botmatch, the replay analysis); a live table adds a wall-clock cap.
"""

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.engine.shapes import split

from . import basic, endgame, strong
from .cardsense import TRUMP, by_class
from .inference import history_bias
from .knowledge import Knowledge
from .observation import Observation

BUDGET = 0.8  # seconds of search for a lead or the bury (its work equivalent)
FOLLOW_SHARE = 0.6  # a follow gets this share of it
BURY_SHARE = 2.0  # and the bury this multiple
CARDS_PER_SECOND = 24000  # simulated cards a second on one core, both cores busy (bench/RESULTS.md)
EXACT_NODE_COST = 0.25  # an endgame node costs about this many simulated cards
CANDIDATES = 5  # the basic bot's best plays searched (fewer: more worlds each)
BURY_CANDIDATES = 8
MAX_WORLDS = 300
MIN_WORLDS = 5  # before dropping candidates
FIRST_WORLDS = 2  # worlds a decision plays whatever its budget
# How clearly (in standard errors of the paired difference) a candidate must beat the
# basic choice: measured against the true hidden cards, the search's follows that beat
# basic by less went wrong as often as right (docs/bots.md); its burys were sound.
Z_KEEP = {"lead": 1.0, "follow": 2.0, "bury": 0.5, "exact": 0.0}
EXACT_CARDS = 4
# The cards' points, asked of the engine (200 with two decks, RULES §1.2), as evaluate.py does.
TOTAL_POINTS = engine.points(engine.full_deck())


@dataclass
class Effort:
    """What a decision may spend: simulated cards, and (live) a wall-clock deadline."""

    work: float
    deadline: float | None = None
    used: float = field(default=0.0)

    @classmethod
    def of(cls, seconds: float, wall: bool) -> "Effort":
        return cls(seconds * CARDS_PER_SECOND, time.perf_counter() + seconds if wall else None)

    def late(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline


def decide(obs: Observation, rng: random.Random, budget: float = BUDGET, wall: bool = True) -> dict[str, Any]:
    """The expert's bury or play. `wall`: also stop on the clock (live tables)."""
    if obs.phase == "bury":
        search = bury_search(obs, rng)
        if len(search.cands) > 1:  # once a hand, and worth the most: twice the effort
            search.run(Effort.of(budget * BURY_SHARE, wall), prune=True)
        return {"type": "bury", "seat": obs.seat, "cards": search.best()}
    search = play_search(obs, rng)
    if len(search.cands) > 1:
        share = FOLLOW_SHARE if obs.trick else 1.0
        search.run(Effort.of(budget * share, wall), prune=True)
    return {"type": "play", "seat": obs.seat, "cards": search.best()}


def evaluate_options(
    obs: Observation, *, rng: random.Random, budget: float, include: list[str] | None = None
) -> list[tuple[list[str], float]]:
    """Each candidate bury or play of `obs.seat` with the card points its side is expected
    to hold at the end of the hand (`Search.points`), best first; every candidate is
    valued in every world (no pruning) and the effort is counted, not timed, so the
    answer depends on `rng`'s seed only."""
    search = bury_search(obs, rng) if obs.phase == "bury" else play_search(obs, rng)
    if include and all(sorted(include) != sorted(c) for c in search.cands):
        search.cands.append(list(include))
    search.active = list(range(len(search.cands)))
    search.values = [[] for _ in search.cands]
    search.points = [[] for _ in search.cands]
    search.run(Effort.of(budget, False), prune=False, min_worlds=1)
    scored = [(list(c), search.mean(search.points, i)) for i, c in enumerate(search.cands)]
    scored.sort(key=lambda o: -o[1])
    return scored


# --- candidates ---------------------------------------------------------------------------
def play_search(obs: Observation, rng: random.Random) -> "Search":
    k = Knowledge.from_observation(obs)
    k.kitty_points = basic.kitty_estimate(obs, k)
    exact = max(obs.hand_counts) <= EXACT_CARDS
    cands = strong.candidate_plays(k, CANDIDATES)
    if not k.trick and len(cands) > 1:
        cands += [t for t in throws(k) if all(sorted(t) != sorted(c) for c in cands)]
    if exact and len(cands) > 1:
        more = (
            engine.lead_components(k.hand, k.ctx)
            if not k.trick
            else engine.legal_follows(k.trick[0][1], k.hand, k.ctx, cap=endgame.FOLLOW_CAP)
        ) or []
        cands += [m for m in more if all(sorted(m) != sorted(c) for c in cands)]
    return Search(obs, k, cands, rng, bury=False, exact=exact)


def bury_search(obs: Observation, rng: random.Random) -> "Search":
    cands: list[list[str]] = []
    for _, cards in basic.bury_options(obs):
        if all(sorted(cards) != sorted(c) for c in cands):
            cands.append(cards)
        if len(cands) == BURY_CANDIDATES:
            break
    return Search(obs, Knowledge.from_observation(obs), cands, rng, bury=True, exact=False)


def throws(k: Knowledge) -> list[list[str]]:
    """Throws of every non-trump suit's components that are the highest left, whether or
    not an opponent may ruff (the search sees the ruffs basic is afraid of)."""
    out: list[list[str]] = []
    for lc, cards in by_class(k.hand, k.ctx).items():
        if lc == TRUMP:
            continue
        masters = [c for c in split(cards, k.ctx) if k.comp_is_master(c, lc)]
        if len(masters) > 1:
            out.append([c for m in masters for c in m.cards])
    return out


# --- the search -------------------------------------------------------------------------
class Search:
    """Candidates valued in the same worlds: values[i][w] (the smooth level outcome for
    this seat's team, strong.level_utility) and points[i][w] (card points its side holds
    at the end: trick points, the kitty bonus for the defenders (§6), throw penalties as
    §5.3 counts them)."""

    def __init__(
        self, obs: Observation, k: Knowledge, cands: list[list[str]], rng: random.Random, *, bury: bool, exact: bool
    ) -> None:
        self.obs, self.k, self.cands, self.rng = obs, k, cands, rng
        self.bury, self.exact = bury, exact
        self.bias = history_bias(obs)
        self.active = list(range(len(cands)))
        self.values: list[list[float]] = [[] for _ in cands]
        self.points: list[list[float]] = [[] for _ in cands]
        self.worlds = 0
        self.defender = engine.is_defender(obs.seat, obs.dealer if obs.dealer is not None else 0)

    def world(self) -> strong.World | None:
        for _ in range(20):
            w = strong.sample_world(self.obs, self.k, self.rng, self.bias)
            if w is not None:
                return w
        return strong.relaxed_world(self.obs, self.k, self.rng, self.bias)

    def run(self, effort: Effort, *, prune: bool, min_worlds: int = FIRST_WORLDS) -> None:
        while self.worlds < MAX_WORLDS and (len(self.active) > 1 or not prune):
            world = self.world()
            if world is None:
                break
            r = strong.Rollout(self.obs, self.k, world)
            got: dict[int, tuple[float, float]] = {}
            for i in self.active:
                got[i] = self.value(r, self.cands[i], effort)
                if effort.late():
                    return  # out of time mid-world: every mean keeps the same worlds
            for i, (v, p) in got.items():
                self.values[i].append(v)
                self.points[i].append(p)
            self.worlds += 1
            if effort.late() or (self.worlds >= min_worlds and effort.used >= effort.work):
                return  # the clock (live) stops even the first worlds: a table must not wait
            if prune and self.worlds >= MIN_WORLDS:
                self.prune()

    def value(self, r: strong.Rollout, cards: list[str], effort: Effort) -> tuple[float, float]:
        if self.exact:
            p = engine.Playout(
                ctx=self.obs.ctx,
                dealer=self.k.dealer,
                hands=[list(h) for h in r.hands],
                buried=r.buried,
                trick=[(s, list(c)) for s, c in self.obs.trick],
                turn=self.obs.seat,
                defender_points=self.obs.defender_points,
                penalties=self.obs.penalties,
                rules=self.obs.rules,
            )
            p.play(cards)
            nodes = [endgame.NODE_CAP]
            try:
                score, trick_points, penalties = endgame.solve(p, nodes)
                effort.used += EXACT_NODE_COST * (endgame.NODE_CAP - nodes[0])
                return self.outcome(score, trick_points, penalties, r.buried)
            except endgame.TooBig:
                effort.used += EXACT_NODE_COST * endgame.NODE_CAP
        effort.used += sum(len(h) for h in r.hands)
        playout = r.finish(None, bury=cards) if self.bury else r.finish(cards)
        assert playout.score is not None
        return self.outcome(playout.score, playout.defender_points, playout.penalties, playout.buried)

    def outcome(self, score: int, trick_points: int, penalties: int, buried: Sequence[str]) -> tuple[float, float]:
        utility = strong.level_utility(score, self.obs.rules)
        if self.defender:
            return utility, float(score)
        return -utility, float(TOTAL_POINTS - engine.points(list(buried)) - trick_points - penalties)

    @staticmethod
    def mean(rows: list[list[float]], i: int) -> float:
        v = rows[i]
        return sum(v) / len(v) if v else float("-inf")

    def paired(self, i: int, j: int) -> tuple[float, float, int]:
        """Mean and standard error of values[i] - values[j] on their common worlds."""
        n = min(len(self.values[i]), len(self.values[j]))
        if n == 0:
            return 0.0, float("inf"), 0
        d = [a - b for a, b in zip(self.values[i][-n:], self.values[j][-n:])]
        m = sum(d) / n
        sd = (sum((x - m) ** 2 for x in d) / max(n - 1, 1)) ** 0.5
        return m, sd / n**0.5, n

    def prune(self) -> None:
        """Drop candidates clearly behind the leader (the basic choice stays)."""
        best = max(self.active, key=lambda i: self.mean(self.values, i))
        keep = []
        for i in self.active:
            m, se, _ = self.paired(i, best)
            if i in (0, best) or m + 2.0 * se + 0.02 >= 0:
                keep.append(i)
        self.active = keep

    def best(self) -> list[str]:
        """The leader if it beats the basic choice (candidate 0) clearly; else basic's."""
        if not self.worlds or len(self.cands) == 1:
            return self.cands[0]
        best = max(self.active, key=lambda i: (self.mean(self.values, i), -i))
        if best == 0:
            return self.cands[0]
        m, se, n = self.paired(best, 0)
        # Few worlds say little: the search leaves basic's choice only on enough of them.
        kind = "exact" if self.exact else "bury" if self.bury else "follow" if self.obs.trick else "lead"
        z = Z_KEEP[kind]
        if n >= (FIRST_WORLDS if self.exact else MIN_WORLDS) and m > z * se + 0.01:
            return self.cands[best]
        return self.cands[0]
