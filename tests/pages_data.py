"""A small, realistic site for page tests and screenshots: players, open tables in every
state, one finished hand (history, replay), a report and a moderator."""

import copy
from datetime import timedelta

from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.friends.models import Follow
from games.history import matches
from games.models import Hand, Match, MatchPlayer, Seat, Table
from games.moderation.models import Report
from games.ratings.service import match_rate
from games.runtime import writer
from tests import saved_rows
from tests.conftest import make_moderator, make_table, make_user
from tests.history.test_replay import FAST, drive

LONG_NAME = "a_player_with_a_rather_long_name"


def _named(table, name):
    Table.objects.filter(pk=table.pk).update(name=name)
    return Table.objects.get(pk=table.pk)


_built: tuple[dict, str] | None = None  # this worker's site and its rows


def shared_site(password: str) -> dict:
    """The site of build_site, built once per worker (a hand played through the write path,
    an event run, twelve rated matches: seconds each time) and saved again into each later
    test's emptied database (tests/saved_rows.py)."""
    global _built
    if _built is None:
        site = build_site(password)
        _built = site, saved_rows.snapshot()
        return copy.deepcopy(site)
    site, rows = _built
    saved_rows.restore(rows)
    return copy.deepcopy(site)


def build_site(password: str) -> dict:
    people = {name: make_user(name, password) for name in ("mei", "li_wei", "sam", LONG_NAME, "jo")}
    moderator = make_moderator("moderator")
    moderator.set_password(password)
    moderator.save()
    mei, li, sam, longname, jo = people.values()
    with override_settings(**FAST):
        played = _named(make_table(mei, players=[mei, li, sam, longname]), "Saturday tractor")
        drive(played, [mei, li, sam, longname], hands=1)
    waiting = _named(
        make_table(li, players=[li, None, None, None], pace_ms=150, window_ms=2000), "Beginners welcome, bring tea"
    )
    writer.table_act(
        table_id=waiting.pk,
        action={"type": "add_bot", "seat": 2, "level": Seat.Bot.STRONG},
        expected_version=None,
        user=li,
    )
    _named(make_table(jo, players=[jo, None, longname, None], pace_ms=80, turn_limit_s=30), "双升 练习桌")
    client = Client()
    client.force_login(sam)
    client.post(reverse("play_now"))  # a running table with three bots
    Report.objects.create(reporter=li, user=jo, reason="Left in the middle of every hand.")
    Report.objects.create(reporter=jo, table=played, reason="Rude chat at this table.")
    rated_history(list(people.values())[:4], matches=12)
    for a, b in ((mei, li), (li, mei), (mei, longname), (longname, mei)):
        Follow.objects.create(follower=a, followed=b)
    hand = Hand.objects.filter(match__table=played, finished_at__isnull=False).first()
    with override_settings(**FAST):
        finished, upcoming = build_events(mei, moderator)
    return {
        "finished_event": finished,
        "upcoming_event": upcoming,
        "finished_event_table": finished.event_rounds.get().tables.order_by("number").first(),
        "people": people,
        "moderator": moderator,
        "played": Table.objects.get(pk=played.pk),
        "waiting": waiting,
        "hand": hand,
        # The replay lists one entry per trick; the hand is dealt at random, so count them.
        "hand_tricks": sum(frame.kind == "trick_won" for frame in matches.hand_frames(hand)),
    }


def build_events(mei, organiser):
    """Duplicate events (docs/events.md): one finished (two tables, one board each, its
    results), one open for registration that mei entered with a partner."""
    from games.duplicate import service
    from games.duplicate.models import EventRound
    from tests.duplicate.events import an_event, pairs_entered
    from tests.duplicate.test_event_run import play_round

    finished = an_event(organiser, name="Autumn duplicate pairs", starts_at=timezone.now())
    club = [make_user(name) for name in ("wang_fang", "zhao_lei", "chen_jing", "liu_yang", "huang_min", "zhou_tao")]
    pairs_entered(finished, club)
    service.event_start_round(event_id=finished.pk)
    play_round(EventRound.objects.get(event=finished))
    upcoming = an_event(organiser, name="Thursday evening duplicate", starts_at=timezone.now() + timedelta(days=3))
    service.event_register(event_id=upcoming.pk, user=mei, partner=club[0])
    return finished, upcoming


def rated_history(people, *, matches: int) -> None:
    """Rated matches among these four, in turn-about partnerships, rated as they would be
    at their end (for the leaderboard and the profiles' rating charts)."""
    table = _named(make_table(people[0], rated=True, turn_limit_s=30), "Rated evenings")
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    start = timezone.now() - timedelta(days=matches * 2)
    for number in range(1, matches + 1):
        at = start + timedelta(days=2 * number)
        seating = people if number % 3 else [people[0], people[2], people[1], people[3]]
        match = Match.objects.create(
            table=table,
            number=number,
            rated=True,
            winner_team=number % 2,
            finished_at=at,
            final_levels={"0": "A", "1": "9"},
        )
        MatchPlayer.objects.bulk_create(MatchPlayer(match=match, user=u, position=i) for i, u in enumerate(seating))
        match_rate(match=match, now=at)


def pages_of(site) -> dict[str | None, list[tuple[str, str]]]:
    """(name, path) of every page, by who looks at it (None: a visitor)."""
    played, hand = site["played"], site["hand"]
    return {
        None: [
            ("lobby-visitor", "/"),
            ("login", "/accounts/login/"),
            ("register", "/accounts/register/"),
            ("password-reset", "/accounts/password/reset/"),
            ("password-reset-done", "/accounts/password/reset/done/"),
            ("leaderboard", "/leaderboard/"),
            ("leaderboard-30d", "/leaderboard/?period=30d"),
            ("events-visitor", "/events/"),
            ("event-finished", f"/events/{site['finished_event'].pk}/"),
            ("event-table-watch", f"/events/{site['finished_event'].pk}/tables/{site['finished_event_table'].pk}/"),
        ],
        "mei": [
            ("lobby", "/"),
            ("table-waiting", f"/tables/{site['waiting'].pk}/"),
            ("my-matches", "/matches/"),
            ("match", f"/matches/{hand.match_id}/"),
            ("replay", f"/hands/{hand.pk}/replay/?step=120"),
            ("replay-end", f"/hands/{hand.pk}/replay/?step=100000"),
            ("profile", "/accounts/u/mei/"),
            ("profile-other", "/accounts/u/a_player_with_a_rather_long_name/"),
            ("friends", "/friends/"),
            ("settings", "/accounts/settings/"),
            ("password-change", "/accounts/password/change/"),
            ("report", "/report/user/jo/"),
            ("events", "/events/"),
            ("event-upcoming", f"/events/{site['upcoming_event'].pk}/"),
            ("event-new", "/events/new/"),
        ],
        "moderator": [
            ("moderate-user", "/moderation/users/jo/"),
            ("moderate-table", f"/moderation/tables/{played.pk}/"),
            ("event-results-adjust", f"/events/{site['finished_event'].pk}/results/adjust/"),
        ],
    }
