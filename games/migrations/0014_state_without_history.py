"""Snapshots stop carrying the match's past hands (games/engine/game.py, _MATCH_FIELDS):
each is in its hand_scored event and HandRecord already. Strip them from stored states so
every snapshot equals its event log folded through today's engine."""

from django.db import migrations


def strip_history(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(state__has_key="history").only("pk", "state").iterator():
        table.state.pop("history", None)
        table.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0013_seat_bot_expert")]

    operations = [migrations.RunPython(strip_history, migrations.RunPython.noop)]
