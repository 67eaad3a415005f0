"""Throw check (RULES §5.3) and trick winner (RULES §5.5)."""

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from .cards import Play, points
from .order import TRUMP_CLASS, TrumpContext
from .shapes import PAIR, SINGLE, fit_tractors, pair_positions, requirements, runs, split


class FailedThrow(TypedDict):
    """A throw that does not stand (§5.3): what is led instead, what could be beaten,
    and the penalty before its sign."""

    forced: list[str]
    beatable: list[dict[str, object]]
    penalty: int


# The hands by seat: a list, or a mapping keyed by seat (an int, or its JSON string).
Hands = Sequence[Sequence[str]] | Mapping[Any, Sequence[str]]


def _hand(hands: Hands, seat: int) -> Sequence[str]:
    if isinstance(hands, Mapping):
        return hands[seat] if seat in hands else hands[str(seat)]
    return hands[seat]


def check_throw(cards: Sequence[str], leader: int, hands: Hands, ctx: TrumpContext) -> FailedThrow | None:
    """Check a lead from one suit-class against the three other hands (partner included).

    Returns None when the lead stands (a single component, or no component can be beaten);
    otherwise {"forced": cards, "beatable": [component json], "penalty": points}.
    A component is beaten by a strictly higher component of the same shape held anywhere
    in another hand: a pair inside a tractor counts, a single inside a pair, a tractor
    inside a longer one. The forced component is the lowest-ranked beatable one (by its
    highest card; on a tie the one with fewer cards; then the later in display order).
    Penalty: 10 per card of every beatable component; the caller signs it."""
    comps = split(cards, ctx)
    if len(comps) < 2:
        return None
    cls, pos = ctx.cls, ctx.pos
    lc = cls[cards[0]]
    high_single = high_pair = -1
    tractor_runs: list[tuple[int, int]] = []
    for seat in range(4):
        if seat == leader:
            continue
        held = [c for c in _hand(hands, seat) if cls[c] == lc]
        if not held:
            continue
        high_single = max(high_single, max(pos[c] for c in held))
        pp = pair_positions(held, ctx)
        if pp:
            high_pair = max(high_pair, max(pp))
            tractor_runs += [r for r in runs(pp) if r[1] >= 2]
    beatable = []
    for i, comp in enumerate(comps):
        if comp.kind == SINGLE:
            beaten = high_single > comp.top
        elif comp.kind == PAIR:
            beaten = high_pair > comp.top
        else:
            beaten = any(length >= comp.pairs and top > comp.top for top, length in tractor_runs)
        if beaten:
            beatable.append((comp.top, comp.size, -i, comp))
    if not beatable:
        return None
    forced = min(beatable, key=lambda t: t[:3])[3]
    return {
        "forced": list(forced.cards),
        "beatable": [b[3].to_json() for b in beatable],
        "penalty": 10 * sum(b[1] for b in beatable),
    }


def play_value(cards: Sequence[str], ctx: TrumpContext, reqs: Sequence[int], pairs: int) -> int | None:
    """Value of a one-suit-class play that matches the lead's structure, else None.

    Matching: at least the lead's tractors (a longer one may be split) and at least its
    pairs (pairs in tractors count). Value: the highest component of the lead's largest
    kind in any matching reading (RULES §5.5)."""
    if not pairs:
        pos = ctx.pos
        return max(pos[c] for c in cards)
    pp = pair_positions(cards, ctx)
    if sum(pp.values()) < pairs:
        return None
    if reqs:
        fit, placed = fit_tractors(pp, reqs)
        if not all(fit):
            return None
        # fit_tractors tries the longest requirement's placements highest first, so the
        # first full fit has the best top for the lead's largest kind.
        return placed[0][0]
    return max(pp)


class LeadRanking:
    """How plays compare in a trick with this lead (RULES §5.5), worked out once.

    `rank(cards)` is (0 following / 1 ruffing, value) for a play that can take the trick,
    None for one that cannot (a discard, a mixed play, a follow to a successful throw);
    the lead itself ranks (0, `lead_value`). Higher wins; on a tie the earlier play stays
    ahead (§2.5)."""

    __slots__ = ("ctx", "lc", "lead_value", "n", "pairs", "reqs", "throw")

    def __init__(self, lead: Sequence[str], ctx: TrumpContext) -> None:
        self.ctx = ctx
        self.n = len(lead)
        self.lc = ctx.cls[lead[0]]
        comps = split(lead, ctx) if self.n > 1 else None
        self.reqs, self.pairs = requirements(comps) if comps else ([], 0)
        self.throw = comps is not None and len(comps) > 1
        value = play_value(lead, ctx, self.reqs, self.pairs)
        assert value is not None  # a lead always matches its own structure
        self.lead_value: int = value

    def rank(self, cards: Sequence[str]) -> tuple[int, int] | None:
        ctx = self.ctx
        cls = ctx.cls
        pc = cls[cards[0]]
        if self.n == 1:  # the common case, without the structure test
            if pc == self.lc:
                return 0, ctx.pos[cards[0]]
            return (1, ctx.pos[cards[0]]) if pc == TRUMP_CLASS else None
        if any(cls[c] != pc for c in cards):
            return None  # a mixed play is a discard
        if pc == self.lc:
            if self.throw:
                return None  # a successful throw cannot be beaten in its own suit
            rank = 0
        elif pc == TRUMP_CLASS:
            rank = 1  # ruff of a non-trump lead
        else:
            return None  # discard
        v = play_value(cards, ctx, self.reqs, self.pairs)
        return None if v is None else (rank, v)


def trick_winner(plays: Sequence[Play], ctx: TrumpContext) -> int:
    """Seat currently winning a trick; `plays` = [[seat, cards], ...], lead first.

    Works on partial tricks too. Equal values: the earlier play stays ahead (§2.5)."""
    lead_seat: int = plays[0][0]
    ranking = LeadRanking(plays[0][1], ctx)
    best_seat, best = lead_seat, (0, ranking.lead_value)
    for seat, cards in plays[1:]:
        rv = ranking.rank(cards)
        if rv is not None and rv > best:
            best_seat, best = seat, rv
    return best_seat


def trick_points(plays: Sequence[Play]) -> int:
    return sum(points(cards) for _, cards in plays)
