"""The engine and the bots leave nothing to the cyclic collector.

What reference counting cannot free waits for the cyclic collector, whose full
collections scan every live object of a server process. The hottest code,
the engine's rules, ran on every play, in every bot decision and every rollout; a nested
function that called itself (fit_tractors' search, the sub-multisets of legal_follows)
was a reference cycle per call: thousands of objects a minute at a busy table server, and
tens of thousands per hand in a searching bot.
"""

import gc
import random

import pytest

from games.bots import match
from tests.bots.test_bots import FAST


def _unreachable_after(play) -> int:
    gc.collect()
    gc.disable()
    try:
        play()
        return gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("level", ["random", "basic", "strong", "expert"])
def test_a_whole_hand_leaves_no_reference_cycles(level):
    """Dealt, declared, buried and played through the engine by four bots of one level
    (their searches run the engine's rules thousands of times)."""
    match.play_hand(match.fresh_hand("warm", dealer=0, level="5"), [level] * 4, random.Random(1), options=FAST)
    game = match.fresh_hand("cycles", dealer=1, level="7")

    found = _unreachable_after(lambda: match.play_hand(game, [level] * 4, random.Random(3), options=FAST))

    assert game.phase == "scored"
    assert found == 0
