"""How seats and bots are named to people.

At the table a bot has a name of its own, one per level and seat, so that three bots at
one table read apart and a name says how strong its bot plays ("Professor Li", with its
level, "expert bot", on the line below and its face, static/img/bots/<level>.svg). The
lobby and the history name a bot by its compass seat (RULES §1.1: seats 0 and 2 are
North–South) and its strength ("East · strong bot", "东 · 高级机器人").
"""

from django.utils.translation import gettext_lazy, pgettext_lazy

SEAT_NAMES = (gettext_lazy("North"), gettext_lazy("East"), gettext_lazy("South"), gettext_lazy("West"))

# A bot's name at the table, by level and seat (North, East, South, West).
BOT_NAMES = {
    "novice": (
        pgettext_lazy("novice bot", "Sprout"),
        pgettext_lazy("novice bot", "Pebble"),
        pgettext_lazy("novice bot", "Button"),
        pgettext_lazy("novice bot", "Acorn"),
    ),
    "basic": (
        pgettext_lazy("basic bot", "Mei"),
        pgettext_lazy("basic bot", "Sam"),
        pgettext_lazy("basic bot", "Lin"),
        pgettext_lazy("basic bot", "Tom"),
    ),
    "strong": (
        pgettext_lazy("strong bot", "Feng"),
        pgettext_lazy("strong bot", "Iris"),
        pgettext_lazy("strong bot", "Leo"),
        pgettext_lazy("strong bot", "Yun"),
    ),
    "expert": (
        pgettext_lazy("expert bot", "Master Wu"),
        pgettext_lazy("expert bot", "Professor Li"),
        pgettext_lazy("expert bot", "Grandma Zhou"),
        pgettext_lazy("expert bot", "Captain Ma"),
    ),
}


def bot_name(*, position: int, level: object) -> str:
    """The lobby's and the history's name of a bot: its seat and `level`, its strength as
    people read it (games.bot_levels.seat_label)."""
    return f"{SEAT_NAMES[position]} · {level}"


def bot_table_name(*, position: int, level: str) -> str:
    """The bot's own name at the table, in the active language."""
    names = BOT_NAMES.get(level)
    return str(names[position] if names else SEAT_NAMES[position])


def seat_names(seats) -> list[str]:
    """Each seat's name at the table: its person's, a bot's own, "" for a free seat."""
    return [
        seat.user.username
        if seat.user_id
        else bot_table_name(position=seat.position, level=seat.bot)
        if seat.bot
        else ""
        for seat in seats
    ]
