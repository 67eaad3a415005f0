"""Throw penalties (RULES §5.3), kitty bonus (§6), level changes (§7.2), next dealer and
match end (§8), each under the table's Rules (docs/house-rules.md); a scored hand's
`HandResult`."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from .cards import RANKS, Play, points
from .order import TrumpContext
from .rules import DEFAULT_RULES, Rules
from .seats import next_seat, partner_of, same_team, team_of
from .shapes import requirements, split

MAX_KITTY_MULTIPLIER = 64  # RULES §6.1, decision V6
ACE = len(RANKS) - 1  # index of A, the last level (§8.1)
# House rule must_play: the ranks a climb may not pass over (A always but under "none").
MUST_PLAY_RANKS = {"a": ("A",), "5_10_k": ("5", "10", "K", "A"), "none": ()}


def throw_penalty(
    *, attempted: Sequence[str], forced: Sequence[str], penalty: int, rules: Rules = DEFAULT_RULES
) -> int:
    """The unsigned penalty of a failed throw (RULES §5.3): `penalty` is §5.3's (10 per card
    of every beatable component); house rules: none, or 10 per card taken back."""
    if rules.throw_penalty == "none":
        return 0
    if rules.throw_penalty == "per_card_back":
        return 10 * (len(attempted) - len(forced))
    return penalty


def kitty_multiplier(last_lead: Sequence[str], ctx: TrumpContext, rules: Rules = DEFAULT_RULES) -> int:
    """RULES §6.1: 2^k, k = cards in the largest component of the last trick's lead, capped
    at 64. House rules: `by_pairs` 2^(1 + pairs in the lead), uncapped; `double` ×2."""
    if rules.kitty_bonus == "double":
        return 2
    comps = split(last_lead, ctx)
    if rules.kitty_bonus == "by_pairs":
        return 1 << (1 + requirements(comps)[1])  # single ×2, pair ×4, two pairs ×8, ...
    k = max(comp.size for comp in comps)
    return min(1 << k, MAX_KITTY_MULTIPLIER)  # 2**k


def kitty_bonus(
    last_lead: Sequence[str],
    kitty: Sequence[str],
    ctx: TrumpContext,
    defenders_won: bool = True,
    rules: Rules = DEFAULT_RULES,
) -> int:
    """Points the buried kitty adds to the defenders (0 if the dealer team won, §6.2)."""
    if not defenders_won:
        return 0
    return points(kitty) * kitty_multiplier(last_lead, ctx, rules)


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
    rules: Rules = DEFAULT_RULES,
) -> tuple[int, int, int]:
    """(defenders' score, kitty multiplier, kitty bonus) at the end of a hand: trick points,
    the kitty bonus when the defenders took the last trick (§6), and penalties (§7.1)."""
    last_lead = last_plays[0][1]
    defenders_won = is_defender(last_winner, dealer)
    mult = kitty_multiplier(last_lead, ctx, rules) if defenders_won else 0
    bonus = kitty_bonus(last_lead, buried, ctx, defenders_won, rules)
    return trick_points + bonus + penalties, mult, bonus


def level_change(defenders_score: int, rules: Rules = DEFAULT_RULES) -> tuple[str, int]:
    """("dealer" | "defenders", levels) for a defenders' score (RULES §7.2; the house rule
    `level_steps = gentle`: 0 → dealer +2, 1-79 → +1; 80-119 take over, then +1 a further 80)."""
    s = max(defenders_score, 0)
    if rules.level_steps == "gentle":
        if s < 80:
            return "dealer", 2 if s == 0 else 1
        return "defenders", (s - 40) // 80  # 80-119: 0, 120-199: 1, 200-279: 2, ...
    if s == 0:
        return "dealer", 3
    if s < 40:
        return "dealer", 2
    if s < 80:
        return "dealer", 1
    return "defenders", (s - 80) // 40  # 80-119: 0, 120-159: 1, ... each 40 one more


def score_bands(rules: Rules = DEFAULT_RULES, upto: int = 200, step: int = 5) -> list[dict[str, Any]]:
    """RULES §7.2's scale as bands of the defenders' score, read off `level_change` itself
    (so every ruleset's scale comes from its one definition): [{"low", "high" (None: the
    last band, open-ended), "side", "levels"}], scores `step` apart (play scores in fives;
    the rules page reads every score, as the rulebook does), up to the band that holds
    `upto`; past it each `every` more points is one more level ("every" on the last band)."""
    bands: list[dict[str, Any]] = []
    for score in range(0, upto + 1, step):
        side, levels = level_change(score, rules)
        if bands and (bands[-1]["side"], bands[-1]["levels"]) == (side, levels):
            bands[-1]["high"] = score
        else:
            bands.append({"low": score, "high": score, "side": side, "levels": levels})
    last = bands[-1]
    last["high"], last["every"] = None, last["low"] - bands[-2]["low"] if len(bands) > 1 else step
    return bands


def climb(before: str, steps: int, rules: Rules = DEFAULT_RULES) -> tuple[str, bool]:
    """(level after climbing `steps` from `before`, whether the climb passed A).

    RULES §8.1: a climb stops at A. House rule must_play: it also stops on 5, 10 and K
    (`5_10_k`), or nothing stops it (`none`) and passing A wins the match (docs/house-rules.md).
    A climb stops on the first must-play rank it would pass over; the rank it starts on
    is not passed over (it is left), and landing on one is not passing it."""
    must = MUST_PLAY_RANKS[rules.must_play]
    start = RANKS.index(before)
    target = start + steps
    for rank in must:  # low to high: the first one passed over stops the climb
        if start < RANKS.index(rank) < target:
            return rank, False
    if target <= ACE:
        return RANKS[target], False
    # Beyond A. Where A must be played (§8.1, and 5_10_k) the climb stops at A, also when
    # it starts at A: a team already there does not pass it, it stays (§8.4 decides the
    # match). Only under must_play = none does a climb past A win the match.
    return "A", "A" not in must


def hand_outcome(
    dealer: int, levels: Mapping[str, str], defenders_score: int, rules: Rules = DEFAULT_RULES
) -> dict[str, Any]:
    """Levels after the hand, next dealer and match winner (RULES §7.2, §8).

    `levels` maps team ("0"/"1") to rank before the hand. Returns {"levels", "next_dealer"
    (None when the match is won), "winner" (team or None), "level_change" {"team",
    "levels": levels actually gained after the A cap}}."""
    dealer_team = team_of(dealer)
    defenders = 1 - dealer_team
    side, steps = level_change(defenders_score, rules)
    team = dealer_team if side == "dealer" else defenders
    after = {str(t): levels[str(t)] for t in (0, 1)}
    before = after[str(team)]
    after[str(team)], passed_a = climb(before, steps, rules)  # stops at A (§8.1)
    gained = RANKS.index(after[str(team)]) - RANKS.index(before)
    # §8.4: a team at A before the hand wins the match by winning this hand; house rule
    # match_end = dealer_at_a: only by winning it as the dealer team.
    at_a = levels[str(team)] == "A" and (rules.match_end == "pass_a" or side == "dealer")
    winner = team if at_a or passed_a else None
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


@dataclass(frozen=True)
class HandResult:
    """A scored hand (RULES §6–§8). `Game.result` and the `hand_scored` event hold its
    `to_json()`; the history's records and match files read it back with `from_json`."""

    hand_no: int
    dealer: int
    dealer_team: int
    level: str  # the hand's own level (the levels have moved on, §8)
    trump: str
    flipped: str | None  # the kitty card turned up to fix trump (§3.4), if one was
    declarations: tuple[Mapping[str, Any], ...]
    kitty: tuple[str, ...]  # as dealt (§4.1) ...
    buried: tuple[str, ...]  # ... and as the dealer buried it, which scores (§6)
    trick_points: int  # the defenders' points from tricks (§5.6)
    kitty_points: int
    kitty_multiplier: int  # 0 when the dealer's team took the last trick (§6.2)
    kitty_bonus: int
    penalties: int  # failed throws, as a change to the defenders' score (§5.3)
    defenders_score: int
    levels_before: Mapping[str, str]  # team ("0"/"1") -> level rank
    levels_after: Mapping[str, str]
    level_change: Mapping[str, int]  # {"team", "levels": gained after the A cap}
    next_dealer: int | None  # None once the match is won (§8.2)
    winner: int | None  # the team that won the match with this hand (§8.4)

    def to_json(self) -> dict[str, Any]:
        """A JSON object of its own (nothing shared with this value), in field order."""
        return {field.name: _json(getattr(self, field.name)) for field in fields(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "HandResult":
        """The value of a `to_json` object (a KeyError names a missing field)."""
        return cls(**{field.name: _frozen(data[field.name]) for field in fields(cls)})


def _json(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _json(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [_json(item) for item in value]
    return value


def _frozen(value: Any) -> Any:
    """JSON lists as tuples, objects copied: a HandResult shares nothing with its JSON."""
    if isinstance(value, Mapping):
        return {key: _frozen(item) for key, item in value.items()}
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value
