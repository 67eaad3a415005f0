"""The strong bot: determinization Monte-Carlo over the basic bot's best candidates.

For a play decision it takes the basic bot's top candidates, samples "worlds" — the
cards it cannot see dealt to the other hands (and the bury, unless it is the dealer)
consistent with everything observed: hand sizes, voids shown, pairs a follow showed
missing, declared cards still held, cards played, its own hand and bury — and plays
each candidate out to the end of the hand in every world with basic policies for all
four seats (on the same worlds for every candidate, so differences are not luck). It
picks the candidate with the best mean result, a smooth version of the level outcome
(RULES §7.2), dropping candidates that fall clearly behind and stopping at the time
budget. Declarations and the bury are the basic bot's.
"""

import random
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from games import engine

from . import basic
from .cardsense import POINTS, TRUMP, follow_options
from .knowledge import BotTrick, Knowledge, nothing_shown, trick_voids
from .observation import Observation

Slot = int | str  # a seat, or "kitty" for the bury
World = dict[Slot, list[str]]  # the cards this seat cannot see, dealt out
Evaluate = Callable[["Rollout", list[str]], float]

BUDGET = 0.6  # seconds per decision (p95 well under 1 s)
MAX_WORLDS = 400
CANDIDATES = 5
MIN_WORLDS = 6  # before dropping candidates
Z_KEEP = 1.0  # how clearly a candidate must beat the basic choice
FOLLOW_SHARE = 0.5  # share of the budget spent on a follow
# Sampling priors (weights on where an unseen card lies), see sample_world.
TRUMP_DEALER, TRUMP_DECLARER, TRUMP_BURY = 1.5, 1.3, 0.15
NON_TRUMP_BURY, POINT_BURY = 1.0, 0.4


def decide(
    obs: Observation, rng: random.Random, budget: float = BUDGET, worlds: int = MAX_WORLDS, candidates: int = CANDIDATES
) -> dict[str, Any]:
    if obs.phase == "bury":
        return {"type": "bury", "seat": obs.seat, "cards": decide_bury(obs, rng, budget, worlds, candidates)}
    k = Knowledge.from_observation(obs)
    k.kitty_points = basic.kitty_estimate(obs, k)
    cands = candidate_plays(k, candidates)
    if len(cands) == 1:
        return {"type": "play", "seat": obs.seat, "cards": cands[0]}
    if k.trick:
        budget *= FOLLOW_SHARE  # leads gain most from the search (docs/bots.md)
    search = Search(obs, k, cands, rng, lambda r, cards: r.play(cards))
    search.run(time.perf_counter() + budget, worlds)
    return {"type": "play", "seat": obs.seat, "cards": search.best()}


def decide_bury(obs: Observation, rng: random.Random, budget: float, worlds: int, candidates: int) -> list[str]:
    """The dealer's bury: the basic bot's cheapest burys, played out from the first lead."""
    cands: list[list[str]] = []
    for _, cards in basic.bury_options(obs):
        if all(sorted(cards) != sorted(c) for c in cands):
            cands.append(cards)
        if len(cands) == candidates:
            break
    if len(cands) == 1:
        return cands[0]
    k = Knowledge.from_observation(obs)

    def evaluate(r: Rollout, bury: list[str]) -> float:
        return r.play(None, bury=bury)

    search = Search(obs, k, cands, rng, evaluate)
    search.run(time.perf_counter() + budget, worlds)
    return search.best()


def candidate_plays(k: Knowledge, n: int) -> list[list[str]]:
    """The basic bot's n best plays, its own choice first."""
    if not k.trick:
        scored = basic.lead_options(k)
    else:
        options = follow_options(k.trick[0][1], k.hand, k.ctx)
        if len(options) == 1:
            return options
        scored = basic.follow_scores(k, options)
    scored.sort(key=lambda o: -o[0])
    out: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    for _, cards in scored:
        key = tuple(sorted(cards))
        if key not in seen:
            seen.add(key)
            out.append(cards)
    return out[:n]


# --- sampling worlds --------------------------------------------------------------------
def sample_world(
    obs: Observation, k: Knowledge, rng: random.Random, bias: Mapping[tuple[Slot, str], float] | None = None
) -> World | None:
    """Hands for the other seats (and the bury if unseen) consistent with what `obs`
    shows: hand sizes, shown voids, the pairs a follow showed missing (§5.4), declared
    cards; None if the random fill got stuck past one repair (the caller retries, then
    relaxes what was shown).
    `bias` multiplies the weight of a (slot, suit-class): what the history suggests
    (games/bots/inference.py)."""
    me = obs.seat
    ctx = k.ctx
    slots = [s for s in range(4) if s != me]
    room: dict[Slot, int] = {s: obs.hand_counts[s] for s in slots}
    hands: World = {s: [] for s in slots}
    pool = Counter(k.unseen)
    known = k.known
    assert known is not None  # from the observation (a rollout's Knowledge has none)
    for s in slots:  # declared cards not yet played are in their owner's hand (§3.3)
        for c, n in known[s].items():
            n = min(n, pool[c], room[s])
            if n > 0:
                hands[s] += [c] * n
                pool[c] -= n
                room[s] -= n
    fixed: dict[Slot, int] = {s: len(hands[s]) for s in slots}  # declared cards: they stay
    kitty_hidden = obs.dealer != me
    if kitty_hidden:
        room["kitty"], hands["kitty"] = engine.KITTY_SIZE, []
    # Priors from habits: the dealer kept trumps and buried few; a declarer is long in
    # trumps; burys hold few points.
    assert obs.dealer is not None
    trump_bias: dict[Slot, float] = {"kitty": TRUMP_BURY, obs.dealer: TRUMP_DEALER}
    if obs.standing and obs.standing[0] != obs.dealer:
        trump_bias[obs.standing[0]] = TRUMP_DECLARER
    cards = list(pool.elements())
    rng.shuffle(cards)
    cls = ctx.cls
    eligible: dict[str, list[Slot]] = {}
    for lc in {cls[c] for c in cards}:
        seats: list[Slot] = [s for s in slots if lc not in k.voids[s]]
        eligible[lc] = seats + (["kitty"] if kitty_hidden else [])
    cards.sort(key=lambda c: len(eligible[cls[c]]))

    pairless, lacks = k.pairless, k.lacks

    def may_take(s: Slot, c: str) -> bool:
        """Not a card seat s showed it lacks, nor a pair it showed it has none of (§5.4)."""
        if isinstance(s, str):  # the bury: nothing shown
            return True
        return c not in lacks[s] and not (cls[c] in pairless[s] and c in hands[s])

    def make_room(c: str) -> Slot | None:
        """When c fits nowhere (the slots left with room may not take it): move a card
        placed earlier from a slot c may join to one with room that may take it."""
        for t in eligible[cls[c]]:
            if not may_take(t, c):
                continue
            for i in range(fixed.get(t, 0), len(hands[t])):
                d = hands[t][i]
                if d == c:
                    continue  # moving c's twin out to let c in changes nothing
                to = next((s for s in eligible[cls[d]] if s != t and room[s] > 0 and may_take(s, d)), None)
                if to is not None:
                    hands[to].append(hands[t].pop(i))
                    room[to] -= 1
                    room[t] += 1
                    return t
        return None

    for c in cards:
        opts = [s for s in eligible[cls[c]] if room[s] > 0 and may_take(s, c)]
        if not opts:
            freed = make_room(c)
            if freed is None:
                return None
            opts = [freed]
        if cls[c] == TRUMP:
            weights = [room[s] * trump_bias.get(s, 1.0) for s in opts]
        else:
            weights = [room[s] * (NON_TRUMP_BURY if s == "kitty" else 1.0) for s in opts]
        if POINTS[c]:
            weights = [w * (POINT_BURY if s == "kitty" else 1.0) for s, w in zip(opts, weights)]
        if bias:
            weights = [w * bias.get((s, cls[c]), 1.0) for s, w in zip(opts, weights)]
        slot = rng.choices(opts, weights)[0]
        hands[slot].append(c)
        room[slot] -= 1
    return hands


def relaxed_world(
    obs: Observation, k: Knowledge, rng: random.Random, bias: Mapping[tuple[Slot, str], float] | None = None
) -> World | None:
    shown = k.voids, k.pairless, k.lacks
    k.voids, k.pairless, k.lacks = nothing_shown(), nothing_shown(), nothing_shown()
    try:
        return sample_world(obs, k, rng, bias)
    finally:
        k.voids, k.pairless, k.lacks = shown


# --- rollouts ---------------------------------------------------------------------------
def level_utility(score: int, rules: engine.Rules = engine.DEFAULT_RULES) -> float:
    """Defenders' smooth level outcome for a defenders' score: the levels it moves
    (RULES §7.2 under the table's rules, negative when the dealer's team goes up) plus a
    share for the points."""
    side, steps = engine.level_change(score, rules)
    return (steps if side == "defenders" else -steps) + max(score, 0) / 80


class Rollout:
    """One world (every hand and the bury), played out to the end of the hand."""

    def __init__(self, obs: Observation, k: Knowledge, world: World) -> None:
        self.obs = obs
        me = obs.seat
        hands = [list(obs.hand) if s == me else world[s] for s in range(4)]
        buried = world["kitty"] if "kitty" in world else list(obs.kitty or ())
        ctx = obs.ctx
        self.hands, self.buried = [ctx.sort(h) for h in hands], buried
        self.voids = [set(v) for v in k.voids]

    def play(self, first: list[str] | None, bury: list[str] | None = None) -> float:
        """Play `first` for this seat, then the rest of the hand by basic policies; returns
        the result for this seat's team (a smooth level outcome)."""
        playout = self.finish(first, bury)
        assert playout.score is not None
        utility = level_utility(playout.score, self.obs.rules)
        return utility if engine.is_defender(self.obs.seat, playout.dealer) else -utility

    def finish(self, first: list[str] | None, bury: list[str] | None = None) -> engine.Playout:
        """Play `first` for this seat (None: the basic choice), then the rest of the hand by
        basic policies; returns the finished playout. The engine's playout applies the
        rules (§5.3-§7) without re-validation: basic plays are legal (tests/bots/test_bots.py);
        a throw that fails in this world is punished as at a table (§5.3)."""
        obs = self.obs
        ctx = obs.ctx
        cls = ctx.cls
        dealer = obs.dealer
        assert dealer is not None
        hands = [list(h) for h in self.hands]
        buried = self.buried
        if bury is not None:  # the dealer's own bury, then its first lead (RULES §4, §5.2)
            hand = hands[obs.seat]
            for c in bury:
                hand.remove(c)
            buried = bury
        voids = [set(v) for v in self.voids]
        # What each seat cannot see: the other hands, and the bury unless it is the dealer.
        unseen: list[Counter[str]] = []
        for s in range(4):
            u: Counter[str] = Counter()
            for t in range(4):
                if t != s:
                    u.update(hands[t])
            if s != dealer:
                u.update(buried)
            unseen.append(u)
        kitty_points = engine.points(buried)
        # One Knowledge per seat for the whole rollout, kept up to date play by play.
        kns = []
        for s in range(4):
            kn = Knowledge.make(
                seat=s,
                ctx=ctx,
                dealer=dealer,
                hand=hands[s],
                trick=[],
                unseen=unseen[s],
                voids=voids,
                known=None,
                hand_counts=None,
                tricks_done=0,
                defender_points=0,
                rules=obs.rules,
            )
            kn.kitty_points = kitty_points if s == dealer else None  # None: guessed
            kns.append(kn)
        trick: BotTrick = [(s, list(c)) for s, c in obs.trick]
        seat = obs.seat
        playout = engine.Playout(
            ctx=ctx,
            dealer=dealer,
            hands=hands,
            buried=buried,
            trick=trick,
            turn=seat,
            defender_points=obs.defender_points,
            penalties=obs.penalties,
            rules=obs.rules,
        )
        cards = first
        if cards is None:
            kns[seat].trick = trick
            cards = basic.lead(kns[seat]) if not trick else basic.follow(kns[seat])
        while True:
            cards = playout.play(cards)  # `trick` now holds this play (a finished trick too)
            changed = {cls[c] for c in cards}
            for s in range(4):
                if s != seat:
                    unseen[s].subtract(cards)
                    cache = kns[s]._cls_cache
                    for lc in changed:
                        cache.pop(lc, None)
            if len(trick) > 1:
                trick_voids([trick[0], trick[-1]], ctx, voids)
            if playout.score is not None:
                return playout
            seat, trick = playout.turn, playout.trick
            kn = kns[seat]
            kn.trick = trick
            cards = basic.lead(kn) if not trick else basic.follow(kn)
        return playout


class Search:
    """Candidates evaluated on the same worlds; values[i][w] = result of i in world w."""

    def __init__(
        self, obs: Observation, k: Knowledge, cands: list[list[str]], rng: random.Random, evaluate: Evaluate
    ) -> None:
        self.obs, self.k, self.cands, self.rng = obs, k, cands, rng
        self.evaluate = evaluate
        self.active = list(range(len(cands)))
        self.values: list[list[float]] = [[] for _ in cands]
        self.worlds = 0

    def world(self) -> World | None:
        for _ in range(20):
            w = sample_world(self.obs, self.k, self.rng)
            if w is not None:
                return w
        return relaxed_world(self.obs, self.k, self.rng)

    def run(self, deadline: float, max_worlds: int) -> None:
        while self.worlds < max_worlds and len(self.active) > 1:
            world = self.world()
            if world is None:
                break
            r = Rollout(self.obs, self.k, world)
            vals: dict[int, float] = {}
            for i in self.active:
                vals[i] = self.evaluate(r, self.cands[i])
                if time.perf_counter() > deadline and len(vals) < len(self.active):
                    return  # an unfinished world is dropped: every mean uses the same worlds
            for i, v in vals.items():
                self.values[i].append(v)
            self.worlds += 1
            if time.perf_counter() > deadline:
                return
            if self.worlds >= MIN_WORLDS:
                self.prune()

    def mean(self, i: int) -> float:
        v = self.values[i]
        return sum(v) / len(v) if v else float("-inf")

    def prune(self) -> None:
        """Drop candidates whose paired difference to the leader is clearly negative."""
        best = max(self.active, key=self.mean)
        n = len(self.values[best])
        keep = []
        for i in self.active:
            d = [a - b for a, b in zip(self.values[i][-n:], self.values[best])]
            m = sum(d) / n
            sd = (sum((x - m) ** 2 for x in d) / (n - 1)) ** 0.5
            if i == best or (m + 2.0 * sd / n**0.5 + 0.02 >= 0 and (i == 0 or sd > 0 or m)):
                keep.append(i)  # (a candidate that always ties the leader is dropped too)
        self.active = keep

    def best(self) -> list[str]:
        """The leader if it beats the basic choice (candidate 0) clearly on the same
        worlds; otherwise the basic choice (noise alone must not move the bot off it)."""
        if not self.worlds:
            return self.cands[0]
        best = max(self.active, key=lambda i: (self.mean(i), -i))
        if best == 0:
            return self.cands[0]
        n = len(self.values[best])
        d = [a - b for a, b in zip(self.values[best], self.values[0])]
        m = sum(d) / n
        sd = (sum((x - m) ** 2 for x in d) / max(n - 1, 1)) ** 0.5
        if n >= MIN_WORLDS and m > Z_KEEP * sd / n**0.5 + 0.01:
            return self.cands[best]
        return self.cands[0]
