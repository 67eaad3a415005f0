"""Boards: hands fixed in advance (docs/events.md). Pure: the rules engine only.

A board is the deck's order (its seed: `engine.shuffled_deck`), the dealer, who also
receives the first card (RULES §3.6), both teams' levels and the house rules. A table
starts it with the engine's `start_hand` carrying the board, the same step botmatch
(games/bots/match.py `fresh_hand`) plays its duplicate deals with, so the table's log folds
through the engine like any other hand's.
"""

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games import engine

# Levels a board may be dealt at: 2..K. A board at A could end the match with that hand
# (RULES §8.4), and an event's table plays all of its boards.
BOARD_LEVELS = engine.RANKS[:-1]


@dataclass(frozen=True)
class Board:
    number: int  # 1-based within its event
    seed: str  # the deck's order: secret until every table has played the board
    dealer: int  # seat 0-3, who also receives the first card (RULES §3.6)
    levels: Mapping[str, str]  # team ("0": seats 0/2, "1": seats 1/3) -> level rank
    rules: engine.Rules = engine.DEFAULT_RULES

    def start_action(self) -> dict[str, Any]:
        """The engine action that deals this board at a table."""
        board = {"dealer": self.dealer, "levels": dict(self.levels)}
        return {"type": "start_hand", "seed": self.seed, "board": board}

    def deck(self) -> list[str]:
        return engine.shuffled_deck(self.seed)

    def holdings(self) -> tuple[dict[int, list[str]], list[str]]:
        """Who was dealt which cards (seat -> its 25, from the dealer on: RULES §1.3, §3.6)
        and the kitty, which the dealer picks up (§4.1)."""
        deck = self.deck()
        held: dict[int, list[str]] = {seat: [] for seat in range(4)}
        for index in range(engine.DEALT_CARDS):
            held[engine.deal_receiver(first=self.dealer, index=index)].append(deck[index])
        return held, deck[engine.DEALT_CARDS :]

    def game(self) -> engine.Game:
        """A match under the board's rules with the board started (about to deal)."""
        game = engine.Game.new(self.rules)
        engine.apply(game, self.start_action())
        return game


def make_boards(seed: str, count: int, rules: engine.Rules = engine.DEFAULT_RULES) -> list[Board]:
    """`count` boards drawn from `seed` alone: the same seed, the same boards."""
    rng = random.Random(f"boards:{seed}")
    boards = []
    for number in range(1, count + 1):
        levels = {"0": rng.choice(BOARD_LEVELS), "1": rng.choice(BOARD_LEVELS)}
        boards.append(Board(number, f"{seed}:{number}", rng.randrange(4), levels, rules))
    return boards
