"""Guests (accounts/guests.py): play against bots without an account, keep the games by
registering, and meet the same checks as everyone, plus their own limits."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.guests import TooManyGuests, guest_create
from games import bot_levels
from games.chat import chat_post
from games.engine import Refusal
from games.guest_sweep import guests_sweep
from games.models import ChatMessage, Match, MatchPlayer, Table
from games.runtime.writer import table_act
from tests.conftest import make_guest, make_table, make_user

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()


def play_as_guest(client: Client, ip: str = "198.51.100.7"):
    return client.post(reverse("play_as_guest"), REMOTE_ADDR=ip)


def test_a_visitor_plays_as_a_guest_in_one_click():
    client = Client()
    response = play_as_guest(client)
    guest = User.objects.get(profile__is_guest=True)
    table = Table.objects.get(owner=guest)
    assert response.status_code == 302 and response["Location"].startswith(f"/tables/{table.pk}/")
    assert not guest.has_usable_password() and guest.username.startswith("guest-")
    seats = list(table.seats.order_by("position"))
    assert seats[0].user == guest
    assert [seat.bot for seat in seats[1:]] == [bot_levels.offered()[0]] * 3  # the gentlest bots
    # A beginner's table: private to the guest, no turn limit, the match under way.
    assert (table.is_private, table.turn_limit_s, table.status) == (True, 0, Table.Status.PLAYING)
    page = client.get(response["Location"])
    assert page.status_code == 200 and b'data-testid="seat"' in page.content


def test_the_same_guest_plays_again():
    client = Client()
    play_as_guest(client)
    table = Table.objects.get()
    home = client.get(reverse("lobby")).text  # the way back to a private table
    assert f'href="/tables/{table.pk}/?invite={table.invite_code}" data-testid="guest-resume"' in home
    play_as_guest(client)
    assert User.objects.filter(profile__is_guest=True).count() == 1
    assert Table.objects.count() == 2


def test_guest_creation_is_limited_per_client(settings):
    settings.GUEST_CREATE_LIMIT = 2
    for _ in range(2):
        assert play_as_guest(Client(), ip="198.51.100.9").status_code == 302
    refused = Client()
    response = play_as_guest(refused, ip="198.51.100.9")
    assert response.status_code == 302 and response["Location"] == reverse("lobby")
    assert User.objects.filter(profile__is_guest=True).count() == 2  # nobody new
    assert "_auth_user_id" not in refused.session
    assert play_as_guest(Client(), ip="198.51.100.10").status_code == 302  # another client may
    with pytest.raises(TooManyGuests):
        guest_create(ip="198.51.100.9")


def test_registering_keeps_the_guests_games():
    client = Client()
    play_as_guest(client)
    guest = User.objects.get(profile__is_guest=True)
    table = Table.objects.get(owner=guest)
    match = Match.objects.get(table=table)
    page = client.get(reverse("register"))
    assert page.status_code == 200 and b"Keep your games" in page.content
    form = {"username": "newcomer", "email": "", "password1": "a-long-new-pass-1", "password2": "a-long-new-pass-1"}
    response = client.post(reverse("register"), form)
    assert response.status_code == 302 and response["Location"] == reverse("my_matches")
    user = User.objects.get(pk=guest.pk)  # the same row
    assert (user.username, user.profile.is_guest, user.check_password("a-long-new-pass-1")) == ("newcomer", False, True)
    assert MatchPlayer.objects.get(match=match, position=0).user_id == user.pk
    history = client.get(reverse("my_matches"))  # still logged in after the password was set
    assert history.status_code == 200 and table.name.encode() in history.content
    assert Client().login(username="newcomer", password="a-long-new-pass-1")


def test_nobody_registers_a_guests_name():
    response = Client().post(
        reverse("register"),
        {"username": "guest-1234abcd", "password1": "a-long-new-pass-1", "password2": "a-long-new-pass-1"},
    )
    assert response.status_code == 200 and not User.objects.filter(username="guest-1234abcd").exists()
    assert b"kept for guests" in response.content


def test_a_guest_cannot_sit_at_a_rated_table():
    owner, guest = make_user("owner"), make_guest()
    table = make_table(owner, rated=True, turn_limit_s=30)
    with pytest.raises(Refusal) as refused:
        table_act(table_id=table.pk, action={"type": "sit", "seat": 1}, expected_version=table.version, user=guest)
    assert refused.value.code == "guest_unrated"
    after = Table.objects.get(pk=table.pk)
    assert after.version == table.version and not after.seats.filter(user=guest).exists()
    casual = make_table(owner, turn_limit_s=30)
    table_act(table_id=casual.pk, action={"type": "sit", "seat": 1}, expected_version=casual.version, user=guest)
    assert casual.seats.filter(user=guest, position=1).exists()


def test_a_guest_chats_only_where_the_owner_allows_it():
    owner, guest = make_user("owner"), make_guest()
    quiet = make_table(owner, turn_limit_s=30)
    with pytest.raises(Refusal) as refused:
        chat_post(table=quiet, user=guest, text="hello")
    assert refused.value.code == "guest_chat" and not ChatMessage.objects.exists()
    client = Client()
    client.force_login(guest)
    page = client.get(reverse("table", args=[quiet.pk]))
    assert b'id="chat-input"' not in page.content and b"chat-guest" in page.content
    open_table = make_table(owner, turn_limit_s=30, guests_may_chat=True)
    chat_post(table=open_table, user=guest, text="hello")
    assert ChatMessage.objects.filter(user=guest).count() == 1
    assert b'id="chat-input"' in client.get(reverse("table", args=[open_table.pk])).content


def test_a_guests_table_is_theirs_alone():
    first, second = Client(), Client()
    play_as_guest(first, ip="198.51.100.20")
    table = Table.objects.get()
    play_as_guest(second, ip="198.51.100.21")
    with_link = reverse("table", args=[table.pk]) + f"?invite={table.invite_code}"
    assert second.get(with_link).status_code == 404  # not even with the link
    assert first.get(with_link).status_code == 200
    # An account's private table opens to a guest who has its link, as to anyone.
    owner = make_user("owner")
    private = make_table(owner, is_private=True)
    link = reverse("table", args=[private.pk]) + f"?invite={private.invite_code}"
    assert second.get(link).status_code == 200
    assert second.get(reverse("table", args=[private.pk])).status_code == 404


def test_a_guest_opens_no_table_of_their_own():
    client = Client()
    client.force_login(make_guest())
    response = client.post(reverse("create_table"), {"name": "mine", "deal_pace_ms": 150, "turn_limit_s": 30})
    assert response.status_code == 302 and response["Location"] == reverse("register")
    assert not Table.objects.exists()


def test_stale_guests_are_swept_with_their_tables():
    now = timezone.now()
    old, recent, shared = make_guest(), make_guest(ip="192.0.2.2"), make_guest(ip="192.0.2.3")
    account = make_user("account")
    User.objects.filter(pk__in=[old.pk, shared.pk, account.pk]).update(last_login=now - timedelta(days=30))
    User.objects.filter(pk=recent.pk).update(last_login=now - timedelta(days=1))
    alone = make_table(old, players=[old])
    together = make_table(shared, players=[shared, account])
    assert guests_sweep(now=now) == 1
    assert not User.objects.filter(pk=old.pk).exists() and not Table.objects.filter(pk=alone.pk).exists()
    # Kept: a recent guest, an account, and a guest at whose table someone else played.
    assert set(User.objects.values_list("pk", flat=True)) == {recent.pk, shared.pk, account.pk}
    assert Table.objects.filter(pk=together.pk).exists()
