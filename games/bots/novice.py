"""The novice bot: a beginner's habits and a beginner's mistakes, played honestly.

It decides from its Observation only and never builds a play the engine has not
vouched for: its follows are chosen among the legal candidates of `cardsense`
(checked again with `engine.is_legal_follow`), its leads are the engine's own
singles, pairs and tractors (`engine.lead_components`), and its slips are the
engine's random legal plays. What makes it a beginner is which of those it picks:

- declares the first level card it gets when it holds a few cards of that suit, and
  never overrides anyone;
- buries its lowest cards, whatever their points and whatever suit that leaves short;
- leads its highest side-suit single (aces first), now and then a pair, never a throw;
- follows with its lowest cards, seldom feeds points to a partner who is winning, and
  ruffs with its lowest trump whenever it is void, even on its partner's trick;
- now and then plays a random legal card (a slip), drawn from the bot's own generator.
"""

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from games import engine
from games.engine.order import TrumpContext

from .basic import TrickInfo
from .cardsense import POINTS, TRUMP, follow_options, keep_value
from .observation import Observation

SLIP = 0.12  # share of plays that are a random legal play instead of a habit
PAIR_LEAD = 0.15  # share of leads that play a side-suit pair or tractor when there is one
FEED_PARTNER = 0.2  # share of follows that give points to a partner who is winning
FEW_CARDS = 3  # cards of a suit (the level card among them) that make it worth declaring


# --- declarations (RULES §3) ---------------------------------------------------------
def decide_declaration(obs: Observation) -> list[str] | None:
    """The first level card of a suit it holds a few cards of, while nobody has declared;
    in the last-chance window (§3.4) with nothing declared, its best-held suit anyway.
    Only what `can_declare` lists (the engine's legal declarations) is ever declared."""
    if not obs.can_declare or obs.standing is not None:
        return None
    last_look = obs.phase == "last_chance"
    best: tuple[int, list[str]] | None = None
    for cards in obs.can_declare:
        found = engine.declaration_of(list(cards), obs.level)
        if found is None or found[1] == "NT":
            continue  # a beginner does not think of declaring no-trump with the jokers
        held = sum(1 for c in obs.hand if c[0] == found[1] and c not in engine.JOKERS)
        if best is None or held > best[0]:
            best = (held, list(cards))
    if best is None:
        return None
    return best[1] if best[0] >= FEW_CARDS or last_look else None


# --- bury (RULES §4) -------------------------------------------------------------------
def decide_bury(obs: Observation) -> list[str]:
    """The 8 lowest cards: side-suit cards before trumps, low ranks first."""
    ctx = obs.ctx
    return sorted(obs.hand, key=lambda c: (keep_value(c, ctx), ctx.key[c]))[: engine.KITTY_SIZE]


# --- leads (RULES §5.2) ----------------------------------------------------------------
def lead(hand: Sequence[str], ctx: TrumpContext, rng: random.Random) -> list[str]:
    """A single, pair or tractor: never a throw, so a lead can never fail (§5.3)."""
    shapes = engine.lead_components(list(hand), ctx)
    side = [s for s in shapes if ctx.cls[s[0]] != TRUMP]
    doubles = [s for s in side if len(s) > 1]
    if doubles and rng.random() < PAIR_LEAD:
        return max(doubles, key=lambda s: (ctx.pos[s[0]], len(s), s))
    singles = [s for s in side if len(s) == 1] or [s for s in shapes if len(s) == 1]
    # Highest rank first (aces first); between equal ranks, the longer suit.
    length = Counter(ctx.cls[c] for c in hand)
    return max(singles, key=lambda s: (ctx.pos[s[0]], length[ctx.cls[s[0]]], s))


# --- follows (RULES §5.4) --------------------------------------------------------------
def lowness(play: Sequence[str], ctx: TrumpContext) -> tuple[int, int]:
    """How low a play is: the sum of its cards' ranks (trumps above every side card)."""
    return sum(keep_value(c, ctx) for c in play), sum(POINTS[c] for c in play)


def follow(obs: Observation, rng: random.Random) -> list[str]:
    ctx, hand = obs.ctx, list(obs.hand)
    trick = [(seat, list(cards)) for seat, cards in obs.trick]
    lead_cards = trick[0][1]
    options = [p for p in follow_options(lead_cards, hand, ctx) if engine.is_legal_follow(lead_cards, hand, p, ctx)[0]]
    if not options:  # cardsense always finds one; the engine's random follow if not
        return engine.sample_hand_play(hand=hand, trick=trick, ctx=ctx, rng=rng)
    led = ctx.cls[lead_cards[0]]
    void = not any(ctx.cls[c] == led for c in hand)
    if void and led != TRUMP:
        ruffs = [p for p in options if all(ctx.cls[c] == TRUMP for c in p)]
        if ruffs:  # whoever is winning: a beginner loves to trump
            return min(ruffs, key=lambda p: (lowness(p, ctx), p))
    partner_winning = TrickInfo(trick, ctx).best_seat == obs.partner
    if partner_winning and rng.random() < FEED_PARTNER:
        return max(options, key=lambda p: (lowness(p, ctx)[1], -lowness(p, ctx)[0]))
    return min(options, key=lambda p: (lowness(p, ctx), p))


# --- the level's entry point -------------------------------------------------------------
def decide_play(obs: Observation, rng: random.Random) -> list[str]:
    """A habit, or (one play in 1/SLIP) a random legal play: the engine's sample, leads
    limited to singles, pairs and tractors (a beginner does not try throws)."""
    ctx, hand = obs.ctx, list(obs.hand)
    if rng.random() < SLIP:
        if not obs.trick:
            return rng.choice(engine.lead_components(hand, ctx))
        return engine.sample_hand_play(hand=hand, trick=[(s, list(c)) for s, c in obs.trick], ctx=ctx, rng=rng)
    if not obs.trick:
        return lead(hand, ctx, rng)
    return follow(obs, rng)


def decide(obs: Observation, rng: random.Random) -> dict[str, Any]:
    """The novice's action for its seat (bury or play), as an engine action dict."""
    if obs.phase == "bury":
        return {"type": "bury", "seat": obs.seat, "cards": decide_bury(obs)}
    return {"type": "play", "seat": obs.seat, "cards": decide_play(obs, rng)}
