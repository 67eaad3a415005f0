"""The basic bot: a rule-based player with sound habits.

Declare a suit the hand is long in; bury low non-point cards and void a short suit when
it is cheap (keep trumps); lead safe winners (throwing them together when every part is
the highest left), pull trumps as a trump-rich dealer team, lead pairs, feed a partner's
void; follow by scoring a few legal candidates: the chance our team takes the trick
times its points, minus what the cards are worth keeping (win cheaply, give points to a
partner who is surely winning, never waste trumps on a trick that is already ours).
"""
from collections import Counter

from games import engine
from games.engine.shapes import requirements, split
from games.engine.tricks import play_value

from .cardsense import (POINTS, TRUMP, by_class, follow_options, keep_value, play_cost)
from .knowledge import Knowledge

COST_WEIGHT = 0.5
LEAD_VALUE = 3.0


# --- declarations (RULES §3) -------------------------------------------------------
def trump_share(cards, level, trump):
    """Fraction of `cards` that would be trumps if `trump` ("NT" or a suit) were fixed."""
    if not cards:
        return 0.0
    n = 0
    for c in cards:
        if c in engine.JOKERS or c[1:] in (level, "2") or c[0] == trump:
            n += 1
    return n / len(cards)


def decide_declaration(obs):
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
    end = obs.phase == "last_chance" or obs.dealt >= 100
    progress = min(1.0, size / 25)
    best = None
    for cards in obs.can_declare:
        if standing and standing[0] == obs.seat and len(cards) == 1 and standing[2] == 1:
            return list(cards)  # self-reinforce (§3.2): a pair cannot be overridden cheaply
        strength, trump = engine.declaration_of(list(cards), obs.level)
        share = trump_share(mine, obs.level, trump)
        if trump == "NT":
            need = 0.24
        else:
            need = 0.50 - 0.08 * progress - (0.06 if end else 0.0)
        if standing and standing[0] % 2 == obs.seat % 2:
            need += 0.15  # partner's declaration stands: override only with a far better suit
        if share >= need and (best is None or (share, strength) > best[0]):
            best = ((share, strength), list(cards))
    return best[1] if best else None


# --- bury (RULES §4) ---------------------------------------------------------------
def bury_cost(card, ctx, counts):
    if ctx.cls[card] == TRUMP:
        return 40 + ctx.pos[card]
    return ctx.pos[card] + (6 if counts[card] >= 2 else 0) + 0.8 * POINTS[card]


def decide_bury(obs):
    ctx = obs.ctx
    hand = list(obs.hand)
    counts = Counter(hand)
    groups = by_class(hand, ctx)
    suits = [s for s in groups if s != TRUMP]
    cost = {c: bury_cost(c, ctx, counts) for c in counts}
    best = None
    for mask in range(1 << len(suits)):
        voided = [s for i, s in enumerate(suits) if mask >> i & 1]
        chosen = [c for s in voided for c in groups[s]]
        if len(chosen) > 8:
            continue
        rest = sorted((c for c in hand if ctx.cls[c] not in voided), key=cost.__getitem__)
        chosen += rest[:8 - len(chosen)]
        score = sum(cost[c] for c in chosen) - 7 * len(voided)
        if best is None or score < best[0]:
            best = (score, chosen)
    return best[1]


# --- play (RULES §5) ---------------------------------------------------------------
def decide_play(obs):
    k = Knowledge.from_observation(obs)
    k.kitty_points = kitty_estimate(obs, k)
    if not k.trick:
        return lead(k)
    return follow(k)


def kitty_estimate(obs, k):
    if obs.kitty is not None and obs.phase == "play":
        return engine.points(list(obs.kitty))
    unseen = sum(k.unseen.values())
    if not unseen:
        return 0
    pts = sum(POINTS[c] * n for c, n in k.unseen.items())
    return 0.5 * pts * 8 / unseen  # dealers bury few points


def lead(k):
    ctx, me = k.ctx, k.seat
    hand = k.hand
    groups = by_class(hand, ctx)
    opps = [(me + 1) % 4, (me + 3) % 4]
    partner = (me + 2) % 4
    dealer_team = k.dealer is not None and me % 2 == k.dealer % 2
    options = []  # (score, cards)
    for lc, cards in groups.items():
        comps = split(cards, ctx)
        masters = [c for c in comps if k.comp_is_master(c, lc)]
        trump = lc == TRUMP
        ruff_risk = (not trump) and any(k.may_ruff(o, lc) for o in opps)
        if masters and not ruff_risk:
            throw = [c for m in masters for c in m.cards]
            options.append((60 + 2 * len(throw) + sum(POINTS[c] for c in throw)
                            - (15 if trump and not dealer_team else 0), throw))
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
                options.append((35 if k.comp_is_master(split([top], ctx)[0], TRUMP) else 18,
                                [top]))
            continue
        low = min(cards, key=lambda c: (POINTS[c] > 0, ctx.pos[c]))
        score = 10 + len(cards) * 0.5 - POINTS[low] - ctx.pos[low] * 0.3
        if lc in k.voids[partner] and TRUMP not in k.voids[partner]:
            if not any(k.may_ruff(o, lc) for o in opps):
                score += 25
        if ruff_risk:
            score -= 12
        options.append((score, [low]))
    if not options:
        low = min(hand, key=lambda c: (POINTS[c] > 0, keep_value(c, ctx)))
        return [low]
    best = max(options, key=lambda o: o[0])
    if best[0] < 5 and TRUMP in groups:
        low = min(groups[TRUMP], key=lambda c: (POINTS[c] > 0, ctx.pos[c]))
        return [low]
    return list(best[1])


def _higher_unseen(k, lc, reqs, pairs, value):
    """Could the unseen cards hold a play of suit-class `lc` worth more than `value`?"""
    _, top, pair_top, truns = k._cls(lc)
    if reqs:
        return any(length >= reqs[0] and t > value for t, length in truns)
    if pairs:
        return pair_top > value
    return top > value


def team_win_chance(k, plays):
    """Rough chance that the current winner's team keeps the trick, and who that is."""
    ctx = k.ctx
    winner = engine.trick_winner(plays, ctx)
    lead_seat, lead = plays[0]
    lc = ctx.cls[lead[0]]
    comps = split(lead, ctx)
    reqs, pairs = requirements(comps)
    throw = len(comps) > 1
    wcards = next(c for s, c in plays if s == winner)
    wc = ctx.cls[wcards[0]]
    value = play_value(wcards, ctx, reqs, pairs)
    later = [(lead_seat + i) % 4 for i in range(len(plays), 4)]
    risk = 0.0
    for t in later:
        if t % 2 == winner % 2:
            continue
        if wc == lc and lc != TRUMP:
            if lc not in k.voids[t]:
                if not throw and _higher_unseen(k, lc, reqs, pairs, value):
                    risk = max(risk, 0.4)
            if k.may_ruff(t, lc) and k.unseen_count(TRUMP) >= len(lead):
                risk = max(risk, 0.6 if lc in k.voids[t] else 0.3)
        elif wc == TRUMP and lc != TRUMP:
            # a ruff stands unless t is void too and overruffs
            if k.may_ruff(t, lc) and _higher_unseen(k, TRUMP, reqs, pairs, value):
                risk = max(risk, 0.5 if lc in k.voids[t] else 0.2)
        else:  # trump lead
            if TRUMP not in k.voids[t] and not throw and _higher_unseen(k, TRUMP, reqs, pairs, value):
                risk = max(risk, 0.4)
    return winner, 1.0 - risk


def follow(k):
    ctx, me = k.ctx, k.seat
    trick = k.trick
    lead = trick[0][1]
    hand = k.hand
    counts = Counter(hand)
    options = follow_options(lead, hand, ctx)
    if len(options) == 1:
        return options[0]
    base = sum(POINTS[c] for _, cs in trick for c in cs)
    last_trick = len(hand) == len(lead)
    best = None
    for play in options:
        plays = trick + [(me, play)]
        pts = base + sum(POINTS[c] for c in play)
        if last_trick:
            pts += bonus_at_stake(k, lead)
        winner, chance = team_win_chance(k, plays)
        p = chance if winner % 2 == me % 2 else 1.0 - chance
        if winner % 2 != me % 2 and len(plays) == 4:
            p = 0.0
        score = (2 * p - 1) * pts + p * LEAD_VALUE - COST_WEIGHT * play_cost(play, counts, ctx)
        if best is None or score > best[0]:
            best = (score, play)
    return best[1]


def bonus_at_stake(k, lead):
    mult = engine.kitty_multiplier(lead, k.ctx)
    return mult * k.kitty_points


def decide(obs):
    """The basic bot's action for its seat (bury or play), as an engine action dict."""
    if obs.phase == "bury":
        return {"type": "bury", "seat": obs.seat, "cards": decide_bury(obs)}
    return {"type": "play", "seat": obs.seat, "cards": decide_play(obs)}
