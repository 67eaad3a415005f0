"""accounts.selectors.entry_facts (one SQL statement) says what the ORM selectors say."""
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Ban, Kick, Profile
from accounts.selectors import entry_facts, is_banned, is_kicked, profile_language
from tests.conftest import make_moderator, make_table, make_user

pytestmark = pytest.mark.django_db


def _orm_facts(user, table_id):
    return (is_banned(user), is_kicked(user=user, table_id=table_id), profile_language(user=user))


def test_entry_facts_agree_with_the_orm_for_every_kind_of_sanction():
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
        facts = entry_facts(user=user, table_id=table.pk)
        assert (facts.banned, facts.kicked, facts.language) == _orm_facts(user, table.pk), name
        seen.add((facts.banned, facts.kicked, facts.language))
    # The cases cover every combination the statement can answer.
    assert {(b, k) for b, k, _ in seen} == {(False, False), (True, False), (False, True), (True, True)}
    assert {language for _, _, language in seen} == {"", "zh-hans"}
