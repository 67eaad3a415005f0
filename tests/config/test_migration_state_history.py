"""Migration 0014 strips the past hands from stored snapshots and leaves the rest as it was."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import Game, apply

BEFORE = [("games", "0013_seat_bot_expert")]
AFTER = [("games", "0014_state_without_history")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    """Every app's last migration: the state the rest of the suite's database must be left in."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_stored_snapshots_lose_their_history_and_keep_everything_else(players):
    owner = players[0]
    game = Game.new()
    apply(game, {"type": "start_hand", "seed": "migration"})
    current = game.to_json()
    older = {**current, "history": [{"hand_no": 0, "winner": None}]}
    try:
        apps = migrate(BEFORE)
        Table = apps.get_model("games", "Table")
        old = Table.objects.create(name="older", owner_id=owner.pk, state=older)
        new = Table.objects.create(name="current", owner_id=owner.pk, state=current)
        empty = Table.objects.create(name="empty", owner_id=owner.pk, state=None)
        apps = migrate(AFTER)
        Table = apps.get_model("games", "Table")
        assert Table.objects.get(pk=old.pk).state == current
        assert Table.objects.get(pk=new.pk).state == current
        assert Table.objects.get(pk=empty.pk).state is None
    finally:
        migrate(latest())
