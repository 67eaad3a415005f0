"""`manage.py analysis_worker`: the background worker of the hand analyses (docs/analysis.md).

django-tasks-db's `db_worker` on the "analysis" queue, at a lower CPU priority
(os.nice(GAMES_ANALYSIS_NICE)) so that it never takes a core from the live tables. On
start it enqueues again any analysis left queued without a waiting task (a worker killed
in the middle of one). Other options are db_worker's (--batch, --max-tasks, --interval).

It also closes the tables nobody visits (games/runtime/lifecycle.py, a thread of its own),
and delivers the tables' domain events that a server process committed but did not deliver
(games/runtime/outbox.py: killed in between, or a subscriber failed), at its start and then
every OUTBOX_EVERY_S: every deployment runs this process from its start, whether or not
anyone connects.
"""

import os
from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from games.analysis.tasks import QUEUE, analyses_requeue
from games.runtime import lifecycle, outbox

OUTBOX_EVERY_S = 10.0


class Command(BaseCommand):
    help = "Run the background worker that analyses finished hands (lower CPU priority)."

    def add_arguments(self, parser):
        parser.add_argument("--batch", action="store_true", help="Run what is queued, then exit.")
        parser.add_argument("--interval", type=float, default=1.0, help="Seconds between looks at an empty queue.")
        parser.add_argument("--max-tasks", type=int, default=None)

    def handle(self, *, batch, interval, max_tasks, verbosity, **options):
        if settings.GAMES_ANALYSIS_NICE:
            os.nice(settings.GAMES_ANALYSIS_NICE)
        delivered = outbox.deliver_pending(older_than=timedelta(0))
        if delivered and verbosity:
            self.stdout.write(f"analysis_worker: {delivered} domain events delivered that were pending")
        requeued = analyses_requeue()
        if requeued and verbosity:
            self.stdout.write(f"analysis_worker: {requeued} queued analyses enqueued again")
        if not batch:  # a batch run ends when the queue is empty; the sweeps never do
            lifecycle.start_sweeper()
            outbox.start_sweeper(OUTBOX_EVERY_S)
        worker = {"queue_name": QUEUE, "interval": interval, "reload": False, "verbosity": verbosity}
        if batch:
            worker["batch"] = True
        if max_tasks:
            worker["max_tasks"] = max_tasks
        call_command("db_worker", "--no-startup-delay", **worker)
