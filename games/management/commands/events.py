"""manage.py events [--once] [--every SECONDS]

Run duplicate events' clock (games/duplicate/schedule.py): start each round when it is due
and let bots finish the tables of a round whose minutes are over. The tables' own steps
(deal, bots, time-outs) are their clocks' (a web process's room, or `manage.py runtables`).
"""

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import close_old_connections

from games.duplicate.schedule import events_tick


class Command(BaseCommand):
    help = "Start duplicate events' rounds when due and hand timed-out rounds to bots."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="one tick, then exit")
        parser.add_argument("--every", type=float, default=5.0, help="seconds between ticks (default 5)")

    def handle(self, *args, once, every, **options):
        if every <= 0:
            raise CommandError("--every must be more than 0 seconds")
        while True:
            for line in events_tick():
                self.stdout.write(line)
            if once:
                return
            close_old_connections()
            time.sleep(every)
