"""Helpers for the UI and bots: classify a selection, list legal declarations and
plays, and sample a random legal play quickly (RULES §3, §5).

classify never says whether a throw would fail: that depends on hidden hands.
legal_plays enumerates follows completely up to `limit` plays; for leads it lists every
single, pair and tractor and at most THROW_CAP throws (documented in docs/engine.md).
"""

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any

from . import declare as _declare
from .cards import KITTY_SIZE, Play
from .errors import Refusal, rule_refusal
from .follow import is_legal_follow, lead_refusal
from .game import Game
from .order import TrumpContext
from .shapes import Component, fit_tractors, requirements, runs, shape_of, split

THROW_CAP = 200
FOLLOW_LIMIT = 5000


def _play_ctx(game: Game) -> TrumpContext:
    return game.play_context()


def classify(game: Game, seat: int | None, cards: list[str]) -> dict[str, Any]:
    """Describe `seat`'s current selection: shape, and whether it may be played now."""
    ctx = game.ctx
    shape = shape_of(cards, ctx) if cards else {"shape": "empty"}
    out: dict[str, Any] = {
        "shape": shape["shape"],
        "length": shape.get("length"),
        "lead": game.phase == "play" and not game.trick,  # a several-shape lead is a throw (§5.3)
        "legal": False,
        "code": None,
        "reason": None,
        "reason_template": None,
        "reason_plural": None,
        "rule": None,
        "params": {},
    }

    def refuse(err: Refusal) -> dict[str, Any]:
        # The template and params let the web layer translate the reason.
        out["code"], out["reason"] = err.code, err.message
        out["reason_template"], out["reason_plural"], out["params"] = err.template, err.plural, dict(err.params)
        out["rule"] = err.rule
        return out

    if game.phase == "bury":
        if seat != game.dealer or seat is None or game.hands is None:
            return refuse(rule_refusal("not_dealer"))
        if len(cards) != KITTY_SIZE:
            return refuse(rule_refusal("bury_needs_8"))
        if not _holds(game.hands[seat], cards):
            return refuse(rule_refusal("cards_not_in_hand"))
        out["legal"] = True
        return out
    if game.phase != "play":
        return refuse(rule_refusal("wrong_phase", phase=game.phase))
    if seat != game.turn or seat is None or game.hands is None:
        return refuse(rule_refusal("not_your_turn"))
    hand = game.hands[seat]
    if not game.trick:
        err = lead_refusal(hand, cards, ctx)
        if err is not None:
            return refuse(err)
        out["legal"] = True  # a throw is legal to attempt; its check needs hidden hands
        return out
    _, err = is_legal_follow(game.trick[0][1], hand, cards, ctx)
    if err is not None:
        return refuse(err)
    out["legal"] = True
    return out


def _holds(hand: Iterable[str], cards: Iterable[str]) -> bool:
    return Counter(cards) <= Counter(hand)


def legal_declarations(game: Game, seat: int | None) -> list[list[str]]:
    """Card lists `seat` could declare right now (a self-reinforce is the added card)."""
    if game.phase not in ("deal", "last_chance") or seat is None or game.hands is None:
        return []
    return _declare.legal_declarations(seat, game.hands[seat], game.standing, game.level, game.rules)


# --- leads --------------------------------------------------------------------
def _tractors(cards: Iterable[str], ctx: TrumpContext) -> list[list[str]]:
    """Every tractor (as a card list) inside one suit-class's cards."""
    by_pos: dict[int, list[str]] = {}
    for c, n in Counter(cards).items():
        if n >= 2:
            by_pos.setdefault(ctx.pos[c], []).append(c)
    out: list[list[str]] = []
    for top, length in runs(by_pos):
        for hi in range(top, top - length, -1):
            for lo in range(hi - 1, top - length, -1):
                choices: list[list[str]] = [[]]
                for p in range(hi, lo - 1, -1):
                    choices = [ch + [c, c] for ch in choices for c in by_pos[p]]
                out += choices
    return out


def _lead_components(hand: Sequence[str], ctx: TrumpContext) -> list[list[str]]:
    """Singles, pairs and tractors available to lead (each a sorted card list)."""
    counts = Counter(hand)
    out = [[c] for c in counts]
    out += [[c, c] for c, n in counts.items() if n >= 2]
    by_class: dict[str, list[str]] = {}
    for c in hand:
        by_class.setdefault(ctx.cls[c], []).append(c)
    for cards in by_class.values():
        out += _tractors(cards, ctx)
    return out


def lead_components(hand: Sequence[str], ctx: TrumpContext) -> list[list[str]]:
    """Every single, pair and tractor `hand` may lead (RULES §5.2; throws not included):
    what an exhaustive search of the last tricks tries (the expert bot's endgame)."""
    return _lead_components(hand, ctx)


def _multisets(counts: Mapping[str, int], k: int) -> Iterator[list[str]]:
    """Distinct sub-multisets of size k of a Counter, as lists (generator), in a fixed
    order: codes sorted, more copies of an earlier code first."""
    items = sorted(counts.items())
    # after[i]: cards from items[i:] on, so branches that cannot reach k are never entered
    after = [0] * (len(items) + 1)
    for i in range(len(items) - 1, -1, -1):
        after[i] = after[i + 1] + items[i][1]

    return _sub_multisets(items, after, 0, k)


def _sub_multisets(items: list[tuple[str, int]], after: list[int], i: int, k: int) -> Iterator[list[str]]:
    # Module level, not a closure calling itself: that would be a reference cycle per call.
    if k == 0:
        yield []
        return
    if i == len(items):
        return
    c, n = items[i]
    for take in range(min(n, k), -1, -1):
        if after[i + 1] < k - take:
            break
        for rest in _sub_multisets(items, after, i + 1, k - take):
            yield [c] * take + rest


def legal_follows(
    lead: Sequence[str], hand: Sequence[str], ctx: TrumpContext, *, limit: int = FOLLOW_LIMIT, cap: int | None = None
) -> list[list[str]] | None:
    """The distinct legal follows to `lead` from `hand` (RULES §5.4), at most `limit`.

    Short in the led suit-class: all of it plus any other cards; else every choice of
    led-suit cards that shows the structure the hand allows. With `cap`, None instead
    when more than `cap` choices would have to be looked at (a caller that wants a few
    good plays rather than all of them then builds its own)."""
    n = len(lead)
    cls = ctx.cls
    lc = cls[lead[0]]
    suit = [c for c in hand if cls[c] == lc]
    choices: Iterable[list[str]]
    comps: list[Component] | None
    if len(suit) <= n:
        rest = [c for c in hand if cls[c] != lc]
        choices = (suit + extra for extra in _multisets(Counter(rest), n - len(suit)))
        comps = None
    else:
        choices = _multisets(Counter(suit), n)
        comps = split(lead, ctx)
    if cap is not None:
        choices = list(islice(choices, cap + 1))
        if len(choices) > cap:
            return None
    out: list[list[str]] = []
    for play in choices:
        if comps is None or is_legal_follow(lead, hand, play, ctx, comps)[0]:
            out.append(play)
            if len(out) >= limit:
                break
    return out


def legal_plays(game: Game, seat: int, limit: int = FOLLOW_LIMIT) -> list[list[str]]:
    """All distinct legal plays for `seat` now (each sorted for display), see module doc."""
    if game.phase != "play" or seat != game.turn or game.hands is None:
        return []
    ctx = _play_ctx(game)
    hand = game.hands[seat]
    if not game.trick:
        plays = [ctx.sort(p) for p in _lead_components(hand, ctx)]
        by_class: dict[str, list[str]] = {}
        for c in hand:
            by_class.setdefault(ctx.cls[c], []).append(c)
        throws = 0
        for cards in by_class.values():
            counts = Counter(cards)
            for k in range(2, len(cards) + 1):
                for sub in _multisets(counts, k):
                    if throws >= THROW_CAP:
                        break
                    if len(split(sub, ctx)) > 1:
                        plays.append(ctx.sort(sub))
                        throws += 1
        return plays
    return [ctx.sort(p) for p in legal_follows(game.trick[0][1], hand, ctx, limit=limit) or ()]


def forced_play(game: Game, seat: int) -> list[str] | None:
    """The only legal play `seat` has now (RULES §5.4: e.g. its last cards of the led suit,
    or the last trick), or None when it has a choice or it is not its turn."""
    plays = legal_plays(game, seat, limit=2)
    return plays[0] if len(plays) == 1 else None


# --- sampling -----------------------------------------------------------------
def sample_play(game: Game, seat: int, rng: random.Random) -> list[str]:
    """A random legal play for `seat`, built directly (no enumeration).

    Leads: usually a random single, pair or tractor; sometimes a random throw attempt."""
    assert game.hands is not None, "no hand has started"
    return sample_hand_play(hand=game.hands[seat], trick=game.trick or [], ctx=_play_ctx(game), rng=rng)


def sample_hand_play(*, hand: Sequence[str], trick: Sequence[Play], ctx: TrumpContext, rng: random.Random) -> list[str]:
    """A random legal play from `hand` to `trick` (a lead when it is empty), as
    sample_play: for a caller that holds one hand and no Game (a bot)."""
    if not trick:
        return _sample_lead(hand, ctx, rng)
    return _sample_follow(trick[0][1], hand, ctx, rng)


def _sample_lead(hand: Sequence[str], ctx: TrumpContext, rng: random.Random) -> list[str]:
    by_class: dict[str, list[str]] = {}
    for c in hand:
        by_class.setdefault(ctx.cls[c], []).append(c)
    cards = by_class[rng.choice(sorted(by_class))]
    r = rng.random()
    if r < 0.1 and len(cards) >= 2:
        return rng.sample(cards, rng.randint(2, min(len(cards), 5)))
    if r < 0.5:
        pp = [c for c, n in Counter(cards).items() if n >= 2]
        if pp:
            tractors = _tractors(cards, ctx) if r < 0.2 else []
            if tractors:
                return rng.choice(tractors)
            c = rng.choice(pp)
            return [c, c]
    return [rng.choice(cards)]


def _sample_follow(lead: Sequence[str], hand: Sequence[str], ctx: TrumpContext, rng: random.Random) -> list[str]:
    n = len(lead)
    lc = ctx.cls[lead[0]]
    suit = [c for c in hand if ctx.cls[c] == lc]
    if len(suit) <= n:
        rest = [c for c in hand if ctx.cls[c] != lc]
        return suit + rng.sample(rest, n - len(suit))
    reqs, pairs_led = requirements(split(lead, ctx))
    if not pairs_led:
        return rng.sample(suit, n)
    pool = Counter(suit)
    chosen: list[str] = []
    by_pos: dict[int, list[str]] = {}
    for c, k in pool.items():
        if k >= 2:
            by_pos.setdefault(ctx.pos[c], []).append(c)
    if reqs:
        counts = {p: len(v) for p, v in by_pos.items()}
        _, placed = fit_tractors(counts, reqs, rng)
        for top, length in placed:
            for p in range(top, top - length, -1):
                opts = by_pos[p]
                c = opts.pop(rng.randrange(len(opts)))
                chosen += [c, c]
                pool[c] -= 2
    # §5.4: pairs up to the lead's count (tractor pairs included), then anything.
    pair_left = [c for c, k in pool.items() if k >= 2]
    rng.shuffle(pair_left)
    for c in pair_left[: max(0, pairs_led - len(chosen) // 2)]:
        chosen += [c, c]
        pool[c] -= 2
    left = list(pool.elements())
    return chosen + rng.sample(left, n - len(chosen))
