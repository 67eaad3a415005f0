"""A table's stored action log, folded back through the rules: the replays (games/history/)
and the hand analysis (games/analysis/) both rebuild a game from it."""

from collections.abc import Iterable
from typing import Any

from .actions import apply
from .errors import Refusal
from .game import Game
from .rules import DEFAULT_RULES, Rules


class ReplayError(Exception):
    """The stored log does not fold: it disagrees with the engine (a bug or a tampered log)."""


def apply_logged(game: Game, action: dict[str, Any]) -> list[dict[str, Any]]:
    """`apply` one logged action; a refusal means the log itself is wrong."""
    try:
        return apply(game, action)
    except Refusal as error:
        raise ReplayError(f"the log does not fold at {action!r}: {error}") from error


def fold(actions: Iterable[dict[str, Any]], rules: Rules = DEFAULT_RULES) -> Game:
    """A fresh match (`start_match`) under `rules` (the match's) with these engine actions
    applied in order."""
    game = Game.new(rules)
    for action in actions:
        apply_logged(game, action)
    return game
