"""`manage.py guests_sweep`: remove the guests not seen for GUEST_KEEP_DAYS (games/guest_sweep.py).
The analysis worker's sweeper runs the same sweep on its own; this is for a cron or by hand."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from games.guest_sweep import guests_sweep


class Command(BaseCommand):
    help = "Delete guests (players without an account) not seen for GUEST_KEEP_DAYS, with their tables."

    def handle(self, *args, verbosity, **options):
        deleted = guests_sweep(now=timezone.now())
        if verbosity:
            self.stdout.write(f"guests_sweep: {deleted} guests deleted")
