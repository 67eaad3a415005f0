"""How a hand's result moves the levels and when a match ends (RULES §7.2, §8), under every
preset and every valid combination of the house rules `level_steps`, `must_play` and
`match_end` (docs/house-rules.md §7, §8, §10).

The definitions below are written out again from docs/house-rules.md and RULES.md, in the
plainest form (tables, and a climb one rank at a time), without the engine's helpers: the
engine's `hand_outcome` must agree with them for any levels, dealer and score.
"""

import itertools
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.engine import hand_outcome
from games.engine.errors import Refusal
from games.engine.rules import OPTION_BY_NAME, PRESETS, check_rules, conflicts, preset_rules

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]  # RULES §2.1

# docs/house-rules.md §8: the ranks a climb may not pass over.
MUST_PLAY = {"a": {"A"}, "5_10_k": {"5", "10", "K", "A"}, "none": set()}

# RULES §7.2 and docs/house-rules.md §7: (lowest score, highest score, who wins, levels),
# then "each further 40 (80) one more level" past the last row.
STEPS = {
    "standard": [
        (0, 0, "dealer", 3),
        (1, 39, "dealer", 2),
        (40, 79, "dealer", 1),
        (80, 119, "defenders", 0),
        (120, 159, "defenders", 1),
        (160, 199, "defenders", 2),
        (200, 239, "defenders", 3),
    ],
    "gentle": [
        (0, 0, "dealer", 2),
        (1, 79, "dealer", 1),
        (80, 119, "defenders", 0),
        (120, 199, "defenders", 1),
        (200, 279, "defenders", 2),
    ],
}
FURTHER = {"standard": 40, "gentle": 80}


def hand_won(score: int, level_steps: str) -> tuple[str, int]:
    """Who wins the hand ("dealer" or "defenders") and how many levels, read off the table."""
    score = max(score, 0)  # RULES §7.1: a score at or below 0 counts as 0
    for low, high, side, levels in STEPS[level_steps]:
        if low <= score <= high:
            return side, levels
    low, high, side, levels = STEPS[level_steps][-1]
    while score > high:  # each further 40 (gentle: 80) one more level
        high += FURTHER[level_steps]
        levels += 1
    return side, levels


def climb(start: str, steps: int, must_play: str) -> tuple[str, bool]:
    """Climb one rank at a time: (where the climb ends, whether it went past A).

    A climb stops on a must-play rank it would pass over; the rank it starts from is left,
    not passed over. Nothing lies above A: a climb that would go on from A goes past A only
    where A need not be played (`none`); elsewhere it stays at A (RULES §8.1)."""
    must = MUST_PLAY[must_play]
    rank = start
    for _ in range(steps):
        if rank != start and rank in must:
            return rank, False
        if rank == "A":
            return "A", "A" not in must
        rank = RANKS[RANKS.index(rank) + 1]
    return rank, False


def expected(dealer: int, levels: dict[str, str], score: int, must_play: str, match_end: str, level_steps: str):
    """(levels after, next dealer, winner) by the definitions."""
    dealer_team = dealer % 2  # team "0" is seats 0 and 2
    side, steps = hand_won(score, level_steps)
    team = dealer_team if side == "dealer" else 1 - dealer_team
    after = dict(levels)
    after[str(team)], past_a = climb(levels[str(team)], steps, must_play)
    # RULES §8.4: at A before the hand and winning it; match_end = dealer_at_a: only as the
    # dealer team. must_play = none: climbing past A wins at once.
    at_a_and_won = levels[str(team)] == "A" and (match_end == "pass_a" or side == "dealer")
    if at_a_and_won or (must_play == "none" and past_a):
        return after, None, team
    next_dealer = (dealer + 2) % 4 if side == "dealer" else (dealer + 1) % 4  # RULES §8.2
    return after, next_dealer, None


VALUES = {
    "must_play": ["a", "5_10_k", "none"],
    "match_end": ["pass_a", "dealer_at_a"],
    "level_steps": ["standard", "gentle"],
}
INVALID = {("none", "dealer_at_a")}  # docs/house-rules.md "Meaningless combinations"
COMBINATIONS = [
    (preset, must_play, match_end, level_steps)
    for preset in PRESETS
    for must_play, match_end, level_steps in itertools.product(*VALUES.values())
    if (must_play, match_end) not in INVALID
]


def test_the_definitions_cover_every_value_and_skip_only_refused_combinations():
    for name, values in VALUES.items():
        assert values == list(OPTION_BY_NAME[name].values)
    for must_play, match_end, level_steps in itertools.product(*VALUES.values()):
        refused = bool(conflicts(replace(preset_rules("standard"), must_play=must_play, match_end=match_end)))
        assert refused == ((must_play, match_end) in INVALID)
        if refused:
            with pytest.raises(Refusal):
                check_rules({"must_play": must_play, "match_end": match_end, "level_steps": level_steps})


def test_the_definitions_give_the_documented_answers():
    # docs/house-rules.md §7: gentle 200-279 is +2; standard 240 is +4.
    assert hand_won(279, "gentle") == ("defenders", 2) and hand_won(280, "gentle") == ("defenders", 3)
    assert hand_won(240, "standard") == ("defenders", 4) and hand_won(-5, "standard") == ("dealer", 3)
    # docs/house-rules.md §8: from 3, +3 lands on 5; from 9, +2 on 10; from Q, +3 on K.
    assert climb("3", 3, "5_10_k") == ("5", False) and climb("9", 2, "5_10_k") == ("10", False)
    assert climb("Q", 3, "5_10_k") == ("K", False) and climb("5", 3, "5_10_k") == ("8", False)
    assert climb("Q", 3, "none") == ("A", True) and climb("J", 3, "none") == ("A", False)
    assert climb("A", 4, "a") == ("A", False) and climb("A", 1, "none") == ("A", True)


RANK = st.sampled_from(RANKS)


@pytest.mark.parametrize("preset,must_play,match_end,level_steps", COMBINATIONS)
@settings(max_examples=150, deadline=None)
@given(dealer=st.integers(0, 3), mine=RANK, theirs=RANK, score=st.integers(-60, 600))
@example(dealer=1, mine="9", theirs="A", score=240)  # issue 43: defenders at A, +4
@example(dealer=1, mine="9", theirs="A", score=150)  # issue 43 under gentle: +1
@example(dealer=0, mine="10", theirs="A", score=0)  # dealer at 10, +3 past K
def test_hand_outcome_follows_the_definitions(preset, must_play, match_end, level_steps, dealer, mine, theirs, score):
    rules = replace(preset_rules(preset), must_play=must_play, match_end=match_end, level_steps=level_steps)
    assert not conflicts(rules)
    # `mine` is the dealer team's level, `theirs` the defenders'.
    levels = {str(dealer % 2): mine, str(1 - dealer % 2): theirs}
    got = hand_outcome(dealer, levels, score, rules)
    after, next_dealer, winner = expected(dealer, levels, score, must_play, match_end, level_steps)

    # A winner is named only when the definitions end the match (and then always).
    assert got["winner"] == winner, (levels, score)
    assert (got["next_dealer"] is None) == (winner is not None)
    # No team moves past a must-play rank it has not played, nor down, nor past A.
    for team in "01":
        before, now = RANKS.index(levels[team]), RANKS.index(got["levels"][team])
        assert before <= now
        assert not [r for r in MUST_PLAY[must_play] if before < RANKS.index(r) < now], (levels, got)
    # And exactly the definitions' levels and next dealer.
    assert got["levels"] == after, (levels, score)
    assert got["next_dealer"] == next_dealer
