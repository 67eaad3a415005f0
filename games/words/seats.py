"""How seats and bots are named to people: by compass seat (RULES §1.1: seats 0 and 2 are
North–South) and, for a bot, its strength, so that three bots at one table read apart
("East · strong bot", "东 · 高级机器人")."""

from collections.abc import Callable

from django.utils.translation import gettext_lazy

SEAT_NAMES = (gettext_lazy("North"), gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"))


def bot_name(*, position: int, level: object, text: Callable[[object], str] = str) -> str:
    """`level` is the bot's strength as people read it (games.bot_levels.seat_label); `text`
    turns the lazy seat name into text (the table's render passes one that resolves
    each lazy message once per language)."""
    return f"{text(SEAT_NAMES[position])} · {text(level)}"
