"""The bot levels people choose from: every level of `games.bots.LEVELS` except "random"
(a test opponent, not a partner anyone wants), weakest first as LEVELS lists them.

A table's owner picks one per bot seat (games/runtime/seating.py); "Play now" seats the
player's remembered level (accounts.Profile.bot_level), else the site's default,
`settings.GAMES_BOT_LEVEL` ("basic"; guests get the weakest offered level). When the
configured level is not one this build's bots know, the strongest level there is stands in
for it, so the default never names a bot that cannot play.
"""

from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games import bots

NOT_OFFERED = frozenset({"random"})

# How a bot seat reads at the table, in the lobby and in the history ("East · strong bot").
# Labels for levels a build may not have yet (expert) are here so they are translated.
SEAT_LABELS = {
    "novice": _("novice bot"),
    "basic": _("basic bot"),
    "strong": _("strong bot"),
    "expert": _("expert bot"),
}
# The level alone, in a list to choose from.
CHOICE_LABELS = {"novice": _("Novice"), "basic": _("Basic"), "strong": _("Strong"), "expert": _("Expert")}


def offered() -> tuple[str, ...]:
    """The levels one may seat, weakest first."""
    return tuple(level for level in bots.LEVELS if level not in NOT_OFFERED)


def default() -> str:
    """The site's default level, or the strongest offered when the default is not offered."""
    levels = offered()
    return settings.GAMES_BOT_LEVEL if settings.GAMES_BOT_LEVEL in levels else levels[-1]


def remembered(level: str) -> str:
    """A player's remembered level when it is still offered ("" or a retired one: the default)."""
    return level if level in offered() else default()


def choices() -> list[tuple[str, str]]:
    return [(level, str(CHOICE_LABELS.get(level, level))) for level in offered()]


def seat_label(level: str) -> str:
    return str(SEAT_LABELS.get(level, level))
