"""Kitty bonus (RULES §6), level changes (§7.2), next dealer and match end (§8)."""

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import RANKS, Play, next_level, points
from .order import TrumpContext
from .seats import next_seat, partner_of, same_team, team_of
from .shapes import split

MAX_KITTY_MULTIPLIER = 64  # RULES §6.1, decision V6


def kitty_multiplier(last_lead: Sequence[str], ctx: TrumpContext) -> int:
    """2^k, k = cards in the largest component of the last trick's lead, capped at 64."""
    k = max(comp.size for comp in split(last_lead, ctx))
    return min(1 << k, MAX_KITTY_MULTIPLIER)  # 2**k


def kitty_bonus(last_lead: Sequence[str], kitty: Sequence[str], ctx: TrumpContext, defenders_won: bool = True) -> int:
    """Points the buried kitty adds to the defenders (0 if the dealer team won, §6.2)."""
    if not defenders_won:
        return 0
    return points(kitty) * kitty_multiplier(last_lead, ctx)


def is_defender(seat: int, dealer: int) -> bool:
    """Whether `seat` is on the defending team of a hand dealt by `dealer` (RULES §2.1)."""
    return not same_team(seat, dealer)


def penalty_delta(*, seat: int, dealer: int, penalty: int) -> int:
    """A failed throw's penalty as a change to the defenders' score (RULES §5.3): it counts
    for the defenders when the dealer's team threw, against them when they did."""
    return penalty if same_team(seat, dealer) else -penalty


def hand_score(
    *,
    last_plays: Sequence[Play],
    last_winner: int,
    buried: Sequence[str],
    dealer: int,
    trick_points: int,
    penalties: int,
    ctx: TrumpContext,
) -> tuple[int, int, int]:
    """(defenders' score, kitty multiplier, kitty bonus) at the end of a hand: trick points,
    the kitty bonus when the defenders took the last trick (§6), and penalties (§7.1)."""
    last_lead = last_plays[0][1]
    defenders_won = is_defender(last_winner, dealer)
    mult = kitty_multiplier(last_lead, ctx) if defenders_won else 0
    bonus = kitty_bonus(last_lead, buried, ctx, defenders_won)
    return trick_points + bonus + penalties, mult, bonus


def level_change(defenders_score: int) -> tuple[str, int]:
    """("dealer" | "defenders", levels) for a defenders' score (RULES §7.2)."""
    s = max(defenders_score, 0)
    if s == 0:
        return "dealer", 3
    if s < 40:
        return "dealer", 2
    if s < 80:
        return "dealer", 1
    return "defenders", (s - 80) // 40  # 80-119: 0, 120-159: 1, ... each 40 one more


def hand_outcome(dealer: int, levels: Mapping[str, str], defenders_score: int) -> dict[str, Any]:
    """Levels after the hand, next dealer and match winner (RULES §7.2, §8).

    `levels` maps team ("0"/"1") to rank before the hand. Returns {"levels", "next_dealer"
    (None when the match is won), "winner" (team or None), "level_change" {"team",
    "levels": levels actually gained after the A cap}}."""
    dealer_team = team_of(dealer)
    defenders = 1 - dealer_team
    side, steps = level_change(defenders_score)
    team = dealer_team if side == "dealer" else defenders
    after = {str(t): levels[str(t)] for t in (0, 1)}
    before = after[str(team)]
    after[str(team)] = next_level(before, steps)  # stops at A (§8.1)
    gained = RANKS.index(after[str(team)]) - RANKS.index(before)
    # §8.4: a team at A before the hand wins the match by winning this hand.
    winner = team if levels[str(team)] == "A" else None
    if winner is not None:
        next_dealer = None
    elif side == "dealer":
        next_dealer = partner_of(dealer)  # the dealer's partner (§8.2)
    else:
        next_dealer = next_seat(dealer)  # the player after the dealer (§8.2)
    return {
        "levels": after,
        "next_dealer": next_dealer,
        "winner": winner,
        "level_change": {"team": team, "levels": gained},
    }
