"""Creating tables (the only table write outside services.table_act: nothing exists yet to lock)."""
from django.db import transaction

from games.web.lobby import notify_lobby
from games.models import Seat, Table


@transaction.atomic
def table_create(*, owner, **options) -> Table:
    table = Table.objects.create(owner=owner, **options)
    Seat.objects.bulk_create(Seat(table=table, position=position) for position in range(4))
    transaction.on_commit(notify_lobby)
    return table
