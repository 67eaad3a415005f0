"""Creating tables (the only table write outside writer.table_act: nothing exists yet to lock)."""

from django.db import transaction

from games import events
from games.models import Seat, Table


@transaction.atomic
def table_create(*, owner, **options) -> Table:
    table = Table.objects.create(owner=owner, **options)
    Seat.objects.bulk_create(Seat(table=table, position=position) for position in range(4))
    events.send_on_commit(group=events.LOBBY_GROUP, message=events.lobby_changed())
    return table
