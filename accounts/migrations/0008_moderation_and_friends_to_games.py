"""Moderation's records (Ban, Mute, Kick, ModerationLog, Report) and friends' (Follow, Block)
move to the games app (games migration 0018 knows them again; their tables stay, named as
they were). Here the accounts app forgets them, in its state only: no table is touched.

The moderators' permission stays `accounts.moderate`: it hung on ModerationLog and now
hangs on Profile; the permission row itself moves, so every grant of it is kept."""

from django.db import migrations

MOVED = ("Ban", "Mute", "Kick", "ModerationLog", "Report", "Follow", "Block")


def moderate_move(apps, source: str, target: str) -> None:
    """The `moderate` permission from the accounts model `source` to `target` (a new
    database has none yet: post_migrate creates it where the model says)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    permission = Permission.objects.filter(
        codename="moderate", content_type__app_label="accounts", content_type__model=source
    ).first()
    if permission is None:
        return
    content_type, _ = ContentType.objects.get_or_create(app_label="accounts", model=target)
    if not Permission.objects.filter(codename="moderate", content_type=content_type).exists():
        permission.content_type = content_type
        permission.save(update_fields=["content_type"])


def to_profile(apps, schema_editor):
    moderate_move(apps, "moderationlog", "profile")


def to_moderation_log(apps, schema_editor):
    moderate_move(apps, "profile", "moderationlog")


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_profile_is_guest'),
        ('auth', '0012_alter_user_first_name_max_length'),
        ('contenttypes', '0002_remove_content_type_name'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='profile',
            options={'permissions': [('moderate', 'Can moderate rooms and users')], 'verbose_name': 'profile', 'verbose_name_plural': 'profiles'},
        ),
        migrations.RunPython(to_profile, to_moderation_log),
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name=name) for name in MOVED],
        ),
    ]
