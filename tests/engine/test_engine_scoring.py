"""RULES §6 kitty bonus, §7 scoring, §8 next dealer and match end (and their house rules)."""

import json
from pathlib import Path

import pytest

from games.engine import context, hand_outcome, kitty_bonus, kitty_multiplier, level_change
from games.engine.cards import RANKS
from games.engine.casebook import report, run_case
from games.engine.rules import Rules
from games.engine.scoring import climb

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


DEALER_AT_A = Rules(match_end="dealer_at_a")


@pytest.mark.parametrize(
    "rules,score",
    [
        (DEALER_AT_A, 80),
        (DEALER_AT_A, 240),  # +4 (issue 43)
        (Rules(match_end="dealer_at_a", level_steps="gentle"), 150),  # +1 (issue 43)
        (Rules(match_end="dealer_at_a", must_play="5_10_k"), 400),
    ],
)
def test_dealer_at_a_defenders_at_a_only_take_over(rules, score):  # house rule match_end, §8.1
    out = hand_outcome(1, {"0": "A", "1": "9"}, score, rules)
    assert out["winner"] is None and out["next_dealer"] == 2
    assert out["levels"] == {"0": "A", "1": "9"} and out["level_change"] == {"team": 0, "levels": 0}


@pytest.mark.parametrize("must_play", ["a", "5_10_k"])
@pytest.mark.parametrize("steps", [0, 1, 2, 5])
def test_a_climb_from_a_stays_at_a_where_a_must_be_played(must_play, steps):  # §8.1
    assert climb("A", steps, Rules(must_play=must_play)) == ("A", False)


def test_only_must_play_none_climbs_past_a():  # house rule must_play = none
    assert climb("A", 1, Rules(must_play="none")) == ("A", True)
    assert climb("K", 2, Rules(must_play="none")) == ("A", True)
    assert climb("K", 1, Rules(must_play="none")) == ("A", False)  # landing on A


@pytest.mark.parametrize("start", ["2", "4", "5", "6", "9", "10", "J", "K"])
def test_5_10_k_never_passes_a_must_play_rank(start):  # house rule must_play = 5_10_k
    for steps in range(12):
        after, passed_a = climb(start, steps, Rules(must_play="5_10_k"))
        lo, hi = RANKS.index(start), RANKS.index(after)
        assert not passed_a and lo <= hi
        assert not [r for r in ("5", "10", "K", "A") if lo < RANKS.index(r) < hi]


CASES = Path(__file__).parents[1] / "rules_cases"


def test_house_rule_cases_each_differ_from_rules_md():
    """tests/rules_cases/house_rules_vs_rules_md.json: every case passes under its house
    rules and fails under RULES.md, so each shows what its option changes."""
    cases = json.loads((CASES / "house_rules_vs_rules_md.json").read_text())
    assert len(cases) >= 30
    for case in cases:
        assert case["rules"], case["id"]
        assert run_case(case)[0], case["id"]
        assert not run_case({k: v for k, v in case.items() if k != "rules"})[0], case["id"]


def test_a_wrong_expected_value_fails_rulecheck(tmp_path):
    cases = json.loads((CASES / "house_rules_vs_rules_md.json").read_text())
    issue = next(c for c in cases if c["id"] == "hd-end-dealer-at-a-defenders-240")
    wrong = dict(issue, expect=dict(issue["expect"], next_dealer=None, winner=0))
    (tmp_path / "cases.json").write_text(json.dumps([issue, wrong]))
    lines: list[str] = []
    assert report([tmp_path], lines.append) == 1
    assert lines[-1] == "rulecheck: 1 passed, 1 failed"
    assert lines[0].startswith("FAIL hd-end-dealer-at-a-defenders-240: expected")
