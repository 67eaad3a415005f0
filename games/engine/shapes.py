"""Shapes of a set of cards: singles, pairs, tractors, throws (RULES §5.1, §5.3).

A tractor is n >= 2 pairs on consecutive positions of the TrumpContext; positions that
hold several equal cards (other-suit level cards, other-suit 2s) count once, so two
pairs on one position never form a tractor together (§5.1).
"""

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .order import TrumpContext

SINGLE, PAIR, TRACTOR = "single", "pair", "tractor"


class Component:
    """One piece of a split: a single, a pair or a tractor of `pairs` pairs.

    `top` is the position of its highest card (a component ranks by it, §5.3)."""

    __slots__ = ("cards", "kind", "pairs", "top")

    def __init__(self, kind: str, pairs: int, top: int, cards: list[str]) -> None:
        self.kind, self.pairs, self.top, self.cards = kind, pairs, top, cards

    @property
    def size(self) -> int:
        return len(self.cards)

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"shape": self.kind, "cards": list(self.cards)}
        if self.kind == TRACTOR:
            d["length"] = self.pairs
        return d

    def __repr__(self) -> str:
        return f"Component({self.kind}, {self.cards})"


def pair_codes(cards: Iterable[str]) -> list[str]:
    """Codes held twice in `cards` (each one is a pair; only two copies exist)."""
    return [c for c, n in Counter(cards).items() if n >= 2]


def pair_positions(cards: Iterable[str], ctx: TrumpContext) -> dict[int, int]:
    """{position: number of distinct pairs on it} for cards of one suit-class."""
    out: dict[int, int] = {}
    pos = ctx.pos
    for c, n in Counter(cards).items():
        if n >= 2:
            p = pos[c]
            out[p] = out.get(p, 0) + 1
    return out


def runs(positions: Iterable[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive positions, as (top, length), highest first."""
    result: list[tuple[int, int]] = []
    top = prev = -1  # no run yet: positions are >= 0
    for p in sorted(positions, reverse=True):
        if top >= 0 and p == prev - 1:
            prev = p
            continue
        if top >= 0:
            result.append((top, top - prev + 1))
        top = prev = p
    if top >= 0:
        result.append((top, top - prev + 1))
    return result


def split(cards: Iterable[str], ctx: TrumpContext) -> list[Component]:
    """Greedy split of one suit-class's cards, longest first (RULES §5.3 [choice]).

    Longest tractors first (on equal length the highest), then pairs, then singles.
    When several pairs share a position, the one first in §2.6 display order joins
    the tractor. Components come out highest-ranked first."""
    pos, key = ctx.pos, ctx.key
    counts = Counter(cards)
    by_pos: dict[int, list[str]] = {}
    for c in sorted(counts, key=key.__getitem__):
        if counts[c] >= 2:
            by_pos.setdefault(pos[c], []).append(c)
    comps: list[Component] = []
    while True:
        best: tuple[int, int] | None = None
        for top, length in runs([p for p, lst in by_pos.items() if lst]):
            if length >= 2 and (best is None or length > best[1]):
                best = (top, length)
        if best is None:
            break
        top, length = best
        tcards: list[str] = []
        for p in range(top, top - length, -1):
            c = by_pos[p].pop(0)
            tcards += [c, c]
            counts[c] -= 2
        comps.append(Component(TRACTOR, length, top, tcards))
    for p, lst in by_pos.items():
        for c in lst:
            counts[c] -= 2
            comps.append(Component(PAIR, 1, p, [c, c]))
    for c, n in counts.items():
        for _ in range(n):
            comps.append(Component(SINGLE, 0, pos[c], [c]))
    comps.sort(key=lambda k: (-k.top, -k.size, key[k.cards[0]]))
    return comps


def shape_of(cards: Sequence[str], ctx: TrumpContext) -> dict[str, Any]:
    """{"shape": single|pair|tractor|throw|mixed|empty, ["length": n]} (RULES §5.1)."""
    if not cards:
        return {"shape": "empty"}
    if len({ctx.cls[c] for c in cards}) > 1:
        return {"shape": "mixed"}
    comps = split(cards, ctx)
    if len(comps) > 1:
        return {"shape": "throw"}
    comp = comps[0]
    if comp.kind == TRACTOR:
        return {"shape": TRACTOR, "length": comp.pairs}
    return {"shape": comp.kind}


def requirements(comps: Iterable[Component]) -> tuple[list[int], int]:
    """What a lead asks of followers and ruffs: (tractor lengths longest first, pairs).

    Pairs count the pairs inside tractors too (RULES §5.4, §5.5)."""
    comps = list(comps)
    tractors = sorted((k.pairs for k in comps if k.kind == TRACTOR), reverse=True)
    pairs = sum(k.pairs for k in comps)
    return tractors, pairs


def fit_tractors(
    counts: Mapping[int, int], reqs: Sequence[int], rng: random.Random | None = None
) -> tuple[tuple[bool, ...], list[tuple[int, int]]]:
    """Best way to carve disjoint tractors of lengths `reqs` (in order) out of pairs.

    `counts` is {position: pairs on it}. Returns (satisfied, placements): `satisfied`
    is the lexicographically greatest tuple of booleans (earlier = longer requirement
    wins, RULES §5.4 "the lead's tractors first, longest first"), `placements` a list of
    (top, length) achieving it. A longer held tractor may serve several requirements.
    With `rng`, ties between placements are broken at random (for sample_play)."""
    if not reqs:
        return (), []
    if not counts:
        return (False,) * len(reqs), []
    positions = sorted(counts)
    search = _TractorFit(reqs, positions, rng)
    sat, placed = search.best(0, tuple(counts[p] for p in positions))
    return sat, list(placed)


Placed = tuple[tuple[int, int], ...]


class _TractorFit:
    """fit_tractors' search. A class rather than a recursive closure: a nested function
    that calls itself is a reference cycle (function, cell), garbage only the full
    collection finds, made on every call in the hottest path of the server and the bots."""

    __slots__ = ("index", "memo", "positions", "reqs", "rng")

    def __init__(self, reqs: Sequence[int], positions: list[int], rng: random.Random | None) -> None:
        self.reqs, self.positions, self.rng = reqs, positions, rng
        self.index = {p: i for i, p in enumerate(positions)}
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[tuple[bool, ...], Placed]] = {}

    # The objective is lexicographic in requirement order, so the best suffix from
    # (i, remaining pairs) does not depend on earlier choices: memoise on that state.
    def best(self, i: int, state: tuple[int, ...]) -> tuple[tuple[bool, ...], Placed]:
        reqs, index, memo = self.reqs, self.index, self.memo
        if i == len(reqs):
            return (), ()
        key = (i, state)
        if key in memo:
            return memo[key]
        n = reqs[i]
        starts = [top for top in self.positions if all(top - k in index and state[index[top - k]] for k in range(n))]
        if self.rng is not None:
            self.rng.shuffle(starts)
        else:
            starts.reverse()  # highest first: trick_winner relies on it
        result: tuple[tuple[bool, ...], Placed] | None = None
        for top in starts:
            nxt = list(state)
            for k in range(n):
                nxt[index[top - k]] -= 1
            sat, placed = self.best(i + 1, tuple(nxt))
            cand: tuple[tuple[bool, ...], Placed] = ((True,) + sat, ((top, n),) + placed)
            if result is None or cand[0] > result[0]:
                result = cand
                if all(cand[0]):
                    break
        if result is None or not all(result[0]):
            sat, placed = self.best(i + 1, state)
            cand = ((False,) + sat, placed)
            if result is None or cand[0] > result[0]:
                result = cand
        memo[key] = result
        return result
