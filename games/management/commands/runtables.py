"""Run every playing table's clock in this process, whether or not anyone is connected.

Useful for all-bot tables and right after a restart; safe beside web processes
because every timed step carries the version it expects.
"""

import asyncio

from channels.db import database_sync_to_async
from django.core.management.base import BaseCommand

from games.models import Table
from games.runtime import lifecycle, runner, table_rows
from games.runtime.actor import TableActor


class Command(BaseCommand):
    help = "Drive the timed steps (deal, last chance, bots, time-outs) of every playing table."

    def handle(self, *args, **options):
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        turns = runner.BotTurns()
        connections = table_rows.LoopConnections()  # closed with the process
        actors: dict[int, TableActor] = {}
        rounds = 0
        while True:
            if rounds % 150 == 0:  # about every five minutes: close the tables nobody visits
                await database_sync_to_async(lifecycle.abandon_idle)()
            rounds += 1
            versions = await database_sync_to_async(
                lambda: dict(Table.objects.filter(status=Table.Status.PLAYING).values_list("pk", "version"))
            )()
            for table_id, version in versions.items():
                if table_id not in actors:
                    actors[table_id] = TableActor(table_id, turns=turns, connections=connections)
                    actors[table_id].clock.start()
                await actors[table_id].on_version(version)  # no sockets here tell it of others' changes
            await asyncio.sleep(2.0)
