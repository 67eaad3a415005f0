"""How seats and bots are named to people: by compass seat (RULES §1.1: seats 0 and 2 are
North–South) and, for a bot, its strength, so that three bots at one table read apart
("East · strong bot", "东 · 高级机器人")."""

from django.utils.translation import gettext_lazy

SEAT_NAMES = (gettext_lazy("North"), gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"))


def bot_name(*, position: int, level: object) -> str:
    """`level` is the bot's strength as people read it (games.bot_levels.seat_label)."""
    return f"{SEAT_NAMES[position]} · {level}"
