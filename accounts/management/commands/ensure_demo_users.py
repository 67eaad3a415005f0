from django.conf import settings
from django.core.management.base import BaseCommand

from accounts.services import demo_users_ensure


class Command(BaseCommand):
    help = "Create the demo players alice, bob, carol and dave (only when DEBUG is on). Idempotent."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            self.stdout.write("DEBUG is off: demo users are not created.")
            return
        created = demo_users_ensure()
        if created:
            self.stdout.write(f"Created demo users: {', '.join(created)}")
