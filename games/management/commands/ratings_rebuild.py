"""Recompute every rating from the stored matches (docs/ratings.md).

Ratings are a pure function of the rating history (games/ratings/service.py
`ratings_replay`): on a consistent database this rewrites exactly the stored values and
says "0 differed".
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from games.ratings.selectors import ratings_snapshot, snapshot_differences
from games.ratings.service import ratings_replay


class Command(BaseCommand):
    help = "Recompute every rating and rating change from the stored matches."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="only compare: change nothing")

    def handle(self, *args, check: bool = False, **options):
        with transaction.atomic():
            before = ratings_snapshot()
            rated = ratings_replay()
            after = ratings_snapshot()
            differed = snapshot_differences(before, after)
            if check:
                transaction.set_rollback(True)
        verb = "would change" if check else "changed"
        self.stdout.write(
            f"{rated} rated matches replayed: {len(after['ratings'])} ratings, "
            f"{len(after['changes'])} rating changes; {differed} stored rows differed ({verb})."
        )
