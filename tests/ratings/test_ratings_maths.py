"""The rating maths (games/ratings/maths.py) against OpenSkill's own documented examples.

The library's README (every port: Python, JavaScript, Elixir, C#) rates a1 (the default
rating) and a2 = (32.444, 5.123) winning against b1 = (43.381, 2.421) and b2 = (25.188,
6.211); those numbers were computed before τ existed, so they hold for τ = 0. Its ordinal
example: μ 43.07, σ 2.42 → 35.81.
"""

import pytest
from openskill.models import PlackettLuce

from games.ratings import maths
from games.ratings.maths import Skill

README_WINNERS = [Skill(25.0, 25.0 / 3.0), Skill(32.444, 5.123)]
README_LOSERS = [Skill(43.381, 2.421), Skill(25.188, 6.211)]
README_AFTER = [
    (28.669648436582808, 8.071520788025197),
    (33.83086971107981, 5.062772998705765),
    (43.071274808241974, 2.4166900452721256),
    (23.149503312339064, 6.1378606973362135),
]


def test_the_readme_two_against_two_example():
    winners, losers = maths.team_update(README_WINNERS, README_LOSERS, model=PlackettLuce(tau=0))
    for skill, (mu, sigma) in zip(winners + losers, README_AFTER):
        assert skill.mu == pytest.approx(mu, abs=1e-12)
        assert skill.sigma == pytest.approx(sigma, abs=1e-12)


def test_the_site_model_is_the_library_default_with_its_dynamics_factor():
    """τ = 25/300 widens σ a little before each update: the same example moves a little more."""
    winners, losers = maths.team_update(README_WINNERS, README_LOSERS)
    expected = PlackettLuce().rate(
        [[PlackettLuce().rating(s.mu, s.sigma) for s in team] for team in (README_WINNERS, README_LOSERS)]
    )
    assert [(s.mu, s.sigma) for s in winners + losers] == [(r.mu, r.sigma) for team in expected for r in team]
    assert winners[0].mu > README_AFTER[0][0] and losers[1].mu < README_AFTER[3][0]


def test_the_readme_ordinal_example_scaled_for_display():
    assert PlackettLuce().rating(43.07, 2.42).ordinal() == pytest.approx(35.81)
    assert maths.display(Skill(43.07, 2.42)) == round(maths.DISPLAY_BASE + maths.DISPLAY_SCALE * 35.81)
    assert maths.display(maths.initial()) == 1000  # a newcomer: μ − 3σ = 0


def test_winners_go_up_and_losers_down():
    winners, losers = maths.team_update([maths.initial()] * 2, [maths.initial()] * 2)
    assert all(s.mu > 25 for s in winners) and all(s.mu < 25 for s in losers)
    assert all(s.sigma < 25 / 3 for s in winners + losers)
    assert all(maths.display(s) > 1000 for s in winners)


def test_a_repeated_line_up_moves_half_as_far_then_a_quarter():
    assert [maths.repeat_factor(n) for n in range(3)] == [1.0, 0.5, 0.25]
    full, _ = maths.team_update(README_WINNERS, README_LOSERS)
    half, _ = maths.team_update(README_WINNERS, README_LOSERS, factor=0.5)
    for before, whole, damped in zip(README_WINNERS, full, half):
        assert damped.mu - before.mu == pytest.approx((whole.mu - before.mu) / 2)
        assert damped.sigma - before.sigma == pytest.approx((whole.sigma - before.sigma) / 2)
