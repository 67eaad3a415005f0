"""Playing hands between bot levels without the web layer (for botmatch and tests).

Declarations: after each dealt card the seat that received it may declare (its own
checkpoint), and every seat gets one more look in the last-chance window (RULES §3.4).
"""
import time

from games import engine

from . import decide, decide_declaration, observe


def fresh_hand(seed, *, dealer, level):
    """A Game about to deal hand 2 of a match at `level` for both teams, dealer fixed
    (so both runs of a duplicate deal have the same dealer seat and cards)."""
    game = engine.Game.new()
    game.phase, game.hand_no = "scored", 1
    game.levels = {"0": level, "1": level}
    game.result = {"next_dealer": dealer}
    engine.apply(game, {"type": "start_hand", "seed": seed})
    return game


def _declare(game, seat, level):
    if level == "random" or not engine.legal_declarations(game, seat):
        return
    cards = decide_declaration(observe(game, seat), level)
    if cards:
        engine.apply(game, {"type": "declare", "seat": seat, "cards": list(cards)})


def play_hand(game, levels, rng, times=None, options=None):
    """Deal, declare, bury and play one hand; `levels[seat]` is each seat's bot level.
    Appends each bury/play decision's seconds to `times[level]`. Returns the result."""
    options = options or {}
    while game.phase == "deal":
        engine.apply(game, {"type": "deal"})
        _declare(game, (game.first + game.dealt - 1) % 4, levels[(game.first + game.dealt - 1) % 4])
    for seat in range(4):
        _declare(game, seat, levels[seat])
    engine.apply(game, {"type": "fix_trump"})
    while game.phase in ("bury", "play"):
        seat = game.turn
        level = levels[seat]
        t0 = time.perf_counter()
        action = decide(observe(game, seat), level, rng, **options.get(level, {}))
        if times is not None:
            times.setdefault(level, []).append(time.perf_counter() - t0)
        engine.apply(game, action)
    return game.result
