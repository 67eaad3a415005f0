"""The end of a trick and of a hand (RULES §5.6–§8): who won the trick and its points, then
the kitty's bonus, the hand's score, the levels, the next dealer and the match's end. Both
write on the new Game that `actions.play` is building (copy-on-write: the old one is never
changed)."""

from typing import Any

from .cards import Play, points
from .game import Game, TrickRecord, dealer_of, hands_of
from .order import TrumpContext
from .scoring import HandResult, hand_outcome, hand_score, is_defender
from .seats import team_of
from .tricks import trick_winner

Event = dict[str, Any]


def finish_trick(g: Game, trick: list[Play], tricks: list[TrickRecord], ctx: TrumpContext) -> list[Event]:
    """Resolve the full `trick` on the new Game `g` (`tricks`: the old list, not changed)."""
    winner = trick_winner(trick, ctx)
    pts = sum(points(c) for _, c in trick)
    if is_defender(winner, dealer_of(g)):
        g.defender_points += pts  # §5.6: points count for the winner's team
    assert g.leader is not None
    record: TrickRecord = {"leader": g.leader, "plays": trick, "winner": winner, "points": pts}
    g.tricks = tricks + [record]
    events: list[Event] = [{"type": "trick_won", "seat": winner, "points": pts, "trick_no": len(g.tricks)}]
    g.trick = []
    g.leader = g.turn = winner
    if not any(hands_of(g)):
        events += finish_hand(g, record, ctx)
    return events


def finish_hand(g: Game, last: TrickRecord, ctx: TrumpContext) -> list[Event]:
    """§6 kitty bonus, §7 score, §8 levels, next dealer and match end (on the new Game)."""
    dealer, buried, kitty, declarations, trump = dealer_of(g), g.buried, g.kitty, g.declarations, g.trump
    assert buried is not None and kitty is not None and declarations is not None and trump is not None
    score, mult, bonus = hand_score(
        last_plays=last["plays"],
        last_winner=last["winner"],
        buried=buried,
        dealer=dealer,
        trick_points=g.defender_points,
        penalties=g.penalties,
        ctx=ctx,
        rules=g.rules,
    )
    outcome = hand_outcome(dealer, g.levels, score, g.rules)
    result = HandResult(
        hand_no=g.hand_no,
        dealer=dealer,
        dealer_team=team_of(dealer),
        level=g.level,
        trump=trump,
        flipped=g.flipped,
        declarations=tuple(declarations),
        kitty=tuple(kitty),
        buried=tuple(buried),
        trick_points=g.defender_points,
        kitty_points=points(buried),
        kitty_multiplier=mult,
        kitty_bonus=bonus,
        penalties=g.penalties,
        defenders_score=score,
        levels_before=g.levels,
        levels_after=outcome["levels"],
        level_change=outcome["level_change"],
        next_dealer=outcome["next_dealer"],
        winner=outcome["winner"],
    ).to_json()
    g.result = result
    g.levels = dict(outcome["levels"])
    g.turn = None
    events: list[Event] = [{"type": "hand_scored", "result": result}]
    if outcome["winner"] is not None:
        g.winner = outcome["winner"]
        g.phase = "finished"
        events.append({"type": "match_won", "team": g.winner})
    else:
        g.phase = "scored"
    return events
