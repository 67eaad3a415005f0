"""System checks of the games app's settings (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def deck_seed_unset(app_configs, **kwargs) -> list[Error]:
    """GAMES_DECK_SEED fixes every deck for tests and benchmarks: on a live site anyone who
    learnt it could work out every hand's deal, the kitty included (RULES §9)."""
    if not settings.GAMES_DECK_SEED:
        return []
    return [
        Error(
            "GAMES_DECK_SEED is set: every deck can be worked out from it.",
            hint="Leave GAMES_DECK_SEED empty in production; it is for tests and benchmarks.",
            id="games.E001",
        )
    ]
