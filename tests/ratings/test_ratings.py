"""Ratings (games/ratings/): rated matches update ratings through the write path's
records, atomically with the result; abuse guards; voiding; rebuild = stored."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.exceptions import PermissionDenied
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import engine
from games.engine import Refusal
from games.models import Match, MatchPlayer, Seat, Table
from games.moderation.models import ModerationLog
from games.moderation.tables import seat_kick, table_close
from games.ratings import maths
from games.ratings.models import RatedMatch, Rating, RatingChange
from games.ratings.selectors import ratings_snapshot, snapshot_differences
from games.ratings.service import match_rate, ratings_replay
from games.ratings.voids import match_void
from games.runtime import writer
from tests.conftest import make_moderator, make_table, make_user
from tests.table_driver import drive

pytestmark = pytest.mark.django_db


# --- through the write path -----------------------------------------------------------


def _start_at_last_hand(table, owner):
    """Start the match with both teams at A: whoever wins this hand wins the match (RULES §8.4)."""
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=owner)
    table = Table.objects.get(pk=table.pk)
    game = engine.Game.from_json(table.state)
    game.levels = {"0": "A", "1": "A"}
    Table.objects.filter(pk=table.pk).update(state=game.to_json())


def _finish(table, players):
    return drive(table.pk, dict(enumerate(players)), lambda g: g.phase == "finished")


def test_a_rated_match_changes_ratings_with_its_result_and_the_end_screen_says_so(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0, rated=True, turn_limit_s=30)
    _start_at_last_hand(table, players[0])
    _table, game = _finish(table, players)
    match = Match.objects.get(table=table)
    assert match.rated and match.winner_team == game.winner
    entry = RatedMatch.objects.get(match=match)
    changes = {c.position: c for c in entry.changes.all()}
    assert sorted(changes) == [0, 1, 2, 3]
    winners = [p for p in range(4) if p % 2 == game.winner]
    losers = [p for p in range(4) if p % 2 != game.winner]
    expected_w, expected_l = maths.team_update([maths.initial()] * 2, [maths.initial()] * 2)
    for position, skill in zip(winners + losers, expected_w + expected_l):
        change = changes[position]
        assert (change.mu_after, change.sigma_after) == (skill.mu, skill.sigma)
        rating = Rating.objects.get(pk=players[position].pk)
        assert (rating.mu, rating.sigma, rating.matches) == (skill.mu, skill.sigma, 1)
        assert rating.display == change.display_after == maths.display(skill)
    assert all(changes[p].delta > 0 for p in winners) and all(changes[p].delta < 0 for p in losers)

    client = Client()
    client.force_login(players[winners[0]])
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    change = changes[winners[0]]
    assert f"+{change.delta}, now {change.display_after}" in page
    loser = changes[losers[0]]
    assert f"{loser.delta}, now {loser.display_after}" in page and f"+{loser.delta}" not in page


def test_casual_tables_and_matches_with_a_bot_change_no_rating(players, settings):
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    casual = make_table(players[0], players=players, pace_ms=1, window_ms=0)
    _start_at_last_hand(casual, players[0])
    _finish(casual, players)
    with_bot = make_table(players[0], players=players[:3], pace_ms=1, window_ms=0, rated=True, turn_limit_s=30)
    writer.table_act(
        table_id=with_bot.pk, action={"type": "add_bot", "seat": 3}, expected_version=None, user=players[0]
    )
    _start_at_last_hand(with_bot, players[0])
    _finish(with_bot, players[:3])
    assert Match.objects.filter(rated=False, winner_team__isnull=False).count() == 2
    assert not RatedMatch.objects.exists() and not Rating.objects.exists()


def test_play_now_tables_are_casual(players):
    client = Client()
    client.force_login(players[0])
    client.post(reverse("play_now"))
    table = Table.objects.get(owner=players[0])
    assert not table.rated and not Match.objects.get(table=table).rated


def test_leaving_a_rated_match_loses_it_for_the_team_that_left(players, settings):
    """A kicked player's seat goes to a bot and the match plays on: whoever wins on the
    board, the kicked player's team loses for the ratings."""
    settings.GAMES_NEXT_HAND_DELAY_MS = 0
    table = make_table(players[0], players=players, pace_ms=1, window_ms=0, rated=True, turn_limit_s=30)
    _start_at_last_hand(table, players[0])
    seat_kick(moderator=make_moderator(), table_id=table.pk, user_id=players[1].pk, reason="abusive")
    assert Seat.objects.get(table=table, position=1).bot
    _finish(table, players)
    match = Match.objects.get(table=table)
    assert match.left_team == 1 and match.winner_team is not None
    changes = {c.position: c for c in RatedMatch.objects.get(match=match).changes.all()}
    assert changes[1].user == players[1]  # the one who left is rated too
    assert changes[0].delta > 0 and changes[2].delta > 0 and changes[1].delta < 0 and changes[3].delta < 0


def test_an_abandoned_match_is_rated_at_once_as_a_loss_and_a_closed_table_not_at_all(players, settings):
    no_bots = make_table(
        players[0], players=players, pace_ms=1, window_ms=0, rated=True, turn_limit_s=30, allow_bots=False
    )
    writer.table_act(table_id=no_bots.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    moderator = make_moderator()
    seat_kick(moderator=moderator, table_id=no_bots.pk, user_id=players[2].pk, reason="left the table")
    match = Match.objects.get(table=no_bots)
    assert match.aborted and match.left_team == 0
    changes = {c.position: c.delta for c in RatedMatch.objects.get(match=match).changes.all()}
    assert changes[0] < 0 and changes[2] < 0 and changes[1] > 0 and changes[3] > 0

    closed = make_table(players[0], players=players, pace_ms=1, window_ms=0, rated=True, turn_limit_s=30)
    writer.table_act(table_id=closed.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    table_close(moderator=moderator, table_id=closed.pk, reason="maintenance")
    assert Match.objects.get(table=closed).aborted
    assert not RatedMatch.objects.filter(match__table=closed).exists()


def test_a_rated_table_needs_a_turn_limit(players):
    from games.web.forms import TableForm

    form = TableForm({"name": "x", "is_private": "on", "rated": "on", "deal_pace_ms": 150, "last_chance_ms": 2000,
                      "turn_limit_s": 0, "allow_bots": "on"})  # fmt: skip
    assert not form.is_valid() and form.has_error("turn_limit_s", "rated_needs_limit")
    client = Client()
    client.force_login(players[0])
    data = {"name": "Rated", "rated": "on", "deal_pace_ms": 150, "last_chance_ms": 2000, "turn_limit_s": 30}
    client.post(reverse("create_table"), data)
    assert Table.objects.get(name="Rated").rated


RATED_FORM = {"name": "Rated", "rated": "on", "deal_pace_ms": 150, "last_chance_ms": 2000, "turn_limit_s": 30}


def test_a_rated_table_plays_the_standard_rules_or_a_rateable_preset(players):
    """Issue #17: rated matches need the standard ruleset or a preset marked rateable;
    the form refuses "rated" with casual or custom rules and says why, in both languages."""
    from games.web.forms import TableForm

    assert set(engine.RATEABLE) == {"standard", "qq", "classic"}
    for preset in ("standard", "qq", "classic"):
        assert TableForm(dict(RATED_FORM, preset=preset)).is_valid(), preset
    assert TableForm(dict(RATED_FORM, preset="casual", rated="")).is_valid()  # casual is fine unrated
    casual = TableForm(dict(RATED_FORM, preset="casual"))
    assert not casual.is_valid() and casual.has_error("rated", "rules_unrated")
    custom = TableForm(dict(RATED_FORM, preset="qq", rule_kitty_bonus="double"))  # a preset changed: custom
    assert not custom.is_valid() and custom.has_error("rated", "rules_unrated")

    client = Client()
    client.force_login(players[0])
    refused = client.post(reverse("create_table"), dict(RATED_FORM, preset="casual"))
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "Only these rules can be rated: Standard (the rulebook) · QQ 升级 style · Classic: no permanent 2s." in text
    assert "“Casual” makes a casual table" in text
    client.post(reverse("set_language"), {"language": "zh-hans", "next": "/"})
    refused = client.post(reverse("create_table"), dict(RATED_FORM, preset="standard", rule_throw_penalty="none"))
    assert refused.status_code == 400
    assert (
        "只有这些规则可以计分：标准（规则书） · QQ 升级风格 · 经典：2 不为常主。“自定义”只能开休闲桌"
        in refused.content.decode()
    )
    assert not Table.objects.exists()
    client.post(reverse("create_table"), dict(RATED_FORM, preset="classic"))
    table = Table.objects.get(name="Rated")
    assert table.rated and engine.preset_of(table.game_rules()) == "classic"


@pytest.mark.parametrize(
    ("rules", "rated"),
    [({}, True), (engine.PRESETS["classic"], True), (engine.PRESETS["casual"], False), ({"must_play": "none"}, False)],
)
def test_a_match_is_rated_only_under_rateable_rules(players, rules, rated):
    """Eligibility reads the match's rules too: a rated table whose stored rules are casual
    or custom (made before the form refused them, or by hand) starts a casual match."""
    table = make_table(players[0], players=players, rated=True, turn_limit_s=30, rules=dict(rules))
    writer.table_act(table_id=table.pk, action={"type": "start_match"}, expected_version=None, user=players[0])
    match = Match.objects.get(table=table)
    assert match.game_rules().differences().keys() - {"last_chance_ms"} == rules.keys()
    assert match.rated is rated


def test_eligibility_takes_the_matchs_rules_over_the_tables(players):
    from games.runtime.records import match_is_rated

    table = make_table(players[0], players=players, rated=True, turn_limit_s=30)
    seats = list(table.seats.order_by("position"))
    assert match_is_rated(table=table, seats=seats)
    assert not match_is_rated(table=table, seats=seats, rules=engine.preset_rules("casual"))
    assert match_is_rated(table=table, seats=seats, rules=engine.preset_rules("qq", last_chance_ms=0))


# --- the service over stored matches ------------------------------------------------------


def _match(users, *, winner, at, left_team=None, aborted=False, table=None):
    table = table or Table.objects.create(owner=users[0], name="t", rated=True)
    number = table.matches.count() + 1
    match = Match.objects.create(
        table=table,
        number=number,
        rated=True,
        winner_team=None if aborted else winner,
        aborted=aborted,
        left_team=left_team,
        finished_at=at,
    )
    MatchPlayer.objects.bulk_create(MatchPlayer(match=match, user=u, position=i) for i, u in enumerate(users))
    return match


def test_the_same_four_again_within_a_day_move_less_each_time(players):
    now = timezone.now()
    others = [make_user("fifth"), *players[1:]]
    factors = []
    for at, line_up in [
        (now, players),
        (now + timedelta(hours=1), players[::-1]),  # same four people, other seats
        (now + timedelta(hours=2), others),  # another line-up
        (now + timedelta(hours=3), players),
        (now + timedelta(hours=30), players),  # over a day since all but the last
    ]:
        entry = match_rate(match=_match(line_up, winner=0, at=at), now=at)
        factors.append(entry.changes.first().factor)
    assert factors == [1.0, 0.5, 1.0, 0.25, 1.0]
    assert ratings_snapshot() == _rebuilt()


def test_a_moderator_voids_a_match_and_ratings_are_replayed_without_it(players):
    now = timezone.now()
    other = make_user("fifth")
    matches = [
        _match(players, winner=0, at=now),
        _match([other, *players[1:]], winner=1, at=now + timedelta(minutes=5)),
        _match(players, winner=1, at=now + timedelta(minutes=10)),
    ]
    for match in matches:
        match_rate(match=match, now=match.finished_at)
    moderator = make_moderator()
    with pytest.raises(PermissionDenied):
        match_void(moderator=players[0], match_id=matches[0].pk, reason="farming")
    match_void(moderator=moderator, match_id=matches[0].pk, reason="farming")
    assert RatedMatch.objects.get(match=matches[0]).voided
    assert not RatingChange.objects.filter(rated_match__match=matches[0]).exists()
    log = ModerationLog.objects.get(action=ModerationLog.Action.VOID_MATCH)
    assert log.moderator == moderator and log.details["match_id"] == matches[0].pk and log.reason == "farming"
    # Without the first match, the third is the first of its line-up: full weight.
    third = RatingChange.objects.filter(rated_match__match=matches[2]).first()
    assert third.factor == 1.0
    north = Rating.objects.get(pk=players[0].pk)
    assert north.matches == 1  # players[0] sat out the second match
    # Exactly what rating the two remaining matches from scratch gives.
    stored = ratings_snapshot()
    assert stored == _rebuilt()
    before = stored
    for refused in (matches[0].pk, 10**9):
        with pytest.raises(Refusal):
            match_void(moderator=moderator, match_id=refused, reason="again")
    assert ratings_snapshot() == before


def _rebuilt():
    with transaction.atomic():
        ratings_replay()
        rebuilt = ratings_snapshot()
        transaction.set_rollback(True)
    return rebuilt


history_steps = st.lists(
    st.tuples(
        st.permutations(range(6)).map(lambda p: p[:4]),  # who sits where, from six people
        st.integers(0, 1),  # winning team
        st.integers(0, 40),  # hours since the previous match
        st.sampled_from(["won", "won", "won", "left", "void"]),
    ),
    min_size=1,
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=history_steps)
def test_ratings_are_a_pure_function_of_the_stored_history(steps, django_user_model):
    """Random histories rated live one match at a time (with leavers and voids between
    them): a rebuild from the stored matches gives back exactly the stored values."""
    with transaction.atomic():  # each example starts from an empty history
        _rate_and_rebuild(steps, django_user_model)
        transaction.set_rollback(True)


def _rate_and_rebuild(steps, user_model):
    people = [user_model.objects.create(username=f"p{i}") for i in range(6)]
    moderator = make_moderator()
    at = timezone.now()
    rated = []
    for seating, winner, hours, kind in steps:
        at += timedelta(hours=hours, minutes=1)
        if kind == "void" and rated:
            match_void(moderator=moderator, match_id=rated.pop(len(rated) // 2).pk, reason="test")
            continue
        match = _match([people[i] for i in seating], winner=winner, at=at, left_team=winner if kind == "left" else None)
        match_rate(match=match, now=at)
        rated.append(match)
    stored = ratings_snapshot()
    assert stored["changes"] or not rated
    out = StringIO()
    call_command("ratings_rebuild", stdout=out)
    assert " 0 stored rows differed" in out.getvalue()
    assert ratings_snapshot() == stored


def test_rebuild_repairs_a_tampered_rating_and_says_so(players):
    now = timezone.now()
    match_rate(match=_match(players, winner=0, at=now), now=now)
    stored = ratings_snapshot()
    Rating.objects.filter(pk=players[0].pk).update(mu=99.0)
    out = StringIO()
    call_command("ratings_rebuild", "--check", stdout=out)
    assert "1 stored rows differed (would change)" in out.getvalue()
    assert Rating.objects.get(pk=players[0].pk).mu == 99.0
    call_command("ratings_rebuild", stdout=StringIO())
    assert snapshot_differences(ratings_snapshot(), stored) == 0


def test_the_match_page_shows_rating_changes_and_lets_a_moderator_void_it(players):
    now = timezone.now()
    match = _match(players, winner=0, at=now)
    match_rate(match=match, now=now)
    change = RatingChange.objects.get(rated_match__match=match, position=0)
    player, moderator = Client(), Client()
    player.force_login(players[0])
    page = player.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert f"+{change.delta}, now {change.display_after}" in page and "Void this match" not in page
    url = reverse("moderation_match_void", args=[match.pk])
    assert player.post(url, {"void-reason": "x"}).status_code == 403
    moderator.force_login(make_moderator())
    assert "Void this match" in moderator.get(reverse("match_detail", args=[match.pk])).content.decode()
    moderator.post(url, {"void-reason": ""})  # no reason: refused, nothing changed
    assert not RatedMatch.objects.get(match=match).voided
    moderator.post(url, {"void-reason": "the same four farming"})
    assert RatedMatch.objects.get(match=match).voided and not Rating.objects.exists()


def test_voiding_a_missing_or_unrated_match_over_http_is_refused_and_changes_nothing(players):
    from django.contrib.messages import get_messages

    now = timezone.now()
    rated = _match(players, winner=0, at=now)
    match_rate(match=rated, now=now)
    casual = Match.objects.create(
        table=Table.objects.create(owner=players[0], name="casual"), number=1, winner_team=1, finished_at=now
    )
    stored, logged = ratings_snapshot(), ModerationLog.objects.count()
    moderator = Client()
    moderator.force_login(make_moderator())
    missing = Match.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
    for match_id, said in [(missing, "No such match."), (casual.pk, "This match did not change any rating.")]:
        response = moderator.post(reverse("moderation_match_void", args=[match_id]), {"void-reason": "farming"})
        assert response.status_code == 302
        assert [str(m) for m in get_messages(response.wsgi_request)][-1] == said  # the newest message
    assert moderator.get(reverse("moderation_match_void", args=[rated.pk])).status_code == 405
    assert snapshot_differences(ratings_snapshot(), stored) == 0 and ModerationLog.objects.count() == logged
    assert not RatedMatch.objects.filter(voided=True).exists()
