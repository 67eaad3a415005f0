"""The basic bot: a rule-based player with sound habits.

Declare a suit the hand is long in; bury low non-point cards and void a short suit when
it is cheap (keep trumps); lead safe winners (throwing them together when every part is
the highest left), pull trumps as a trump-rich dealer team, lead pairs, feed a partner's
void; follow by scoring a few legal candidates: the chance our team takes the trick
times its points, minus what the cards are worth keeping (win cheaply, give points to a
partner who is surely winning, never waste trumps on a trick that is already ours).
"""

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games import engine
from games.engine.order import TrumpContext
from games.engine.shapes import split
from games.engine.tricks import LeadRanking

from .cardsense import POINTS, TRUMP, by_class, follow_options, play_cost
from .knowledge import BotTrick, Knowledge
from .observation import Observation

Scored = list[tuple[float, list[str]]]  # candidate plays with their scores

COST_WEIGHT = 0.5
LEAD_VALUE = 3.0


# --- declarations (RULES §3) -------------------------------------------------------
def trump_share(cards: Sequence[str], level: str, trump: str, twos: bool = True) -> float:
    """Fraction of `cards` that would be trumps if `trump` ("NT" or a suit) were fixed
    (`twos`: the table's 2s are permanent trumps, RULES §2.2)."""
    if not cards:
        return 0.0
    ctx = engine.context(level, trump, twos)
    return sum(1 for c in cards if ctx.is_trump(c)) / len(cards)


def decide_declaration(obs: Observation) -> list[str] | None:
    """Cards to declare now, or None. Callable at any point of the deal (RULES §3.1)."""
    if not obs.can_declare:
        return None
    mine = list(obs.hand)
    standing = obs.standing
    if standing and standing[0] == obs.seat:
        mine += standing[1]
    size = len(mine)
    if size < 8:
        return None
    end = obs.phase == "last_chance" or obs.dealt >= engine.DEALT_CARDS
    progress = min(1.0, size / 25)
    # An observation-like object without rules (a hand-made one) plays RULES.md.
    twos = getattr(obs, "rules", engine.DEFAULT_RULES).permanent_twos
    best: tuple[tuple[float, int], list[str]] | None = None
    for cards in obs.can_declare:
        if standing and standing[0] == obs.seat and len(cards) == 1 and standing[2] == 1:
            return list(cards)  # self-reinforce (§3.2): a pair cannot be overridden cheaply
        found = engine.declaration_of(list(cards), obs.level)
        assert found is not None  # can_declare lists declarations only
        strength, trump = found
        share = trump_share(mine, obs.level, trump, twos)
        need = 0.24 if trump == "NT" else 0.5 - 0.08 * progress - (0.06 if end else 0.0)
        if standing and engine.same_team(standing[0], obs.seat):
            need += 0.15  # partner's declaration stands: override only with a far better suit
        if share >= need and (best is None or (share, strength) > best[0]):
            best = ((share, strength), list(cards))
    return best[1] if best else None


# --- bury (RULES §4) ---------------------------------------------------------------
def bury_cost(card: str, ctx: TrumpContext, counts: Mapping[str, int]) -> float:
    if ctx.cls[card] == TRUMP:
        return 40 + ctx.pos[card]
    return ctx.pos[card] + (6 if counts[card] >= 2 else 0) + 0.8 * POINTS[card]


def decide_bury(obs: Observation) -> list[str]:
    return bury_options(obs)[0][1]


def bury_options(obs: Observation) -> Scored:
    """Candidate burys [(cost, cards)], cheapest first: for every set of non-trump suits
    that fits in 8 cards, void them and fill up with the cheapest other cards (trumps,
    points, pairs and high cards cost most); voiding a suit earns a bonus."""
    ctx = obs.ctx
    hand = list(obs.hand)
    counts = Counter(hand)
    groups = by_class(hand, ctx)
    suits = [s for s in groups if s != TRUMP]
    cost = {c: bury_cost(c, ctx, counts) for c in counts}
    out: Scored = []
    for mask in range(1 << len(suits)):
        voided = [s for i, s in enumerate(suits) if mask >> i & 1]
        chosen = [c for s in voided for c in groups[s]]
        if len(chosen) > 8:
            continue
        rest = sorted((c for c in hand if ctx.cls[c] not in voided), key=cost.__getitem__)
        chosen += rest[: 8 - len(chosen)]
        out.append((sum(cost[c] for c in chosen) - 7 * len(voided), chosen))
    out.sort(key=lambda o: o[0])
    return out


# --- play (RULES §5) ---------------------------------------------------------------
def decide_play(obs: Observation) -> list[str]:
    k = Knowledge.from_observation(obs)
    k.kitty_points = kitty_estimate(obs, k)
    if not k.trick:
        return lead(k)
    return follow(k)


def kitty_estimate(obs: Observation, k: Knowledge) -> float:
    if obs.kitty is not None and obs.phase == "play":
        return engine.points(list(obs.kitty))
    return kitty_guess(k)


def kitty_guess(k: Knowledge) -> float:
    """Expected points in a bury this seat has not seen."""
    unseen = sum(k.unseen.values())
    if not unseen:
        return 0
    pts = sum(POINTS[c] * n for c, n in k.unseen.items())
    return 0.5 * pts * 8 / unseen  # dealers bury few points


def lead(k: Knowledge) -> list[str]:
    return max(lead_options(k), key=lambda o: o[0])[1]


def lead_options(k: Knowledge) -> Scored:
    """Scored candidate leads [(score, cards)], from one suit-class each."""
    ctx, me = k.ctx, k.seat
    hand = k.hand
    groups = by_class(hand, ctx)
    opps = [engine.next_seat(me), engine.next_seat(me, 3)]
    partner = engine.partner_of(me)
    dealer_team = k.dealer is not None and engine.same_team(me, k.dealer)
    options: list[tuple[float, Sequence[str]]] = []
    for lc, cards in groups.items():
        comps = split(cards, ctx)
        masters = [c for c in comps if k.comp_is_master(c, lc)]
        trump = lc == TRUMP
        ruff_risk = (not trump) and any(k.may_ruff(o, lc) for o in opps)
        if masters and not ruff_risk:
            throw = [c for m in masters for c in m.cards]
            options.append(
                (60 + 2 * len(throw) + sum(POINTS[c] for c in throw) - (15 if trump and not dealer_team else 0), throw)
            )
        for comp in comps:
            if comp.kind == "single":
                continue
            score = 30 + 3 * comp.size - ctx.pos[comp.cards[0]] * 0.5
            if trump:
                score -= 8
            if ruff_risk:
                score -= 20
            score -= POINTS[comp.cards[0]] * (0 if comp in masters else 1.2)
            options.append((score, comp.cards))
        if trump:
            n_trumps = len(cards)
            unseen_trumps = k.unseen_count(TRUMP)
            if dealer_team and n_trumps >= 6 and n_trumps >= unseen_trumps * 0.6:
                top = max(cards, key=lambda c: ctx.pos[c])
                options.append((35 if k.comp_is_master(split([top], ctx)[0], TRUMP) else 18, [top]))
            continue
        low = min(cards, key=lambda c: (POINTS[c] > 0, ctx.pos[c]))
        score = 10 + len(cards) * 0.5 - POINTS[low] - ctx.pos[low] * 0.3
        partner_ruffs = lc in k.voids[partner] and TRUMP not in k.voids[partner]
        if partner_ruffs and not any(k.may_ruff(o, lc) for o in opps):
            score += 25
        if ruff_risk:
            score -= 12
        options.append((score, [low]))
    if TRUMP in groups:
        low = min(groups[TRUMP], key=lambda c: (POINTS[c] > 0, ctx.pos[c]))
        options.append((5, [low]))
    return [(score, list(cards)) for score, cards in options]


def _higher_unseen(k: Knowledge, lc: str, reqs: Sequence[int], pairs: int, value: int) -> bool:
    """Could the unseen cards hold a play of suit-class `lc` worth more than `value`?"""
    _, top, pair_top, truns = k._cls(lc)
    if reqs:
        return any(length >= reqs[0] and t > value for t, length in truns)
    if pairs:
        return pair_top > value
    return top > value


class TrickInfo:
    """The current trick's lead requirements and best play, computed once per decision
    with the engine's ranking of plays (RULES §5.5)."""

    __slots__ = (
        "best",
        "best_seat",
        "count",
        "lc",
        "lead_seat",
        "n",
        "pairs",
        "points",
        "ranking",
        "reqs",
        "throw",
    )

    def __init__(self, trick: BotTrick, ctx: TrumpContext) -> None:
        self.lead_seat, lead = trick[0]
        ranking = self.ranking = LeadRanking(lead, ctx)
        self.n, self.lc, self.throw = ranking.n, ranking.lc, ranking.throw
        self.reqs, self.pairs = ranking.reqs, ranking.pairs
        self.best_seat, self.best = self.lead_seat, (0, ranking.lead_value)
        for seat, cards in trick[1:]:
            rv = ranking.rank(cards)
            if rv is not None and rv > self.best:
                self.best_seat, self.best = seat, rv
        self.points = sum(POINTS[c] for _, cs in trick for c in cs)
        self.count = len(trick)

    def after(self, seat: int, cards: Sequence[str]) -> tuple[int, tuple[int, int]]:
        """(winner, (rank, value)) once `seat` plays `cards`."""
        rv = self.ranking.rank(cards)
        if rv is not None and rv > self.best:
            return seat, rv
        return self.best_seat, self.best


def team_win_chance(k: Knowledge, info: TrickInfo, winner: int, best: tuple[int, int], played: int) -> float:
    """Rough chance that `winner`'s team keeps the trick after `played` plays."""
    lc, reqs, pairs = info.lc, info.reqs, info.pairs
    rank, value = best
    wc = TRUMP if rank == 1 else lc
    risk = 0.0
    for i in range(played, 4):
        t = engine.next_seat(info.lead_seat, i)
        if engine.same_team(t, winner):
            continue
        if wc == lc and lc != TRUMP:
            if lc not in k.voids[t] and not info.throw and _higher_unseen(k, lc, reqs, pairs, value):
                risk = max(risk, 0.4)
            if k.may_ruff(t, lc) and k.unseen_count(TRUMP) >= info.n:
                risk = max(risk, 0.6 if lc in k.voids[t] else 0.3)
        elif wc == TRUMP and lc != TRUMP:
            # a ruff stands unless t is void too and overruffs
            if k.may_ruff(t, lc) and _higher_unseen(k, TRUMP, reqs, pairs, value):
                risk = max(risk, 0.5 if lc in k.voids[t] else 0.2)
        else:  # trump lead
            if TRUMP not in k.voids[t] and not info.throw and _higher_unseen(k, TRUMP, reqs, pairs, value):
                risk = max(risk, 0.4)
    return 1.0 - risk


def follow(k: Knowledge) -> list[str]:
    options = follow_options(k.trick[0][1], k.hand, k.ctx)
    if len(options) == 1:
        return options[0]
    return max(follow_scores(k, options), key=lambda o: o[0])[1]


def follow_scores(k: Knowledge, options: Sequence[list[str]]) -> Scored:
    """[(score, play)] for candidate follows: chance our team takes the trick times its
    points, a little for winning the lead, minus what the cards are worth keeping."""
    ctx, me = k.ctx, k.seat
    info = TrickInfo(k.trick, ctx)
    lead = k.trick[0][1]
    counts = Counter(k.hand)
    base: float = info.points
    if len(k.hand) == len(lead):
        base += bonus_at_stake(k, lead)
    played = info.count + 1
    out: Scored = []
    for play in options:
        pts = base + sum(POINTS[c] for c in play)
        winner, best = info.after(me, play)
        if played == 4:
            p = 1.0 if engine.same_team(winner, me) else 0.0
        else:
            chance = team_win_chance(k, info, winner, best, played)
            p = chance if engine.same_team(winner, me) else 1.0 - chance
        score = (2 * p - 1) * pts + p * LEAD_VALUE - COST_WEIGHT * play_cost(play, counts, ctx)
        out.append((score, play))
    return out


def bonus_at_stake(k: Knowledge, lead: Sequence[str]) -> float:
    mult = engine.kitty_multiplier(lead, k.ctx, k.rules)
    pts = kitty_guess(k) if k.kitty_points is None else k.kitty_points
    return mult * pts


def decide(obs: Observation) -> dict[str, Any]:
    """The basic bot's action for its seat (bury or play), as an engine action dict."""
    if obs.phase == "bury":
        return {"type": "bury", "seat": obs.seat, "cards": decide_bury(obs)}
    return {"type": "play", "seat": obs.seat, "cards": decide_play(obs)}
