"""Throw check (RULES §5.3) and trick winner (RULES §5.5)."""
from .cards import points
from .order import TRUMP_CLASS
from .shapes import PAIR, SINGLE, TRACTOR, fit_tractors, pair_positions, requirements, runs, split


def _hand(hands, seat):
    if isinstance(hands, dict):
        return hands[seat] if seat in hands else hands[str(seat)]
    return hands[seat]


def check_throw(cards, leader, hands, ctx):
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
    tractor_runs = []
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


def _largest_kind(reqs, pairs):
    return TRACTOR if reqs else PAIR if pairs else SINGLE


def play_value(cards, ctx, reqs, pairs):
    """Value of a one-suit-class play that matches the lead's structure, else None.

    Matching: at least the lead's tractors (a longer one may be split) and at least its
    pairs (pairs in tractors count). Value: the highest component of the lead's largest
    kind in any matching reading (RULES §5.5)."""
    pp = pair_positions(cards, ctx) if pairs else None
    if pairs and sum(pp.values()) < pairs:
        return None
    if reqs:
        fit, placed = fit_tractors(pp, reqs)
        if not all(fit):
            return None
        # fit_tractors tries the longest requirement's placements highest first, so the
        # first full fit has the best top for the lead's largest kind.
        return placed[0][0]
    if pairs:
        return max(pp)
    pos = ctx.pos
    return max(pos[c] for c in cards)


def trick_winner(plays, ctx):
    """Seat currently winning a trick; `plays` = [[seat, cards], ...], lead first.

    Works on partial tricks too. Equal values: the earlier play stays ahead (§2.5)."""
    lead_seat, lead = plays[0]
    cls = ctx.cls
    lc = cls[lead[0]]
    comps = split(lead, ctx)
    reqs, pairs = requirements(comps)
    throw = len(comps) > 1
    best_seat, best = lead_seat, (0, play_value(lead, ctx, reqs, pairs))
    for seat, cards in plays[1:]:
        pc = cls[cards[0]]
        if any(cls[c] != pc for c in cards):
            continue  # a mixed play is a discard
        if pc == lc:
            if throw:
                continue  # a successful throw cannot be beaten in its own suit
            rank = 0
        elif pc == TRUMP_CLASS:
            rank = 1  # ruff of a non-trump lead
        else:
            continue  # discard
        v = play_value(cards, ctx, reqs, pairs)
        if v is not None and (rank, v) > best:
            best_seat, best = seat, (rank, v)
    return best_seat


def trick_points(plays):
    return sum(points(cards) for _, cards in plays)
