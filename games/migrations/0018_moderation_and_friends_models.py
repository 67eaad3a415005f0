"""Moderation's records (Ban, Mute, Kick, ModerationLog, Report) and friends' (Follow, Block)
move from the accounts app to games (games/moderation/models.py, games/friends/models.py).

The tables keep their names (`db_table`: accounts_ban, ...), so the database does nothing
and no row moves: accounts 0008 forgets the models, this migration knows them again. The
content types (and so their permissions and admin log entries) are renamed to the games
app rather than created anew."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


MOVED = ("ban", "mute", "kick", "moderationlog", "report", "follow", "block")


def content_types_move(apps, source: str, target: str) -> None:
    """Each moved model's content type to `target`'s app label, unless that one exists
    already (then the old one is left as it was: no row is deleted)."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    taken = set(ContentType.objects.filter(app_label=target, model__in=MOVED).values_list("model", flat=True))
    ContentType.objects.filter(app_label=source, model__in=set(MOVED) - taken).update(app_label=target)


def to_games(apps, schema_editor):
    content_types_move(apps, "accounts", "games")


def to_accounts(apps, schema_editor):
    content_types_move(apps, "games", "accounts")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0017_lesson_progress'),
        ('accounts', '0008_moderation_and_friends_to_games'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ModerationLog',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('action', models.CharField(choices=[('close_table', 'close table'), ('kick', 'kick'), ('ban', 'ban'), ('unban', 'unban'), ('mute', 'mute'), ('unmute', 'unmute'), ('lift_kick', 'lift kick'), ('delete_message', 'delete chat message'), ('resolve_report', 'resolve report'), ('dismiss_report', 'dismiss report'), ('void_match', 'void rated match')], db_index=True, max_length=20, verbose_name='action')),
                        ('target', models.CharField(max_length=200, verbose_name='target')),
                        ('reason', models.CharField(max_length=300, verbose_name='reason')),
                        ('details', models.JSONField(blank=True, default=dict, verbose_name='details')),
                        ('created_at', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='when')),
                        ('moderator', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.table', verbose_name='table')),
                        ('target_user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'verbose_name': 'moderation log entry',
                        'verbose_name_plural': 'moderation log',
                        'db_table': 'accounts_moderationlog',
                        'ordering': ['-created_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Report',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('reason', models.CharField(max_length=1000, verbose_name='reason')),
                        ('status', models.CharField(choices=[('open', 'open'), ('resolved', 'resolved'), ('dismissed', 'dismissed')], db_index=True, default='open', max_length=10, verbose_name='status')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('handled_at', models.DateTimeField(blank=True, null=True, verbose_name='handled')),
                        ('note', models.CharField(blank=True, max_length=300, verbose_name="moderator's note")),
                        ('handled_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='handled by')),
                        ('reporter', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports_made', to=settings.AUTH_USER_MODEL, verbose_name='reporter')),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='reports', to='games.table', verbose_name='reported table')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='reports_received', to=settings.AUTH_USER_MODEL, verbose_name='reported user')),
                    ],
                    options={
                        'verbose_name': 'report',
                        'verbose_name_plural': 'reports',
                        'db_table': 'accounts_report',
                        'ordering': ['-created_at'],
                    },
                ),
                migrations.CreateModel(
                    name='Ban',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('reason', models.CharField(max_length=300, verbose_name='reason')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('expires_at', models.DateTimeField(blank=True, null=True, verbose_name='expires')),
                        ('lifted_at', models.DateTimeField(blank=True, null=True, verbose_name='lifted')),
                        ('lifted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='lifted by')),
                        ('moderator', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'verbose_name': 'ban',
                        'verbose_name_plural': 'bans',
                        'db_table': 'accounts_ban',
                        'ordering': ['-created_at'],
                        'abstract': False,
                        'indexes': [models.Index(fields=['user', 'lifted_at'], name='ban_user_lifted')],
                    },
                ),
                migrations.CreateModel(
                    name='Block',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('blocked', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='blocked_by', to=settings.AUTH_USER_MODEL, verbose_name='blocked')),
                        ('blocker', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='blocking', to=settings.AUTH_USER_MODEL, verbose_name='blocker')),
                    ],
                    options={
                        'verbose_name': 'block',
                        'verbose_name_plural': 'blocks',
                        'db_table': 'accounts_block',
                        'constraints': [models.UniqueConstraint(fields=('blocker', 'blocked'), name='unique_block')],
                    },
                ),
                migrations.CreateModel(
                    name='Follow',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('followed', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='followers', to=settings.AUTH_USER_MODEL, verbose_name='followed')),
                        ('follower', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='following', to=settings.AUTH_USER_MODEL, verbose_name='follower')),
                    ],
                    options={
                        'verbose_name': 'follow',
                        'verbose_name_plural': 'follows',
                        'db_table': 'accounts_follow',
                        'indexes': [models.Index(fields=['followed', 'follower'], name='follow_followed')],
                        'constraints': [models.UniqueConstraint(fields=('follower', 'followed'), name='unique_follow')],
                    },
                ),
                migrations.CreateModel(
                    name='Kick',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('reason', models.CharField(max_length=300, verbose_name='reason')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('expires_at', models.DateTimeField(blank=True, null=True, verbose_name='expires')),
                        ('lifted_at', models.DateTimeField(blank=True, null=True, verbose_name='lifted')),
                        ('lifted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='lifted by')),
                        ('moderator', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                        ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='kicks', to='games.table', verbose_name='table')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'verbose_name': 'kick',
                        'verbose_name_plural': 'kicks',
                        'db_table': 'accounts_kick',
                        'ordering': ['-created_at'],
                        'abstract': False,
                        'indexes': [models.Index(fields=['table', 'user'], name='kick_table_user')],
                    },
                ),
                migrations.CreateModel(
                    name='Mute',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('reason', models.CharField(max_length=300, verbose_name='reason')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('expires_at', models.DateTimeField(blank=True, null=True, verbose_name='expires')),
                        ('lifted_at', models.DateTimeField(blank=True, null=True, verbose_name='lifted')),
                        ('lifted_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='lifted by')),
                        ('moderator', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='moderator')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'verbose_name': 'mute',
                        'verbose_name_plural': 'mutes',
                        'db_table': 'accounts_mute',
                        'ordering': ['-created_at'],
                        'abstract': False,
                        'indexes': [models.Index(fields=['user', 'lifted_at'], name='mute_user_lifted')],
                    },
                ),
            ],
        ),
        migrations.RunPython(to_games, to_accounts),
    ]
