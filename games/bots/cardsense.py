"""Small card helpers shared by the bots: values, grouping, candidate follows and ruffs.

Every play built here is checked legal by the caller's policy through `is_legal_follow`
(follows) or is a lead from one suit-class (always legal to attempt, RULES §5.2); when
there are few legal follows, the engine lists them (`legal_follows`).
"""

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from games import engine
from games.engine.order import TrumpContext
from games.engine.shapes import fit_tractors, requirements, split

TRUMP = engine.TRUMP_CLASS
POINTS = {c: engine.points([c]) for c in engine.CODES}
ENUM_CAP = 60


def keep_value(card: str, ctx: TrumpContext) -> int:
    """How much a card is worth keeping (higher = better card): trumps above all."""
    if ctx.cls[card] == TRUMP:
        return 14 + ctx.pos[card]
    return ctx.pos[card]


def play_cost(cards: Iterable[str], hand_counts: Mapping[str, int], ctx: TrumpContext) -> float:
    """What playing `cards` gives up: their keep values, plus broken pairs."""
    cost = 0.0
    used = Counter(cards)
    for c, n in used.items():
        cost += keep_value(c, ctx) * n
        if hand_counts[c] == 2 and n == 1:
            cost += 4  # a pair broken
    return cost


def by_class(cards: Iterable[str], ctx: TrumpContext) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in cards:
        out.setdefault(ctx.cls[c], []).append(c)
    return out


def pick_cards(pool: Iterable[str], need: int, key: Callable[[str], tuple[object, ...]]) -> list[str]:
    """`need` cards of `pool` with the smallest key."""
    return sorted(pool, key=key)[:need]


def structured(
    pool: Iterable[str], lead: Sequence[str], ctx: TrumpContext, high: bool, rich: bool = False
) -> list[str]:
    """Cards from `pool` (one suit-class) with as much of the lead's structure as the
    pool allows: its tractors, then pairs, then singles; high or low pieces (`rich`:
    point cards first among the singles)."""
    n = len(lead)
    reqs, pairs_led = requirements(split(lead, ctx)) if n > 1 else ([], 0)
    counts = Counter(pool)
    chosen: list[str] = []
    if reqs:
        by_pos: dict[int, list[str]] = {}
        for c, m in counts.items():
            if m >= 2:
                by_pos.setdefault(ctx.pos[c], []).append(c)
        _, placed = fit_tractors({p: len(v) for p, v in by_pos.items()}, reqs)
        for top, length in placed:
            for p in range(top, top - length, -1):
                c = by_pos[p].pop()
                chosen += [c, c]
                counts[c] -= 2
    pairs_left = pairs_led - len(chosen) // 2
    if pairs_left > 0:
        pp = sorted((c for c, m in counts.items() if m >= 2), key=lambda c: ctx.pos[c], reverse=high)
        for c in pp[:pairs_left]:
            chosen += [c, c]
            counts[c] -= 2
    left = list(counts.elements())
    # Singles: keep pairs whole where possible.
    cnt = Counter(left)
    sign = -1 if high else 1
    if rich:
        left.sort(key=lambda c: (cnt[c] >= 2, -POINTS[c], sign * ctx.pos[c]))
    else:
        left.sort(key=lambda c: (cnt[c] >= 2, POINTS[c] > 0 and not high, sign * ctx.pos[c]))
    return chosen + left[: n - len(chosen)]


def follow_options(lead: Sequence[str], hand: Sequence[str], ctx: TrumpContext) -> list[list[str]]:
    """A small set of distinct legal follows to `lead` covering the useful choices:
    every choice when there are few; else low, high and point-rich constructions;
    plus discards and matching ruffs when short in the led suit-class."""
    n = len(lead)
    lc = ctx.cls[lead[0]]
    suit = [c for c in hand if ctx.cls[c] == lc]
    rest = [c for c in hand if ctx.cls[c] != lc]
    out: list[list[str]] = []
    if len(suit) <= n:
        need = n - len(suit)
        if need == 0:
            return [suit]

        def low(c: str) -> tuple[bool, bool, int]:
            return ctx.cls[c] == TRUMP, POINTS[c] > 0, keep_value(c, ctx)

        def rich(c: str) -> tuple[bool, int, int]:
            return ctx.cls[c] == TRUMP, -POINTS[c], keep_value(c, ctx)

        out.append(suit + pick_cards(rest, need, low))
        out.append(suit + pick_cards(rest, need, rich))
        if not suit and lc != TRUMP:
            trumps = [c for c in rest if ctx.cls[c] == TRUMP]
            if len(trumps) >= n:
                out += ruff_options(lead, trumps, ctx)
    elif n == 1:
        out = [[c] for c in dict.fromkeys(suit)]  # distinct, in hand order (not hash order)
    else:
        comps = split(lead, ctx)
        _reqs, pairs_led = requirements(comps)
        pairs = [c for c, m in Counter(suit).items() if m >= 2]
        if pairs_led == 0 or not pairs:
            # no structure to keep to: any n suit cards are legal (RULES §5.4)
            out = [
                structured(suit, lead, ctx, False),
                structured(suit, lead, ctx, False, True),
                structured(suit, lead, ctx, True),
            ]
        elif n == 2:
            out = [[c, c] for c in pairs]
        else:
            combos = engine.legal_follows(lead, hand, ctx, cap=ENUM_CAP)
            if combos is not None:
                out = combos
            else:
                out = []
                for high, point_rich in ((False, False), (True, False), (False, True)):
                    p = structured(suit, lead, ctx, high, point_rich)
                    if engine.is_legal_follow(lead, hand, p, ctx, comps)[0]:
                        out.append(p)
    if not out:  # not reached in practice: a random legal follow, built by the engine
        out = [engine.sample_hand_play(hand=list(hand), trick=[(1, list(lead))], ctx=ctx, rng=random.Random(0))]
    return _dedupe(out)


def ruff_options(lead: Sequence[str], trumps: Sequence[str], ctx: TrumpContext) -> list[list[str]]:
    n = len(lead)
    if n == 1:
        return [[c] for c in dict.fromkeys(trumps)]  # distinct, in hand order
    reqs, pairs_led = requirements(split(lead, ctx))
    if not reqs and pairs_led == 0:
        # singles only: the n highest (surest) and the n lowest trumps
        s = sorted(trumps, key=lambda c: ctx.pos[c])
        return [s[:n], s[-n:]]
    return [structured(trumps, lead, ctx, high) for high in (False, True)]


def _dedupe(plays: Iterable[list[str]]) -> list[list[str]]:
    seen: set[tuple[str, ...]] = set()
    out: list[list[str]] = []
    for p in plays:
        key = tuple(sorted(p))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out
