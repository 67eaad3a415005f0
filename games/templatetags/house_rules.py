"""{% table_rules table as rules %}: a table's house rules in words (games/rulesets.py)."""

from django import template

from games import rulesets

register = template.Library()


@register.simple_tag
def table_rules(table) -> dict:
    return rulesets.described(rulesets.rules_of_table(table))
