"""What a seat can work out from its Observation: cards still unseen, shown voids, the
pairs (and cards) a follow showed a hand lacks, declared cards still held, and whether
a component can still be beaten.

`Knowledge` is built from an Observation only (no Game). The strong bot's rollouts
build it directly with `Knowledge.make` from their own simulated state.
"""

from collections import Counter
from collections.abc import Sequence

from games import engine
from games.engine.shapes import Component, pair_codes, runs, split

from .observation import Observation

BotTrick = list[tuple[int, list[str]]]  # a trick as the bots keep it: [(seat, cards), ...]
ClassFacts = tuple[int, int, int, list[tuple[int, int]]]  # see Knowledge._cls

FULL = Counter(engine.full_deck())


def nothing_shown() -> list[set[str]]:
    """Per seat, an empty set of shown facts (voids, pairless suit-classes, lacked cards)."""
    return [set(), set(), set(), set()]


def trick_voids(
    leader_plays: Sequence[tuple[int, Sequence[str]]], ctx: engine.TrumpContext, voids: list[set[str]]
) -> None:
    """Add to `voids` (seat -> set of suit-classes) what one trick shows: a follower who
    played fewer cards of the led suit-class than were led has none left (RULES §5.4)."""
    (_lead_seat, lead), *rest = leader_plays
    lc = ctx.cls[lead[0]]
    n = len(lead)
    for s, cards in rest:
        if sum(1 for c in cards if ctx.cls[c] == lc) < n:
            voids[s].add(lc)


def trick_pairs_shown(
    leader_plays: Sequence[tuple[int, Sequence[str]]],
    ctx: engine.TrumpContext,
    pairless: list[set[str]],
    lacks: list[set[str]],
) -> None:
    """Add what one trick shows of the followers' pairs (RULES §5.4: a follower plays as
    many pairs of the led suit-class as they can, up to the lead's). One who followed
    suit with fewer pairs than were led held no others: no pair of that suit-class is
    left in the hand (`pairless`), nor the twin of a single it played (`lacks`)."""
    (_lead_seat, lead), *rest = leader_plays
    lc = ctx.cls[lead[0]]
    led_pairs = len(pair_codes(lead))
    if not led_pairs:
        return
    for s, cards in rest:
        own = [c for c in cards if ctx.cls[c] == lc]
        if len(own) < len(lead):
            continue  # void in it (trick_voids): nothing more to learn
        pairs = pair_codes(own)
        if len(pairs) < led_pairs:
            pairless[s].add(lc)
            lacks[s].update(c for c in own if c not in pairs)


class Knowledge:
    __slots__ = (
        "_cls_cache",
        "ctx",
        "dealer",
        "defender_points",
        "hand",
        "hand_counts",
        "kitty_points",
        "known",
        "lacks",
        "pairless",
        "rules",
        "seat",
        "trick",
        "tricks_done",
        "unseen",
        "voids",
    )

    seat: int
    ctx: engine.TrumpContext
    dealer: int
    hand: list[str]
    trick: BotTrick  # the current trick (a rollout sets it before each decision)
    unseen: Counter[str]  # cards this seat has not seen anywhere yet
    voids: list[set[str]]  # per seat, suit-classes it has shown it lacks
    pairless: list[set[str]]  # per seat, suit-classes it has shown it holds no pair of
    lacks: list[set[str]]  # per seat, cards it has shown it does not hold
    known: list[Counter[str]] | None  # per seat, declared cards still held
    hand_counts: list[int] | None
    tricks_done: int
    defender_points: int
    kitty_points: float | None  # estimated points in the bury; None: guess (kitty_guess)
    rules: engine.Rules  # the table's (the kitty bonus at stake depends on them)
    _cls_cache: dict[str, ClassFacts]

    @classmethod
    def make(
        cls,
        *,
        seat: int,
        ctx: engine.TrumpContext,
        dealer: int,
        hand: list[str],
        trick: BotTrick,
        unseen: Counter[str],
        voids: list[set[str]],
        known: list[Counter[str]] | None,
        hand_counts: list[int] | None,
        tricks_done: int,
        defender_points: int,
        rules: engine.Rules = engine.DEFAULT_RULES,
        pairless: list[set[str]] | None = None,
        lacks: list[set[str]] | None = None,
    ) -> "Knowledge":
        k = cls.__new__(cls)
        k.seat, k.ctx, k.dealer, k.hand, k.trick = seat, ctx, dealer, hand, trick
        k.unseen, k.voids, k.known, k.hand_counts = unseen, voids, known, hand_counts
        k.tricks_done, k.defender_points = tricks_done, defender_points
        k.kitty_points = 0  # estimated points in the bury (set by the policy)
        k.rules = rules
        # A rollout's own Knowledge tracks no pairs: it gets empty facts it never reads.
        k.pairless = pairless if pairless is not None else nothing_shown()
        k.lacks = lacks if lacks is not None else nothing_shown()
        k._cls_cache = {}
        return k

    @classmethod
    def from_observation(cls, obs: Observation) -> "Knowledge":
        ctx = obs.ctx
        assert obs.dealer is not None, "bots decide from the bury on, when the dealer is known"
        played: Counter[str] = Counter()
        voids, pairless, lacks = nothing_shown(), nothing_shown(), nothing_shown()
        by_seat: list[Counter[str]] = [Counter(), Counter(), Counter(), Counter()]
        for _, plays, _, _ in obs.tricks:
            trick_voids(plays, ctx, voids)
            trick_pairs_shown(plays, ctx, pairless, lacks)
            for s, cards in plays:
                played.update(cards)
                by_seat[s].update(cards)
        if len(obs.trick) > 1:
            trick_voids(obs.trick, ctx, voids)
            trick_pairs_shown(obs.trick, ctx, pairless, lacks)
        for s, cards in obs.trick:
            played.update(cards)
            by_seat[s].update(cards)
        unseen = FULL - Counter(obs.hand) - played
        if obs.kitty and obs.phase == "play":
            unseen -= Counter(obs.kitty)  # the dealer's own bury (RULES §4.1)
        return cls.make(
            seat=obs.seat,
            ctx=ctx,
            dealer=obs.dealer,
            hand=list(obs.hand),
            trick=[(s, list(c)) for s, c in obs.trick],
            unseen=unseen,
            voids=voids,
            known=declared_held(obs, by_seat),
            hand_counts=list(obs.hand_counts),
            tricks_done=len(obs.tricks),
            defender_points=obs.defender_points,
            rules=obs.rules,
            pairless=pairless,
            lacks=lacks,
        )

    # --- per suit-class facts about the unseen cards ---------------------------
    def _cls(self, lc: str) -> ClassFacts:
        got = self._cls_cache.get(lc)
        if got is None:
            cls, pos = self.ctx.cls, self.ctx.pos
            cards = [c for c, n in self.unseen.items() if n and cls[c] == lc]
            top = max((pos[c] for c in cards), default=-1)
            pp: dict[int, int] = {}
            for c in cards:
                if self.unseen[c] >= 2:
                    pp[pos[c]] = pp.get(pos[c], 0) + 1
            got = (sum(self.unseen[c] for c in cards), top, max(pp, default=-1), [r for r in runs(pp) if r[1] >= 2])
            self._cls_cache[lc] = got
        return got

    def unseen_count(self, lc: str) -> int:
        return self._cls(lc)[0]

    def comp_is_master(self, comp: Component, lc: str) -> bool:
        """True when no unseen cards could form a strictly higher component of the same
        shape in suit-class `lc` (the test of RULES §5.3, against every unseen card)."""
        _, top, pair_top, truns = self._cls(lc)
        if comp.kind == "single":
            return top <= comp.top
        if comp.kind == "pair":
            return pair_top <= comp.top
        return not any(length >= comp.pairs and t > comp.top for t, length in truns)

    def is_safe_lead(self, cards: Sequence[str]) -> bool:
        """A lead (single, pair, tractor or throw) no other seat can beat inside its own
        suit-class, judged from public information and the own hand only."""
        ctx = self.ctx
        lc = ctx.cls[cards[0]]
        others = [s for s in range(4) if s != self.seat]
        if all(lc in self.voids[s] for s in others):
            return True
        return all(self.comp_is_master(c, lc) for c in split(cards, ctx))

    def may_ruff(self, seat: int, lc: str) -> bool:
        """Could `seat` ruff a lead of non-trump suit `lc`? (shown void, or few left)."""
        if lc == engine.TRUMP_CLASS or engine.TRUMP_CLASS in self.voids[seat]:
            return False
        if lc in self.voids[seat]:
            return True
        return self.unseen_count(lc) <= 2

    def may_hold(self, seat: int, lc: str) -> bool:
        return lc not in self.voids[seat]


def declared_held(obs: Observation, by_seat: list[Counter[str]]) -> list[Counter[str]]:
    """Per seat, the declared cards (shown face up, RULES §3.3) not yet played."""
    areas: list[Counter[str]] = [Counter(), Counter(), Counter(), Counter()]
    shown: list[Counter[str]] = [Counter(), Counter(), Counter(), Counter()]
    owner = None
    for seat, cards, _, _, reinforce in obs.declarations:
        if not reinforce and owner is not None:
            areas[owner] = Counter()
        areas[seat] = areas[seat] + Counter(cards) if reinforce else Counter(cards)
        owner = seat
        shown[seat] |= areas[seat]
    return [shown[s] - by_seat[s] if s != obs.seat else Counter() for s in range(4)]
