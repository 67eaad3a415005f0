"""Rows built once per worker and saved again into each later test's emptied database, row
by row with the same primary keys (the browser tests are transactional: the database is
emptied after each). The sequences keep their place, so a later test's new rows never take
an id of the saved ones."""

from django.apps import apps
from django.core import serializers
from django.db import transaction

# Rows that Django's post_migrate makes again after every flush, with new ids: the saved
# rows name them by natural key.
REMADE = {"contenttypes.contenttype", "auth.permission", "sessions.session"}


def _models():
    return [m for m in apps.get_models() if m._meta.label_lower not in REMADE]


def marks() -> dict[str, set]:
    """Each table's primary keys now: `snapshot(after=…)` saves only the rows made since."""
    return {m._meta.label_lower: set(m._base_manager.values_list("pk", flat=True)) for m in _models()}


def snapshot(after: dict[str, set] | None = None) -> str:
    """Every row of the database (but REMADE's), or only those made since `after`, as JSON."""
    after = after or {}
    rows = (
        row
        for model in _models()
        for row in model._base_manager.exclude(pk__in=after.get(model._meta.label_lower, ())).order_by("pk")
    )
    return serializers.serialize("json", rows, use_natural_foreign_keys=True)


def restore(rows: str) -> None:
    """Save a snapshot's rows into the (emptied) database."""
    with transaction.atomic():  # PostgreSQL checks the foreign keys at the commit
        waiting = []  # rows naming a user not saved yet
        for row in serializers.deserialize("json", rows, handle_forward_references=True):
            row.save()
            if row.deferred_fields:
                waiting.append(row)
        for row in waiting:
            row.save_deferred_fields()
