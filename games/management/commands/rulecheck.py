"""manage.py rulecheck PATH [PATH ...]: run rule cases against the engine.

Thin wrapper around games.engine.casebook (see ../shared/rules-cases/README.md). A case
may carry `"rules": {option: value}` (docs/house-rules.md); absent means RULES.md.
"""

import sys

from django.core.management.base import BaseCommand

from games.engine.casebook import report


class Command(BaseCommand):
    help = "Run rule cases (JSON files or folders of them) against the rules engine."

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", help="case files or folders of *.json")

    def handle(self, *args, paths, **options):
        failed = report(paths, lambda line: self.stdout.write(line))
        if failed:
            sys.exit(1)
