"""manage.py rulesets [--json]: the house-rule options and presets (docs/house-rules.md).

`--json` prints exactly {"options": [{"name", "values", "default", "rule"}], "presets":
[{"name", "options", "rateable"}]} (a preset's options: those that differ from RULES.md;
`rateable`: whether a rated table may play it, docs/ratings.md).
"""

import json

from django.core.management.base import BaseCommand

from games import engine, rulesets
from games.engine.rules import catalogue


class Command(BaseCommand):
    help = "List the house-rule presets and options (RULES sections they change)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def handle(self, *args, json: bool = False, **options):
        if json:
            self.stdout.write(_dumps(catalogue()))
            return
        self.stdout.write("Presets:")
        for name, changes in engine.PRESETS.items():
            rules = engine.preset_rules(name)
            rated = "rateable" if name in engine.RATEABLE else "casual only"
            self.stdout.write(
                f"  {name:<9} {rulesets.PRESET_NAMES[name]} ({rated}): {' · '.join(rulesets.summary(rules))}"
            )
            for option in changes:
                self.stdout.write(f"{'':12}{option} = {rulesets.value_label(option, getattr(rules, option))}")
        self.stdout.write(
            f"  {engine.CUSTOM:<9} {rulesets.PRESET_NAMES[engine.CUSTOM]} (casual only): any combination below"
        )
        self.stdout.write("Options (default first, the RULES section each changes):")
        for o in engine.OPTIONS:
            text = rulesets.TEXTS[o.name]
            self.stdout.write(f"  {o.name} ({o.rule}) — {text.label}: {text.explanation}")
            if o.number_range:
                low, high = o.number_range
                self.stdout.write(f"      {low}–{high} ms, default {o.default}")
                continue
            for value in (o.default, *[v for v in o.values if v != o.default]):
                mark = "*" if value == o.default else " "
                self.stdout.write(f"    {mark} {_dumps(value)}: {rulesets.value_label(o.name, value)}")


def _dumps(data) -> str:
    return json.dumps(data, ensure_ascii=False)
