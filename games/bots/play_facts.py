"""What a suggested play does, as facts the page's "Why?" puts into words (games/analysis/why.py).

Pure (no Django), from the seat's Observation only (RULES §9): who is winning the trick
(engine.trick_winner), what it holds (engine.points), what the play is (a follow, a ruff, a
discard; its shape, engine.shape_of), whether it takes the trick now and whether a player
still to play could beat it — judged, like a player would, from the cards not seen yet and
the voids shown (games.bots.knowledge) — and the evaluator's numbers: the expected points
of the seat's side after it and how far ahead of the next option that is.
"""

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games import engine
from games.bots.knowledge import Knowledge
from games.bots.observation import Observation

Facts = dict[str, Any]


def facts(obs: Observation, cards: Sequence[str], options: Sequence[tuple[list[str], float]]) -> Facts:
    """The facts of playing (or burying) `cards` in `obs`; `options` as the evaluator ranked them."""
    out: Facts = {
        "cards": list(cards),
        "points": engine.points(cards),
        "options": len(options),
        "expected": round(options[0][1], 1),
        "margin": round(options[0][1] - options[1][1], 1) if len(options) > 1 else None,
    }
    if obs.phase == "bury":
        return out | _bury(obs, cards)
    k = Knowledge.from_observation(obs)
    out["forced"] = _forced(obs)
    out["last_trick"] = len(obs.hand) == len(cards)  # every hand plays out with this trick
    out["keeps_pairs"] = _keeps_pairs(obs, cards)
    return out | (_follow(obs, k, cards) if obs.trick else _lead(obs, k, cards))


def _lead(obs: Observation, k: Knowledge, cards: Sequence[str]) -> Facts:
    ctx = obs.ctx
    shape = engine.shape_of(cards, ctx)["shape"]
    opponents = [s for s in range(4) if not engine.same_team(s, obs.seat)]
    # A throw fails if any other hand could beat a part of it (RULES §5.3).
    safe = k.is_safe_lead(cards) if shape == "throw" else not _beatable(k, cards, cards, opponents)
    return {
        "kind": "lead",
        "shape": shape,
        "trump": all(ctx.is_trump(c) for c in cards),
        "trick_points": engine.points(cards),
        "safe": safe,
    }


def _follow(obs: Observation, k: Knowledge, cards: Sequence[str]) -> Facts:
    ctx = obs.ctx
    lead = obs.trick[0][1]
    led = ctx.cls[lead[0]]
    mine = {ctx.cls[c] for c in cards}
    if mine == {led}:
        kind = "follow"
    elif led != engine.TRUMP_CLASS and mine == {engine.TRUMP_CLASS}:
        kind = "ruff"  # RULES §5.5: a ruff of a non-trump lead
    else:
        kind = "discard"
    trick = [(s, list(c)) for s, c in obs.trick]
    before = engine.trick_winner(trick, ctx)
    after = engine.trick_winner(trick + [(obs.seat, list(cards))], ctx)
    ours = engine.same_team(after, obs.seat)
    later = [engine.next_seat(obs.seat, i) for i in range(1, 4 - len(obs.trick))]
    opponents = [s for s in later if not engine.same_team(s, obs.seat)]
    winning = dict(trick + [(obs.seat, list(cards))])[after]
    return {
        "kind": kind,
        "shape": engine.shape_of(cards, ctx)["shape"],
        "before": "partner" if engine.same_team(before, obs.seat) else "opponent",
        "wins": after == obs.seat,  # this play takes the lead of the trick
        "ours": ours,  # the seat's side is winning the trick after it
        "safe": ours and not _beatable(k, lead, winning, opponents),
        "last_to_play": not later,
        "trick_points": engine.trick_points(trick) + engine.points(cards),
    }


def _beatable(k: Knowledge, lead: Sequence[str], winning: Sequence[str], seats: Sequence[int]) -> bool:
    """May one of `seats` still beat `winning` in a trick led with `lead`, from what this
    seat knows: a higher play of the led suit, a ruff of a non-trump lead, an over-ruff."""
    ctx = k.ctx
    led, cls = ctx.cls[lead[0]], ctx.cls[winning[0]]
    top = all(k.comp_is_master(c, cls) for c in engine.split(winning, ctx))
    throw = len(engine.split(lead, ctx)) > 1  # a throw that stands is not beaten in its suit (§5.5)
    for s in seats:
        if cls == led and not throw and not top and k.may_hold(s, led):
            return True
        if led != engine.TRUMP_CLASS and k.may_ruff(s, led) and (cls != engine.TRUMP_CLASS or not top):
            return True
    return False


def _forced(obs: Observation) -> bool:
    """The seat has no other legal play (RULES §5.4)."""
    if not obs.trick:
        return len(obs.hand) == 1
    return len(engine.legal_follows(obs.trick[0][1], obs.hand, obs.ctx, limit=2) or ()) == 1


def _breaks_pair(hand: Sequence[str], cards: Sequence[str]) -> bool:
    held, played = Counter(hand), Counter(cards)
    return any(held[c] == 2 and n == 1 for c, n in played.items())


def _keeps_pairs(obs: Observation, cards: Sequence[str]) -> bool:
    """The hand holds pairs in the suits played from, and the play splits none of them."""
    cls = obs.ctx.cls
    suits = {cls[c] for c in cards}
    held = Counter(c for c in obs.hand if cls[c] in suits)
    return any(n == 2 for n in held.values()) and not _breaks_pair(obs.hand, cards)


def _bury(obs: Observation, cards: Sequence[str]) -> Facts:
    ctx = obs.ctx
    kept = list((Counter(obs.hand) - Counter(cards)).elements())
    before, after = {ctx.cls[c] for c in obs.hand}, {ctx.cls[c] for c in kept}
    return {
        "kind": "bury",
        # Suits the bury leaves this hand without: it may ruff them (RULES §5.5).
        "voids": sorted(s for s in before - after if s != engine.TRUMP_CLASS),
        "trumps": sum(ctx.is_trump(c) for c in cards),
        "breaks_pair": _breaks_pair(obs.hand, cards),
    }
