"""The rating maths: OpenSkill's Weng-Lin Plackett-Luce model for two teams of two (a
match) or any number of teams (a board of a duplicate event), and the site's policy around
it (docs/ratings.md). Pure: no Django, no database.

Everything here is a pure function of its arguments, so replaying the stored history
(games/ratings/history.py) gives back exactly the stored values.
"""

from dataclasses import dataclass

from openskill.models import PlackettLuce

# The library's defaults (μ 25, σ 25/3, β 25/6, τ 25/300): τ keeps σ from shrinking to
# nothing, so a long-standing rating still moves.
MODEL = PlackettLuce()

# Displayed rating: the conservative estimate μ − 3σ (the library's `ordinal`), scaled so
# that a newcomer shows 1000 and an established average player about 1450.
DISPLAY_SCALE = 25.0
DISPLAY_BASE = 1000.0
# A player with fewer rated matches than this is provisional: their σ is still large.
PROVISIONAL_MATCHES = 10
# The same four people again within a day count for less each time (docs/ratings.md).
REPEAT_WINDOW_HOURS = 24
REPEAT_DAMPING = 0.5


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float


def initial() -> Skill:
    return Skill(mu=MODEL.mu, sigma=MODEL.sigma)


def display(skill: Skill) -> int:
    """The number people read: the library's ordinal (μ − 3σ), scaled and rounded."""
    ordinal = MODEL.rating(mu=skill.mu, sigma=skill.sigma).ordinal(alpha=DISPLAY_SCALE, target=DISPLAY_BASE)
    return round(ordinal)


def repeat_factor(earlier_same_lineup: int) -> float:
    """1 for the first match of a line-up within the window, then ½, ¼, …"""
    return REPEAT_DAMPING**earlier_same_lineup


def team_update(
    winners: list[Skill], losers: list[Skill], *, factor: float = 1.0, model: PlackettLuce = MODEL
) -> tuple[list[Skill], list[Skill]]:
    """Both teams' skills after `winners` beat `losers` (the library's `rate`, first rank
    wins); with `factor` < 1 each player moves only that share of the way."""
    after = teams_update([winners, losers], [1, 2], factor=factor, model=model)
    return after[0], after[1]


def teams_update(
    teams: list[list[Skill]], ranks: list[float], *, factor: float = 1.0, model: PlackettLuce = MODEL
) -> list[list[Skill]]:
    """Every team's skills after one game that placed them at `ranks` (1 the best, equal
    ranks a tie): the library's `rate` for any number of teams."""
    rated = model.rate([[model.rating(mu=s.mu, sigma=s.sigma) for s in team] for team in teams], ranks=ranks)
    return [
        [_towards(before, Skill(mu=r.mu, sigma=r.sigma), factor) for before, r in zip(team, new)]
        for team, new in zip(teams, rated)
    ]


def _towards(before: Skill, after: Skill, factor: float) -> Skill:
    if factor == 1.0:
        return after
    return Skill(
        mu=before.mu + factor * (after.mu - before.mu),
        sigma=before.sigma + factor * (after.sigma - before.sigma),
    )
