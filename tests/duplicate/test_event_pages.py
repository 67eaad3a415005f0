"""The events pages (games/web/event_views.py): the list at /events/, an event's page with
registration, check-in and standings, and a finished event's results with replay links; in
both languages; private events hidden from strangers; refusals shown, nothing changed."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.duplicate import service
from games.duplicate.models import BoardResult, Entry, EventRound
from games.ratings.models import Rating, RatingChange
from tests.conftest import make_user
from tests.duplicate.events import an_event as club_event
from tests.duplicate.events import organiser as staff_member
from tests.duplicate.events import pairs_entered
from tests.duplicate.test_event_run import play_round

pytestmark = [pytest.mark.django_db, pytest.mark.events]


def an_event(organiser, **options):
    return club_event(
        organiser, **{"name": "Thursday pairs", "starts_at": timezone.now() + timedelta(days=1), **options}
    )


@pytest.fixture
def organiser():
    return staff_member()


def signed_in(user, language="en"):
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def test_the_list_shows_public_events_and_ones_own_private_events(organiser):
    public = an_event(organiser)
    member, stranger = make_user("member"), make_user("stranger")
    private = an_event(member, name="Our club", is_private=True)
    listed = signed_in(stranger).get(reverse("events")).text
    assert reverse("event", args=[public.pk]) in listed and "Our club" not in listed
    assert "Our club" in signed_in(member).get(reverse("events")).text
    assert signed_in(stranger).get(reverse("event", args=[private.pk])).status_code == 404
    assert Client().get(reverse("event", args=[public.pk])).status_code == 200  # public: anyone may look
    chinese = signed_in(stranger, "zh-hans").get(reverse("events")).text
    assert "即将开始" in chinese and "复式赛" in chinese


# Committed: the page is read after each write, and a write changes the page's kept regions
# only once it commits (games/duplicate/changes.py).
@pytest.mark.django_db(transaction=True)
def test_a_pair_registers_and_checks_in_from_the_page(organiser):
    event = an_event(organiser)
    alice, bob = make_user("alice"), make_user("bob")
    page = reverse("event", args=[event.pk])
    client = signed_in(alice)
    assert 'name="partner"' in client.get(page).text
    refused = client.post(reverse("event_register", args=[event.pk]), {"partner": "nobody"}, follow=True)
    assert "There is no player called “nobody”." in refused.text and not Entry.objects.exists()
    refused = client.post(reverse("event_register", args=[event.pk]), {"partner": "alice"}, follow=True)
    assert "name your partner" in refused.text and not Entry.objects.exists()
    asked = client.post(reverse("event_register", args=[event.pk]), {"partner": "bob"}, follow=True).text
    entry = Entry.objects.get()
    assert (entry.player, entry.partner, entry.confirmed) == (alice, bob, False)
    assert "You asked bob to play as a pair." in asked and "Check in" not in asked
    assert "partner not confirmed yet" in asked
    invited = signed_in(bob, "zh-hans").get(page).text
    assert "alice 邀请你组队参赛。" in invited and "确认组队" in invited and "拒绝" in invited
    refused = signed_in(bob).post(reverse("event_check_in", args=[event.pk]), follow=True).text
    assert "The pair checks in once the partner has confirmed it." in refused
    refused = client.post(reverse("event_partner_confirm", args=[event.pk]), follow=True).text
    assert "Nobody has asked you to play as a pair in this event." in refused  # not addressed to alice
    signed_in(bob).post(reverse("event_partner_confirm", args=[event.pk]))
    shown = signed_in(bob, "zh-hans").get(page).text
    assert "alice &amp; bob" in shown and "签到" in shown
    signed_in(bob).post(reverse("event_check_in", args=[event.pk]))
    entry.refresh_from_db()
    assert entry.checked_in_at is not None
    assert "You are entered and checked in." in client.get(page).text
    assert client.get(reverse("event_check_in", args=[event.pk])).status_code == 405


def test_a_finished_event_shows_standings_and_each_boards_results(
    organiser, settings, django_capture_on_commit_callbacks
):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    event = an_event(organiser)
    people = [make_user(f"fin{i}") for i in range(6)]
    pairs_entered(event, people)
    service.event_start_round(event_id=event.pk)
    page = reverse("event", args=[event.pk])
    running = signed_in(people[0]).get(page).text
    assert 'data-testid="my-table"' in running and 'data-testid="board-1"' not in running  # no results yet
    assert "data-card=" not in running  # nothing of a board still in play
    with django_capture_on_commit_callbacks(execute=True):  # the page shows what is committed
        play_round(EventRound.objects.get(event=event))
    assert not RatingChange.objects.exists() and not Rating.objects.exists()  # a casual event rates nobody
    html = signed_in(people[0]).get(page).text
    assert html.count('<tr><td class="num">') == 3  # three pairs ranked; the bots are not
    assert 'data-testid="board-1"' in html
    results = BoardResult.objects.filter(board__event=event)
    assert results.count() == 2 and all(reverse("hand_replay", args=[r.hand_id]) in html for r in results)
    assert "bot" in html
    board = event.boards.get()
    dealer = ("North", "East", "South", "West")[board.dealer]
    assert f"Dealer: {dealer}. Levels: North–South {board.levels['0']}, East–West {board.levels['1']}." in html
    # Who held which cards: the deal each table played, seat by seat, and the kitty.
    held = html.split('data-testid="held-1"')[1].split("</details>")[0]
    deck = results.first().hand.deck
    assert sorted(re.findall(r'data-card="(\w+)"', held)) == sorted(deck)
    north = held.split("<dd")[1].split("</dd>")[0]
    assert sorted(re.findall(r'data-card="(\w+)"', north)) == sorted(board.board(event.game_rules()).holdings()[0][0])
    chinese = signed_in(people[0], "zh-hans").get(page).text
    assert "第 1 副" in chinese and "庄家：" in chinese


def test_a_player_creates_a_private_event_from_the_form_and_staff_a_public_one(organiser):
    from games.duplicate.models import Event

    player = make_user("host")
    form = {
        "name": "Friday club",
        "kind": "individual",
        "rounds": "3",
        "boards_per_round": "2",
        "round_minutes": "25",
        "starts_at": (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
        "preset": "standard",
    }
    client = signed_in(player)
    assert 'name="starts_at"' in client.get(reverse("event_create")).text
    refused = client.post(reverse("event_create"), form)  # public, unchecked box: staff only
    assert refused.status_code == 400 and "Only staff can create public events." in refused.text
    assert client.post(reverse("event_create"), {**form, "rounds": "0"}).status_code == 400
    past = {**form, "is_private": "on", "starts_at": "2000-01-01T10:00"}
    assert "Choose a start in the future." in client.post(reverse("event_create"), past).text
    assert not Event.objects.exists()
    created = client.post(reverse("event_create"), {**form, "is_private": "on"})
    event = Event.objects.get()
    assert created.url == reverse("event", args=[event.pk])
    assert (event.kind, event.rounds, event.boards_per_round, event.is_private) == ("individual", 3, 2, True)
    assert event.boards.count() == 6
    signed_in(organiser).post(reverse("event_create"), {**form, "name": "Open night"})
    assert Event.objects.get(name="Open night").is_private is False
    rated = {**form, "is_private": "on", "name": "Rated night", "rated": "on"}
    refused = client.post(reverse("event_create"), {**rated, "preset": "casual"})
    assert refused.status_code == 400 and "makes a casual event" in refused.text
    client.post(reverse("event_create"), rated)
    assert Event.objects.get(name="Rated night").rated
    assert (
        'data-testid="event-rated">Rated'
        in client.get(reverse("event", args=[Event.objects.get(name="Rated night").pk])).text
    )
    chinese = signed_in(player, "zh-hans").get(reverse("event_create")).text
    assert "新建比赛" in chinese and "每轮副数" in chinese and "计分赛逐副改变选手的积分" in chinese
    refused = signed_in(player, "zh-hans").post(reverse("event_create"), {**rated, "preset": "casual"}).text
    assert "只能办休闲赛" in refused


def test_the_lobby_lists_events_and_every_page_links_them_in_both_languages(organiser):
    upcoming = an_event(organiser, name="Friday pairs")
    secret = an_event(make_user("someone"), name="Secret pairs", is_private=True)
    for language, word in (("en", "Events"), ("zh-hans", "比赛")):
        client = Client(headers={"accept-language": language})
        html = client.get("/").content.decode()
        assert f'href="/events/{upcoming.pk}/"' in html and "Friday pairs" in html
        assert "Secret pairs" not in html and f"/events/{secret.pk}/" not in html
        assert 'data-testid="all-events"' in html
        for page in ("/", "/leaderboard/", f"/events/{upcoming.pk}/"):
            menu = client.get(page).content.decode().split('class="site-nav"')[1].split("</nav>")[0]
            assert 'href="/events/"' in menu and word in menu


@pytest.mark.django_db(transaction=True)  # committed, as test_a_pair_registers_and_checks_in_from_the_page
def test_an_invited_partner_declines_from_the_page(organiser):
    event = an_event(organiser)
    mei, lin = make_user("mei"), make_user("lin")
    service.event_register(event_id=event.pk, user=mei, partner=lin)
    page = reverse("event", args=[event.pk])
    client = signed_in(lin)
    assert 'data-testid="decline-pair"' in client.get(page).text
    after = client.post(reverse("event_partner_decline", args=[event.pk]), follow=True).text
    assert not Entry.objects.filter(event=event).exists() and "Nobody has registered yet." in after


def test_an_entry_withdraws_from_the_page_in_both_languages(organiser, django_capture_on_commit_callbacks):
    event = an_event(organiser)
    mei, lin = make_user("mei"), make_user("lin")
    service.event_register(event_id=event.pk, user=mei, partner=lin)
    page = reverse("event", args=[event.pk])
    assert "退出比赛" in signed_in(mei, "zh-hans").get(page).text
    client = signed_in(mei)
    assert 'data-testid="withdraw"' in client.get(page).text
    with django_capture_on_commit_callbacks(execute=True):  # the page shows what is committed
        client.post(reverse("event_withdraw", args=[event.pk]))
    after = client.get(page).text
    assert not Entry.objects.filter(event=event).exists() and "Nobody has registered yet." in after
    again = client.post(reverse("event_withdraw", args=[event.pk]), follow=True).text
    assert "You are not entered in this event." in again  # refused, shown, nothing changed


def test_a_moderator_adjusts_a_result_from_the_page_once_every_table_played_its_board(organiser, settings):
    from games.moderation.models import ModerationLog
    from tests.conftest import make_moderator

    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    settings.GAMES_BOT_DELAY_MS = 0
    settings.GAMES_DEAL_LEAD_IN_MS = 0
    event = an_event(organiser)
    people = [make_user(f"adj{i}") for i in range(6)]
    pairs_entered(event, people)
    service.event_start_round(event_id=event.pk)
    page = reverse("event_results_moderate", args=[event.pk])
    assert signed_in(people[0]).get(page).status_code == 403  # moderators only
    moderator = signed_in(make_moderator())
    assert 'data-testid="adjust-link"' in moderator.get(reverse("event", args=[event.pk])).text
    assert "No board has been played at every table yet." in moderator.get(page).text

    play_round(EventRound.objects.get(event=event))
    result = BoardResult.objects.filter(board__event=event).first()
    assert f'name="result" value="{result.pk}"' in moderator.get(page).text
    refused = moderator.post(page, {"result": result.pk, "defenders_score": 40, "reason": ""}, follow=True).text
    assert "Give a reason." in refused and BoardResult.objects.get(pk=result.pk).adjusted_score is None
    assert moderator.post(page, {"result": "x", "defenders_score": 40, "reason": "r"}).status_code == 404
    done = moderator.post(page, {"result": result.pk, "defenders_score": 40, "reason": "a revoke"}, follow=True)
    assert "The result is adjusted." in done.text and BoardResult.objects.get(pk=result.pk).adjusted_score == 40
    assert ModerationLog.objects.get(action="adjust_result").reason == "a revoke"
    assert "调整成绩" in signed_in(make_moderator("mod2"), "zh-hans").get(page).text
