"""A lesson's position, and the engine Game it is played from.

A position is data: the level, trump and dealer, each seat's cards and the trick so far.
`position_game` builds the Game with the engine's own mid-hand constructor
(`casebook.table`, the one the rule cases use) and then plays the trick so far and any
earlier declarations through `engine.apply`, so a position that breaks a rule fails to
build instead of teaching something the game would never allow.
"""

from dataclasses import dataclass, field
from typing import Any

from games import engine
from games.engine.casebook import table

LEARNER = 0  # the learner's seat: at the bottom of the lesson's table, as at a real one


def cards(text: str) -> list[str]:
    """Card codes written with spaces ("SA SK H10") as a list."""
    return text.split()


@dataclass(frozen=True)
class Position:
    """A lesson's starting position. Seats are the engine's: the learner is 0, the opponent
    on their right 1, the partner 2 and the opponent on their left 3 (RULES §1.1).

    `hands`: each seat's cards now (after the trick so far). `trick`: the plays so far, in
    order, as (seat, cards). `phase`: "play", "bury" (the dealer's hand holds the kitty,
    `kitty` names those 8 cards) or "deal" (a first hand: whoever's declaration stands
    deals). `declared`: declarations made before the learner's turn, as (seat, cards).
    `buried`: the dealer's 8 buried cards in the play phase (their points count at the end
    of the hand, RULES §6). `defender_points`: points the defenders won in earlier tricks."""

    level: str
    trump: str | None
    dealer: int | None
    hands: tuple[str, str, str, str]
    trick: tuple[tuple[int, str], ...] = ()
    leader: int | None = None  # who leads when the trick is still empty (default: the learner)
    phase: str = "play"
    kitty: str = ""
    buried: str = "S3 S4 H3 H4 D3 D4 C3 C4"
    declared: tuple[tuple[int, str], ...] = ()
    defender_points: int = 0
    replies: dict[int, tuple[str, ...]] = field(default_factory=dict)  # see coach.reply


def position_game(position: Position) -> engine.Game:
    """The engine Game of `position`, the learner to act."""
    first_hand = position.phase == "deal"
    game = table(position.level, position.trump, position.dealer, hand_no=1 if first_hand else 2)
    hands = [cards(h) for h in position.hands]
    game.kitty = cards(position.kitty) if position.phase == "bury" else cards(position.buried)
    if position.phase == "deal":
        return _dealing(game, hands, position)
    if position.phase == "bury":
        game.phase = "bury"
        game.hands = hands
        game.turn = position.dealer
        return game
    return _playing(game, hands, position)


def _dealing(game: engine.Game, hands: list[list[str]], position: Position) -> engine.Game:
    """A first hand's deal: the earlier declarations are made through the engine."""
    for seat, shown in position.declared:
        hands[seat] = hands[seat] + cards(shown)
    game.phase = "deal"
    game.hands = hands
    game.deck = engine.full_deck()  # stands in for the deck: the lesson never deals from it
    for seat, shown in position.declared:
        engine.apply(game, {"type": "declare", "seat": seat, "cards": cards(shown)})
    return game


def _playing(game: engine.Game, hands: list[list[str]], position: Position) -> engine.Game:
    """The play phase: the trick so far is played through the engine from its leader on."""
    for seat, played in position.trick:
        hands[seat] = hands[seat] + cards(played)
    game.phase = "play"
    game.hands = hands
    game.buried = cards(position.buried)
    game.defender_points = position.defender_points
    leader = position.trick[0][0] if position.trick else LEARNER if position.leader is None else position.leader
    game.leader = game.turn = leader
    for seat, played in position.trick:
        engine.apply(game, {"type": "play", "seat": seat, "cards": cards(played)})
    return game


def snapshot(game: engine.Game) -> dict[str, Any]:
    """The Game as the session keeps it (JSON)."""
    return game.to_json()


def restore(data: dict[str, Any]) -> engine.Game:
    return engine.Game.from_json(data)
