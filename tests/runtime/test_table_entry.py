"""games.selectors.socket_entry says, in one query, what the ORM's separate reads say."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Profile
from accounts.selectors import profile_language
from games.models import Table
from games.moderation.models import Ban, Kick
from games.sanctions import is_banned, is_kicked
from games.selectors import socket_entry
from tests.conftest import make_moderator, make_table, make_user

pytestmark = pytest.mark.django_db


def _orm_facts(user, table_id):
    return (is_banned(user), is_kicked(user=user, table_id=table_id), profile_language(user=user))


def test_socket_entry_agrees_with_the_orm_for_every_kind_of_sanction():
    moderator = make_moderator()
    now = timezone.now()
    table = make_table(moderator)
    other_table = make_table(moderator)
    hour = timedelta(hours=1)
    cases = {
        "clean": [],
        "banned for good": [Ban(expires_at=None)],
        "banned for an hour more": [Ban(expires_at=now + hour)],
        "ban expired": [Ban(expires_at=now - hour)],
        "ban lifted": [Ban(expires_at=None, lifted_at=now - hour)],
        "kicked here": [Kick(table=table)],
        "kicked elsewhere": [Kick(table=other_table)],
        "kick lifted": [Kick(table=table, lifted_at=now - hour)],
        "kick expired, ban lifted": [Kick(table=table, expires_at=now - hour), Ban(lifted_at=now - hour)],
        "kicked and banned": [Kick(table=table, expires_at=now + hour), Ban()],
    }
    seen = set()
    for number, (name, sanctions) in enumerate(cases.items()):
        user = make_user(f"user{number}")
        if number % 2:
            Profile.objects.update_or_create(user=user, defaults={"language": "zh-hans"})
        for sanction in sanctions:
            sanction.user, sanction.moderator, sanction.reason = user, moderator, name
            sanction.save()
        entry = socket_entry(user=user, table_id=table.pk)
        assert (entry.banned, entry.kicked, entry.language) == _orm_facts(user, table.pk), name
        assert entry.version == Table.objects.get(pk=table.pk).version
        seen.add((entry.banned, entry.kicked, entry.language))
    # The cases cover every combination the statement can answer.
    assert {(b, k) for b, k, _ in seen} == {(False, False), (True, False), (False, True), (True, True)}
    assert {language for _, _, language in seen} == {"", "zh-hans"}


def test_socket_entry_to_a_table_that_does_not_exist(django_assert_num_queries):
    user = make_user("lost")
    with django_assert_num_queries(1):
        entry = socket_entry(user=user, table_id=987654)
    assert entry.version is None and not entry.banned and not entry.kicked


def test_socket_entry_is_one_query(django_assert_num_queries):
    moderator = make_moderator()
    table = make_table(moderator)
    user = make_user("entering")
    Kick.objects.create(user=user, table=table, moderator=moderator, reason="spam")
    with django_assert_num_queries(1):  # after a restart every socket enters at once, one after another
        entry = socket_entry(user=user, table_id=table.pk)
    assert entry.kicked and not entry.banned and entry.version == table.version
