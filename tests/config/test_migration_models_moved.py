"""accounts 0008 and games 0018 move moderation's and friends' models to the games app: on a
database with rows in every moved table, each row is found through the new models, and a
moderator's `accounts.moderate` grant and the admin's record of a ban survive the move."""

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from games.friends.models import Block, Follow
from games.models import Table
from games.moderation.models import Ban, Kick, ModerationLog, Mute, Report

BEFORE = [("accounts", "0007_profile_is_guest"), ("games", "0017_lesson_progress")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def old_rows(apps, people):
    """One row in each moved table, through the accounts app's models as they were."""
    moderator, alice, bob = people
    model = lambda name: apps.get_model("accounts", name)  # noqa: E731
    table = apps.get_model("games", "Table").objects.create(name="moved", owner_id=alice.pk)
    later = timezone.now() + timedelta(days=1)
    return {
        "ban": model("Ban").objects.create(user_id=bob.pk, moderator_id=moderator.pk, reason="spam", expires_at=later),
        "mute": model("Mute").objects.create(user_id=alice.pk, moderator_id=moderator.pk, reason="shouting"),
        "kick": model("Kick").objects.create(
            user_id=bob.pk, moderator_id=moderator.pk, reason="rude", table_id=table.pk
        ),
        "log": model("ModerationLog").objects.create(
            moderator_id=moderator.pk, action="ban", target_user_id=bob.pk, target="bob", reason="spam"
        ),
        "report": model("Report").objects.create(reporter_id=alice.pk, user_id=bob.pk, table_id=table.pk, reason="x"),
        "follow": model("Follow").objects.create(follower_id=alice.pk, followed_id=bob.pk),
        "block": model("Block").objects.create(blocker_id=bob.pk, blocked_id=alice.pk),
        "table": table,
    }


def grant_moderate(apps, user):
    """A moderator as a live site has one: granted the permission that hung on ModerationLog."""
    Permission = apps.get_model("auth", "Permission")
    permission = Permission.objects.get(
        codename="moderate", content_type__app_label="accounts", content_type__model="moderationlog"
    )
    apps.get_model("auth", "User").objects.get(pk=user.pk).user_permissions.add(permission)


@pytest.mark.django_db(transaction=True)
def test_every_row_of_the_moved_tables_is_found_through_the_new_models():
    User = get_user_model()
    people = [User.objects.create_user(name, password="x") for name in ("mod", "alice", "bob")]
    moderator, alice, bob = people
    try:
        apps = migrate(BEFORE)
        rows = old_rows(apps, people)
        grant_moderate(apps, moderator)
        ban_type = apps.get_model("contenttypes", "ContentType").objects.get(app_label="accounts", model="ban")
        LogEntry.objects.create(  # admin's table is none of these migrations' business
            user_id=moderator.pk, content_type_id=ban_type.pk, object_id=str(rows["ban"].pk), action_flag=1
        )

        migrate(latest())

        ban = Ban.objects.get(pk=rows["ban"].pk)
        assert (ban.user, ban.moderator, ban.reason) == (bob, moderator, "spam")
        assert list(Ban.objects.active().filter(user=bob)) == [ban]
        assert Mute.objects.get(pk=rows["mute"].pk).user == alice
        kick = Kick.objects.get(pk=rows["kick"].pk)
        assert kick.table == Table.objects.get(pk=rows["table"].pk) and kick.user == bob
        log = ModerationLog.objects.get(pk=rows["log"].pk)
        assert (log.action, log.target_user, log.target) == (ModerationLog.Action.BAN, bob, "bob")
        report = Report.objects.get(pk=rows["report"].pk)
        assert (report.reporter, report.user, report.status) == (alice, bob, Report.Status.OPEN)
        assert Follow.objects.get(pk=rows["follow"].pk).followed == bob
        assert Block.objects.get(pk=rows["block"].pk).blocked == alice
        # New rows go on from the old ids, in the same tables.
        assert Follow.objects.create(follower=bob, followed=alice).pk > rows["follow"].pk
        assert Follow.objects.count() == 2

        # The content types were renamed, not made anew: the admin's log still points at the ban.
        ContentType.objects.clear_cache()
        assert ContentType.objects.get_for_model(Ban).pk == ban_type.pk
        assert LogEntry.objects.get(object_id=str(ban.pk)).get_edited_object() == ban
        assert not ContentType.objects.filter(app_label="accounts", model="ban").exists()
        # The moderator keeps their permission, under its old name.
        assert User.objects.get(pk=moderator.pk).has_perm("accounts.moderate")
    finally:
        migrate(latest())
