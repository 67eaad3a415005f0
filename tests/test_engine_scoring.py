"""RULES §6 kitty bonus, §7 scoring, §8 next dealer and match end."""

import pytest

from games.engine import context, hand_outcome, kitty_bonus, kitty_multiplier, level_change

H7 = context("7", "H")
KITTY = ["S5", "SK", "D10", "C3", "C4", "C6", "C8", "C9"]  # 25 points


@pytest.mark.parametrize(
    "lead,mult",
    [
        (["S3"], 2),
        (["S3", "S3"], 4),
        (["S4", "S4", "S3", "S3"], 16),
        (["S5", "S5", "S4", "S4", "S3", "S3"], 64),
        (["S6", "S6", "S5", "S5", "S4", "S4", "S3", "S3"], 64),
        (["SA", "SK", "SK"], 4),
        (["SA", "SK", "SQ"], 2),
        (["SA", "S9", "S9", "S8", "S8"], 16),
    ],
)
def test_kitty_multiplier(lead, mult):  # §6.1
    assert kitty_multiplier(lead, H7) == mult
    assert kitty_bonus(lead, KITTY, H7) == 25 * mult


def test_dealer_team_keeps_the_kitty():  # §6.2
    assert kitty_bonus(["S3", "S3"], KITTY, H7, defenders_won=False) == 0


@pytest.mark.parametrize(
    "score,expected",
    [
        (-30, ("dealer", 3)),
        (0, ("dealer", 3)),
        (1, ("dealer", 2)),
        (39, ("dealer", 2)),
        (40, ("dealer", 1)),
        (79, ("dealer", 1)),
        (80, ("defenders", 0)),
        (119, ("defenders", 0)),
        (120, ("defenders", 1)),
        (159, ("defenders", 1)),
        (160, ("defenders", 2)),
        (200, ("defenders", 3)),
        (239, ("defenders", 3)),
        (240, ("defenders", 4)),
        (400, ("defenders", 8)),
    ],
)
def test_level_change_table(score, expected):  # §7.2
    assert level_change(score) == expected


def test_dealer_keeps_deal_partner_deals_next():  # §8.2
    out = hand_outcome(1, {"0": "5", "1": "3"}, 50)
    assert out == {
        "levels": {"0": "5", "1": "4"},
        "next_dealer": 3,
        "winner": None,
        "level_change": {"team": 1, "levels": 1},
    }


def test_defenders_take_over_next_player_deals():  # §8.2
    out = hand_outcome(3, {"0": "5", "1": "3"}, 130)
    assert out["levels"] == {"0": "6", "1": "3"} and out["next_dealer"] == 0


def test_levels_stop_at_ace_without_winning():  # §8.1
    out = hand_outcome(0, {"0": "Q", "1": "3"}, 0)
    assert out["levels"]["0"] == "A" and out["winner"] is None and out["next_dealer"] == 2
    assert out["level_change"] == {"team": 0, "levels": 2}


def test_match_won_only_from_ace_before_the_hand():  # §8.4
    assert hand_outcome(0, {"0": "A", "1": "3"}, 79)["winner"] == 0
    assert hand_outcome(0, {"0": "A", "1": "3"}, 80)["winner"] is None
    assert hand_outcome(1, {"0": "A", "1": "3"}, 80)["winner"] == 0  # defenders at A
    assert hand_outcome(1, {"0": "A", "1": "3"}, 79)["winner"] is None
    assert hand_outcome(1, {"0": "A", "1": "3"}, 79)["next_dealer"] == 3
    assert hand_outcome(0, {"0": "A", "1": "K"}, 200)["winner"] is None  # K -> A, not won yet
