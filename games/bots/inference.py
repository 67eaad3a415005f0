"""What the public history suggests about the hidden hands (the expert bot's priors).

Shown voids and declared cards still held are certain and live in knowledge.py; these
are habits a strong player reads into the play, as weights on where an unseen card of a
suit-class lies (`strong.sample_world`'s `bias`: slot, suit-class -> multiplier):

- a declaration that was overridden still says its seat is long in that suit (§3.2);
- a defender who leads trumps early has many of them (a dealer-side lead says less:
  the dealer's team pulls trumps by habit, and its priors already give it more);
- a seat void in the led suit that discards a side suit is short or weak in it (the
  cards it wants to keep are elsewhere), unless it was feeding points to its partner;
- a seat void in the led suit that does not ruff a point trick the opponents are
  winning is likely short of trumps too.

Everything here reads the Observation only (honest by construction).
"""

from typing import Protocol

from games import engine
from games.engine.tricks import LeadRanking

from .cardsense import POINTS, TRUMP
from .observation import Observation

Bias = dict[tuple[int | str, str], float]


class Scale(Protocol):
    def __call__(self, seat: int, lc: str, w: float) -> None: ...


OVERRIDDEN_SUIT = 1.4
EARLY_TRUMP_LEAD = 1.35
EARLY_TRICKS = 8
DISCARDED_SUIT = 0.8
NO_RUFF_TRUMPS = 0.7
NO_RUFF_POINTS = 10  # a trick worth at least this much is one a player ruffs if it can
LOW, HIGH = 0.3, 2.5  # bounds on a combined weight


def history_bias(obs: Observation) -> Bias:
    """(seat, suit-class) -> weight for the seats other than `obs.seat`."""
    ctx = obs.ctx
    me, dealer = obs.seat, obs.dealer
    bias: Bias = {}

    def scale(seat: int, lc: str, w: float) -> None:
        if seat != me:
            bias[seat, lc] = min(HIGH, max(LOW, bias.get((seat, lc), 1.0) * w))

    final = obs.trump
    for seat, _cards, _strength, trump, _reinforce in obs.declarations:
        if trump != final and trump in engine.SUITS:
            scale(seat, trump, OVERRIDDEN_SUIT)  # a suit other than the final trump: its own class
    plays_list = [plays for _leader, plays, _winner, _points in obs.tricks]
    if obs.trick:
        plays_list.append(obs.trick)
    for i, plays in enumerate(plays_list):
        _read_trick(plays, i, ctx, dealer, scale)
    return bias


def _read_trick(
    plays: tuple[tuple[int, tuple[str, ...]], ...],
    index: int,
    ctx: engine.TrumpContext,
    dealer: int | None,
    scale: Scale,
) -> None:
    (leader, lead), *rest = plays
    cls = ctx.cls
    lc = cls[lead[0]]
    if lc == TRUMP and index < EARLY_TRICKS and dealer is not None and engine.is_defender(leader, dealer):
        scale(leader, TRUMP, EARLY_TRUMP_LEAD)
    if len(rest) < 1:
        return
    ranking = LeadRanking(list(lead), ctx)
    best_seat, best = leader, (0, ranking.lead_value)
    points_so_far = sum(POINTS[c] for c in lead)
    for seat, cards in rest:
        off = [c for c in cards if cls[c] != lc]
        if off and lc != TRUMP:
            ruffed = all(cls[c] == TRUMP for c in off)
            winning_side_is_partner = engine.same_team(best_seat, seat)
            feeding = winning_side_is_partner and any(POINTS[c] for c in off)
            for side in {cls[c] for c in off if cls[c] != TRUMP}:
                if not feeding:
                    scale(seat, side, DISCARDED_SUIT)
            single = len(lead) == 1  # a ruff of a longer lead needs a matching shape
            if single and not ruffed and not winning_side_is_partner and points_so_far >= NO_RUFF_POINTS:
                scale(seat, TRUMP, NO_RUFF_TRUMPS)
        rv = ranking.rank(list(cards))
        if rv is not None and rv > best:
            best_seat, best = seat, rv
        points_so_far += sum(POINTS[c] for c in cards)
