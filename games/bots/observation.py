"""What a bot may know: one seat's view plus the hand's public trick history (RULES §9).

`observe(game, seat)` is the only place in games/bots that reads a `Game`. It copies
`engine.view(game, seat)` (own hand, counts, declarations, flipped card, the kitty for
the dealer alone, the current trick, points, penalties) and adds one field the view
only summarises: `tricks`, the hand's finished tricks (leader, plays, winner, points)
from `game.tricks`. Every card in them was played face up to a trick, which everyone
sees (RULES §9 "cards played to tricks, trick winners, points won"); the view itself
shows only the last one. Nothing else of `game` is read: no other hand, no deck, no
kitty for a non-dealer.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field

from games import engine
from games.engine.cards import Play

Cards = tuple[str, ...]
Plays = tuple[tuple[int, Cards], ...]  # ((seat, cards), ...), lead first


@dataclass(frozen=True)
class Observation:
    seat: int
    phase: str
    hand_no: int
    level: str
    levels: tuple[str, str]  # (team 0 level, team 1 level)
    dealer: int | None
    trump: str | None
    dealt: int
    hand: Cards  # own cards, display order
    hand_counts: tuple[int, ...]  # cards held by seats 0..3
    standing: tuple[int, Cards, int, str] | None  # (seat, cards, strength, trump)
    declarations: tuple[tuple[int, Cards, int, str, bool], ...]  # (seat, cards, strength, trump, reinforce)
    flipped: str | None
    kitty: Cards | None  # dealer only: picked-up kitty (bury) / own bury (play)
    turn: int | None
    leader: int | None
    trick: Plays  # current trick
    tricks: tuple[tuple[int, Plays, int, int], ...]  # finished: (leader, plays, winner, points)
    defender_points: int
    penalties: int
    can_declare: tuple[Cards, ...]  # card lists this seat may declare now
    # The table's rules (public, in the view). Left out of repr: a bot's random choices
    # are seeded from repr(obs), and RULES.md tables keep the seeds they always had.
    rules: engine.Rules = field(default=engine.DEFAULT_RULES, repr=False)

    @property
    def partner(self) -> int:
        return engine.partner_of(self.seat)

    @property
    def ctx(self) -> engine.TrumpContext:
        return engine.context(self.level, self.trump, self.rules.permanent_twos)

    def cards_seen(self) -> list[str]:
        """Every card code in the observation (the honesty test checks this list)."""
        out = list(self.hand)
        if self.standing:
            out += self.standing[1]
        for d in self.declarations:
            out += d[1]
        if self.flipped:
            out.append(self.flipped)
        out += self.kitty or ()
        for _, cards in self.trick:
            out += cards
        for t in self.tricks:
            for _, cards in t[1]:
                out += cards
        for cards in self.can_declare:
            out += cards
        return out


def _plays(plays: Iterable[Play]) -> Plays:
    return tuple((s, tuple(c)) for s, c in plays)


def observe(game: engine.Game, seat: int) -> Observation:
    """The Observation of `seat` (0-3) for `game` (see the module doc for what is read)."""
    v = engine.view(game, seat)
    st = v["standing"]
    return Observation(
        seat=seat,
        phase=v["phase"],
        hand_no=v["hand_no"],
        level=v["level"],
        levels=(v["levels"]["0"], v["levels"]["1"]),
        dealer=v["dealer"],
        trump=v["trump"],
        dealt=v["dealt"],
        hand=tuple(v["hand"]),
        hand_counts=tuple(v["hand_counts"]),
        standing=(st["seat"], tuple(st["cards"]), st["strength"], st["trump"]) if st else None,
        declarations=tuple(
            (d["seat"], tuple(d["cards"]), d["strength"], d["trump"], d["reinforce"]) for d in v["declarations"]
        ),
        flipped=v["flipped"],
        kitty=tuple(v["kitty"]) if v["kitty"] is not None else None,
        turn=v["turn"],
        leader=v["leader"],
        trick=_plays(v["trick"]),
        # Public (RULES §9): all cards played to tricks and who won them.
        tricks=tuple((t["leader"], _plays(t["plays"]), t["winner"], t["points"]) for t in (game.tricks or [])),
        defender_points=v["defender_points"],
        penalties=v["penalties"],
        can_declare=tuple(tuple(c) for c in v["can_declare"]),
        rules=engine.Rules.from_json(v.get("rules")),
    )
