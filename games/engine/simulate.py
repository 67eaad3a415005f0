"""A fast path through the play of a hand, for playouts (the strong bot's rollouts).

`Playout.play` applies the same rules as actions.play, in the same order — the throw
check and its penalty (RULES §5.3), the trick winner (§5.5), trick points to the
defenders (§5.6) and the end-of-hand score (§6, §7.1) — but for plays the caller knows
to be legal: no validation, no events, no Game. That is what a rollout needs thousands
of times a decision; a live table always goes through `apply`.
"""

from collections.abc import Sequence

from .cards import points
from .order import TrumpContext
from .rules import DEFAULT_RULES, Rules
from .scoring import hand_score, is_defender, penalty_delta, throw_penalty
from .seats import next_seat
from .tricks import check_throw, trick_winner


class Playout:
    """The play phase of one hand from some point on. `hands` (four card lists) and
    `trick` are the caller's lists and change in place as cards are played; a finished
    trick's list is left as it is (four plays) and a new list starts the next one. `rules`
    are the table's (the throw penalty and the kitty bonus depend on them); `ctx` must be
    built with the same rules' 2s."""

    __slots__ = ("buried", "ctx", "dealer", "defender_points", "hands", "penalties", "rules", "score", "trick", "turn")

    def __init__(
        self,
        *,
        ctx: TrumpContext,
        dealer: int,
        hands: list[list[str]],
        buried: Sequence[str],
        trick: list[tuple[int, list[str]]],
        turn: int,
        defender_points: int = 0,
        penalties: int = 0,
        rules: Rules = DEFAULT_RULES,
    ) -> None:
        self.ctx, self.dealer, self.hands, self.buried = ctx, dealer, hands, buried
        self.rules = rules
        self.trick, self.turn = trick, turn
        self.defender_points, self.penalties = defender_points, penalties
        self.score: int | None = None  # the defenders' score once the hand is over

    def play(self, cards: Sequence[str]) -> list[str]:
        """Play `cards` (legal) for the seat to move; returns what went to the trick:
        the cards, or the forced component of a failed throw (§5.3)."""
        seat, trick, hands = self.turn, self.trick, self.hands
        played = list(cards)
        if not trick and len(played) > 1:
            failed = check_throw(played, seat, hands, self.ctx)
            if failed is not None:
                penalty = throw_penalty(
                    attempted=played, forced=failed["forced"], penalty=failed["penalty"], rules=self.rules
                )
                self.penalties += penalty_delta(seat=seat, dealer=self.dealer, penalty=penalty)
                played = failed["forced"]
        hand = hands[seat]
        for c in played:
            hand.remove(c)
        trick.append((seat, played))
        if len(trick) < 4:
            self.turn = next_seat(seat)
            return played
        winner = trick_winner(trick, self.ctx)
        if is_defender(winner, self.dealer):
            self.defender_points += sum(points(cs) for _, cs in trick)
        self.turn = winner
        if not any(hands):
            self.score = hand_score(
                last_plays=trick,
                last_winner=winner,
                buried=self.buried,
                dealer=self.dealer,
                trick_points=self.defender_points,
                penalties=self.penalties,
                ctx=self.ctx,
                rules=self.rules,
            )[0]
        else:
            self.trick = []
        return played
