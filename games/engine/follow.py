"""Whether a follow is legal (RULES §5.4).

The play must: have as many cards as the lead; come from the led suit-class as far as
the hand allows; and, among led-suit cards, reach the most structure the hand allows —
the lead's tractors first (longest first), then its pairs (pairs in tractors count).
That is a lexicographic profile (tractor requirements met, pairs up to the lead's
count); a play is legal when its profile equals the best one the hand can reach.
"""

from collections.abc import Sequence

from .cards import SUIT_SYMBOLS, holds
from .errors import Refusal, rule_refusal
from .order import TRUMP_CLASS, TrumpContext
from .shapes import Component, fit_tractors, pair_positions, requirements, split


def lead_refusal(hand: Sequence[str], cards: Sequence[str], ctx: TrumpContext) -> Refusal | None:
    """Why `cards` cannot be led from `hand` (RULES §5.2), else None: a lead is one or
    more held cards of one suit-class. (A throw may still fail its check, §5.3.)"""
    if not cards:
        return rule_refusal("empty_play")
    if not holds(hand, cards):
        return rule_refusal("cards_not_in_hand")
    cls = ctx.cls
    c0 = cls[cards[0]]
    if any(cls[c] != c0 for c in cards):
        return rule_refusal("mixed_lead")
    return None


def suit_error(lead_class: str, all_of_it: bool) -> Refusal:
    """The must-follow error naming the led suit-class (no hidden information)."""
    if lead_class == TRUMP_CLASS:
        return rule_refusal("must_play_all_trump" if all_of_it else "must_follow_trump")
    return rule_refusal("must_play_all_suit" if all_of_it else "must_follow_suit", suit=SUIT_SYMBOLS[lead_class])


def structure_error(
    lead: Sequence[str],
    hand: Sequence[str],
    play: Sequence[str],
    ctx: TrumpContext,
    lead_comps: Sequence[Component] | None = None,
) -> Refusal | None:
    """Refusal when `play` (all in the led suit-class) shows less structure than the
    hand could, else None. `hand` and `play` hold only led-suit cards here."""
    reqs, pairs_led = requirements(lead_comps if lead_comps is not None else split(lead, ctx))
    if not pairs_led:
        return None
    hand_pp = pair_positions(hand, ctx)
    if not hand_pp:
        return None
    play_pp = pair_positions(play, ctx)
    if reqs:
        hand_fit, _ = fit_tractors(hand_pp, reqs)
        play_fit, _ = fit_tractors(play_pp, reqs)
        if play_fit != hand_fit:
            missing = next(n for n, h, p in zip(reqs, hand_fit, play_fit) if h and not p)
            return rule_refusal("must_play_tractor", length=missing)
    need = min(pairs_led, sum(hand_pp.values()))
    if min(pairs_led, sum(play_pp.values())) < need:
        return rule_refusal("must_play_pairs", count=need)
    return None


def is_legal_follow(
    lead: Sequence[str],
    hand: Sequence[str],
    play: Sequence[str],
    ctx: TrumpContext,
    lead_comps: Sequence[Component] | None = None,
) -> tuple[bool, Refusal | None]:
    """(True, None) if `play` is a legal follow to `lead` from `hand`, else (False, Refusal).

    `hand` is the follower's whole hand (including `play`)."""
    n = len(lead)
    if len(play) != n:
        return False, rule_refusal("wrong_card_count", count=n)
    if not holds(hand, play):
        return False, rule_refusal("cards_not_in_hand")
    cls = ctx.cls
    lc = cls[lead[0]]
    hand_c = [c for c in hand if cls[c] == lc]
    play_c = [c for c in play if cls[c] == lc]
    if len(hand_c) < n:
        # Short in the led suit: all of it, then anything (ruff or discard, §5.4).
        if len(play_c) < len(hand_c):
            return False, suit_error(lc, True)
        return True, None
    if len(play_c) < n:
        return False, suit_error(lc, False)
    if len(hand_c) == n:
        return True, None
    err = structure_error(lead, hand_c, play_c, ctx, lead_comps)
    return (err is None), err
