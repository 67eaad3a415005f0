"""Recompute every player's hand record from the stored hands (games/history/hand_records.py).

The records are a pure function of the finished hands: on a consistent database this
rewrites exactly the stored rows and says "0 differed".
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from games.history.hand_records import hand_records_rebuild


class Command(BaseCommand):
    help = "Recompute every player's hand record (the profile's per-hand numbers) from the hands."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="only compare: change nothing")

    def handle(self, *args, check: bool = False, **options):
        with transaction.atomic():
            written, differed = hand_records_rebuild()
            if check:
                transaction.set_rollback(True)
        verb = "would change" if check else "changed"
        self.stdout.write(f"{written} hand records recomputed; {differed} stored rows differed ({verb}).")
