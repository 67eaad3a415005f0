"""Moderation services (games/moderation/users.py, games/moderation/tables.py) against the database:
what each action changes, what it refuses, and that every one is in the audit log."""

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import formats, timezone

from accounts.selectors import user_can_moderate
from games import chat, selectors
from games.engine import Refusal
from games.models import ChatMessage, Match, Seat, Table, TableEvent
from games.moderation import tables as moderation
from games.moderation import users as user_moderation
from games.moderation.models import Ban, Kick, ModerationLog, Mute, Report
from games.runtime import writer
from games.runtime.commands import Issuer, command_names
from games.sanctions import is_banned, is_kicked, is_muted
from tests.conftest import make_moderator, make_table, make_user

PASSWORD = "a-long-test-pass-1"


@pytest.fixture
def moderator(db):
    return make_moderator()


def started(table, owner):
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=table.version, user=owner)
    table.refresh_from_db()
    return table


def test_the_permission_is_needed_not_just_staff(players, moderator):
    staff = make_user("staffer")
    staff.is_staff = True
    staff.save()
    assert user_can_moderate(moderator)
    assert not user_can_moderate(staff) and not user_can_moderate(players[0])
    superuser = type(staff).objects.create_superuser("root", password=PASSWORD)
    assert user_can_moderate(superuser)


def test_kick_at_a_waiting_table_frees_the_seat(players, moderator):
    table = make_table(players[0], players=players)
    moderation.seat_kick(moderator=moderator, table_id=table.pk, user_id=players[3].pk, reason="afk troll")
    seat = Seat.objects.get(table=table, position=3)
    assert seat.is_free
    assert is_kicked(user=players[3], table_id=table.pk)
    assert not selectors.table_access(table=table, user=players[3])
    event = TableEvent.objects.get(table=table)
    assert event.action == {"type": "kick", "user": players[3].pk, "seat": 3, "reason": "afk troll"}
    assert event.source == "moderator" and event.actor_id == moderator.pk


def test_kick_during_a_match_at_a_table_without_bots_aborts_the_match(players, moderator):
    table = started(make_table(players[0], players=players, allow_bots=False), players[0])
    moderation.seat_kick(moderator=moderator, table_id=table.pk, user_id=players[1].pk, reason="threats")
    table.refresh_from_db()
    seat = Seat.objects.get(table=table, position=1)
    assert seat.is_free and table.status == Table.Status.WAITING and table.state is None
    match = Match.objects.get(table=table)
    assert match.aborted and match.abort_reason == "threats"
    assert ModerationLog.objects.get(action="kick").details["effect"] == "match_aborted"


def test_kick_during_a_match_puts_a_basic_bot_in_the_seat(players, moderator):
    table = started(make_table(players[0], players=players), players[0])
    Seat.objects.filter(table=table, position=2).update(autoplay=True)
    moderation.seat_kick(moderator=moderator, table_id=table.pk, user_id=players[2].pk, reason="x")
    seat = Seat.objects.get(table=table, position=2)
    assert (seat.user_id, seat.bot, seat.autoplay) == (None, Seat.Bot.BASIC, False)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and not Match.objects.get(table=table).aborted


def test_a_spectator_can_be_kicked_too(players, moderator):
    table = make_table(players[0], players=players[:3])
    watcher = make_user("watcher")
    moderation.seat_kick(moderator=moderator, table_id=table.pk, user_id=watcher.pk, reason="spam")
    assert not selectors.table_access(table=table, user=watcher)
    user_moderation.kick_lift(moderator=moderator, user=watcher, table=table, reason="apologised")
    assert selectors.table_access(table=table, user=watcher)


def test_a_closed_table_refuses_every_action_of_the_write_path(players, moderator):
    table = started(make_table(players[0], players=players), players[0])
    moderation.table_close(moderator=moderator, table_id=table.pk, reason="closing")
    table.refresh_from_db()
    version = table.version
    for kind in command_names():
        for user, source in ((players[0], "player"), (None, "clock"), (None, "bot"), (moderator, "moderator")):
            action = {"type": kind, "seat": 0, "cards": [], "reason": "x", "user": players[1].pk}
            with pytest.raises(Refusal) as refused:
                writer.table_act(
                    table_id=table.pk, action=action, expected_version=None, user=user, issuer=Issuer(source)
                )
            assert refused.value.code == "table_closed", (kind, source)
    table.refresh_from_db()
    assert table.version == version
    assert list(Seat.objects.filter(table=table).values_list("user_id", flat=True)) == [p.pk for p in players]


def test_closing_a_waiting_table_aborts_nothing_and_hides_it_from_the_lobby(players, moderator):
    table = make_table(players[0], players=players[:2])
    moderation.table_close(moderator=moderator, table_id=table.pk, reason="offensive name")
    assert not Match.objects.exists()
    assert table.pk not in [t.pk for t in selectors.visible_tables()]
    with pytest.raises(Refusal):
        moderation.table_close(moderator=moderator, table_id=table.pk, reason="twice")
    assert ModerationLog.objects.filter(action="close_table").count() == 1


def test_ban_with_expiry_ends_by_itself_and_unban_lifts_at_once(client, players, moderator):
    user_moderation.user_ban(
        moderator=moderator, user=players[0], reason="cooling off", expires_at=timezone.now() + timedelta(hours=1)
    )
    assert is_banned(players[0])
    response = client.post(reverse("login"), {"username": "north", "password": PASSWORD})
    assert response.status_code == 200 and "cooling off" in response.text
    Ban.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert not is_banned(players[0])
    assert client.post(reverse("login"), {"username": "north", "password": PASSWORD}).status_code == 302

    user_moderation.user_ban(moderator=moderator, user=players[1], reason="for good")
    user_moderation.user_unban(moderator=moderator, user=players[1], reason="appeal accepted")
    assert not is_banned(players[1])
    assert Ban.objects.get(user=players[1]).lifted_by_id == moderator.pk  # kept, marked lifted
    with pytest.raises(Refusal):
        user_moderation.user_unban(moderator=moderator, user=players[1], reason="again")


def test_a_banned_users_right_password_is_refused_at_both_logins_with_the_reason(client, players, moderator):
    """The ban is one of the login forms' ACCOUNTS_LOGIN_CHECKS (games/moderation/login.py):
    the site's and the admin's login say until when and why; a wrong password says only that."""
    staff = players[0]
    staff.is_staff = True  # the admin's login refuses anyone else before asking about bans
    staff.save()
    until = timezone.now() + timedelta(days=2)
    Ban.objects.create(user=staff, moderator=moderator, reason="spam links", expires_at=until)
    shown = formats.date_format(timezone.localtime(until), "DATETIME_FORMAT")
    for url in (reverse("login"), reverse("admin:login")):
        refused = client.post(url, {"username": "north", "password": PASSWORD})
        assert refused.status_code == 200 and "_auth_user_id" not in client.session
        assert f"This account has been banned until {shown}. Reason: spam links" in html.unescape(refused.text)
        wrong = client.post(url, {"username": "north", "password": "not-the-password"})
        assert wrong.status_code == 200 and "banned" not in wrong.text


def test_the_middleware_logs_out_a_banned_user_on_any_request(client, players, moderator):
    client.force_login(players[0])
    Ban.objects.create(user=players[0], moderator=moderator, reason="made without the service")
    client.get(reverse("lobby"))
    assert "_auth_user_id" not in client.session


def test_moderators_cannot_sanction_themselves_and_only_superusers_sanction_superusers(players, moderator):
    with pytest.raises(Refusal):
        user_moderation.user_ban(moderator=moderator, user=moderator, reason="oops")
    root = type(moderator).objects.create_superuser("root", password=PASSWORD)
    with pytest.raises(Refusal):
        user_moderation.user_mute(moderator=moderator, user=root, reason="x")
    assert not Ban.objects.exists() and not Mute.objects.exists()


def test_mute_blocks_posting_at_every_table_and_expires(players, moderator):
    table = make_table(players[0], players=players)
    user_moderation.user_mute(
        moderator=moderator, user=players[1], reason="flood", expires_at=timezone.now() + timedelta(days=1)
    )
    assert is_muted(players[1])
    with pytest.raises(Refusal) as refused:
        chat.chat_post(table=table, user=players[1], text="hello")
    assert refused.value.code == "muted"
    Mute.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    chat.chat_post(table=table, user=players[1], text="hello")


def test_every_moderator_action_is_in_the_audit_log(players, moderator):
    table = make_table(players[0], players=players[:3])
    other = make_table(players[0], players=[None, None, None, players[3]])
    line = ChatMessage.objects.create(table=table, user=players[2], text="rude")
    report = user_moderation.report_create(reporter=players[0], user=players[2], reason="rude in chat")
    report2 = user_moderation.report_create(reporter=players[0], table=table, reason="bad name")

    moderation.seat_kick(moderator=moderator, table_id=table.pk, user_id=players[1].pk, reason="r-kick")
    user_moderation.kick_lift(moderator=moderator, user=players[1], table=table, reason="r-lift")
    user_moderation.chat_message_delete(moderator=moderator, message=line, reason="r-delete")
    user_moderation.user_mute(moderator=moderator, user=players[2], reason="r-mute")
    user_moderation.user_unmute(moderator=moderator, user=players[2], reason="r-unmute")
    user_moderation.user_ban(moderator=moderator, user=players[3], reason="r-ban")
    user_moderation.user_unban(moderator=moderator, user=players[3], reason="r-unban")
    user_moderation.report_close(moderator=moderator, report=report, status=Report.Status.RESOLVED, note="r-resolve")
    user_moderation.report_close(moderator=moderator, report=report2, status=Report.Status.DISMISSED, note="r-dismiss")
    moderation.table_close(moderator=moderator, table_id=table.pk, reason="r-close")

    rows = {(e.action, e.reason): e for e in ModerationLog.objects.all()}
    expected = {
        ("kick", "r-kick"): (players[1], table),
        ("lift_kick", "r-lift"): (players[1], table),
        ("delete_message", "r-delete"): (players[2], table),
        ("mute", "r-mute"): (players[2], None),
        ("unmute", "r-unmute"): (players[2], None),
        ("ban", "r-ban"): (players[3], None),
        ("kick", "r-ban"): (players[3], other),  # the ban freed their seat at the other table
        ("unban", "r-unban"): (players[3], None),
        ("resolve_report", "r-resolve"): (players[2], None),
        ("dismiss_report", "r-dismiss"): (None, table),
        ("close_table", "r-close"): (None, table),
    }
    assert set(rows) == set(expected)
    for key, (user, where) in expected.items():
        entry = rows[key]
        assert entry.moderator_id == moderator.pk and entry.created_at is not None
        assert entry.target_user_id == (user.pk if user else None), key
        assert entry.table_id == (where.pk if where else None), key
        assert entry.target  # a readable name that survives deletion
    assert rows[("delete_message", "r-delete")].details["text"] == "rude"
    assert Seat.objects.get(table=other, position=3).user_id is None


def test_reasons_are_required(players, moderator):
    table = make_table(players[0], players=players)
    with pytest.raises(Refusal) as refused:
        moderation.table_close(moderator=moderator, table_id=table.pk, reason="   ")
    assert refused.value.code == "reason_required"
    with pytest.raises(Refusal):
        user_moderation.user_ban(moderator=moderator, user=players[1], reason="")
    assert not ModerationLog.objects.exists() and not Kick.objects.exists()


def test_reports_refuse_self_duplicates_and_floods(players, settings):
    with pytest.raises(Refusal):
        user_moderation.report_create(reporter=players[0], user=players[0], reason="me")
    user_moderation.report_create(reporter=players[0], user=players[1], reason="cheat")
    with pytest.raises(Refusal) as refused:
        user_moderation.report_create(reporter=players[0], user=players[1], reason="cheat again")
    assert refused.value.code == "duplicate"
    for n in range(user_moderation.REPORTS_PER_HOUR - 1):
        user_moderation.report_create(reporter=players[0], user=make_user(f"u{n}"), reason="x")
    with pytest.raises(Refusal) as refused:
        user_moderation.report_create(reporter=players[0], user=players[2], reason="x")
    assert refused.value.code == "too_many"
    assert Report.objects.filter(status=Report.Status.OPEN).count() == user_moderation.REPORTS_PER_HOUR
