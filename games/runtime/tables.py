"""Creating tables (the only table write outside writer.table_act: no version exists yet to check)."""

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_noop

from games import events
from games.engine import Refusal
from games.models import Seat, Table

# A public table always has a turn limit: one absent player must not stall three others
# (a bot plays for whoever runs out of time). "Off" is for private tables, among friends.
PUBLIC_TURN_LIMIT_S = 30
PUBLIC_NEEDS_LIMIT = gettext_noop(
    "A public table needs a turn limit, so that one absent player cannot stall it. "
    "Choose “off” only at a private table."
)


@transaction.atomic
def table_create(*, owner, **options) -> Table:
    """A new table with four free seats. Every caller (the form, Play now, scripts) comes
    here, so the rule lives here: a public table without a turn limit given gets the
    default one, and one asked for with the limit off is refused (nothing is created). A
    table made without a deal pace (Play now) deals at the site's GAMES_DEAL_PACE_MS."""
    options.setdefault("deal_pace_ms", settings.GAMES_DEAL_PACE_MS)
    if not options.get("is_private"):
        options.setdefault("turn_limit_s", PUBLIC_TURN_LIMIT_S)
        if not options["turn_limit_s"]:
            raise Refusal("public_needs_limit", PUBLIC_NEEDS_LIMIT)
    table = Table.objects.create(owner=owner, **options)
    Seat.objects.bulk_create(Seat(table=table, position=position) for position in range(4))
    events.send_on_commit(group=events.LOBBY_GROUP, message=events.lobby_changed())
    return table
