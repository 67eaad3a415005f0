"""The analysis on the replay and match pages, and who sees it (games/analysis/selectors.py).

Public table: everyone who may open the replay (which shows every hand face up anyway).
Private table: the match's players and moderators only — another user gets nothing of it,
and staff without the moderation permission see the replay without the analysis.
"""

import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.analysis import service, tasks
from games.analysis.models import HandAnalysis
from games.history import matches
from games.models import Hand, Table
from tests.analysis.test_analysis import BUDGET
from tests.conftest import make_moderator, make_table, make_user
from tests.history.test_replay import FAST, drive


@pytest.fixture(scope="module")
def analysed(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), override_settings(**FAST, GAMES_ANALYSIS_BUDGET=BUDGET):
        people = [make_user(f"av-{name}") for name in ("north", "east", "south", "west")]
        table = make_table(people[0], players=people)
        drive(table, people, hands=1, seed=3)
        hand = Hand.objects.filter(match__table=table, finished_at__isnull=False).get()
        analysis = service.hand_analyse(hand_id=hand.pk)
        yield {"table": table, "people": people, "hand": hand, "analysis": analysis}
        DBTaskResult.objects.filter(task_path=tasks.analyse_hand.module_path).delete()
        Table.objects.filter(pk=table.pk).delete()
        for user in people:
            user.delete()


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _decision_step(analysed):
    """The replay step of the seat's costliest decision, and that decision."""
    decision = max(analysed["analysis"].decisions.all(), key=lambda d: (d.lost, -d.index))
    frames = matches.hand_frames(analysed["hand"])
    step = next(i for i, f in enumerate(frames) if f.action == decision.index and f.kind in ("played", "buried"))
    return step, decision


def _cards(html: str, testid_block: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', testid_block)


def _replay(client, hand, step):
    return client.get(reverse("hand_replay", args=[hand.pk]), {"step": step})


@pytest.mark.django_db
def test_the_replay_shows_the_decision_the_suggestion_and_the_points(analysed):
    step, decision = _decision_step(analysed)
    page = _replay(_client(analysed["people"][decision.seat]), analysed["hand"], step).content.decode()
    box = page.split('data-testid="replay-analysis"', 1)[1].split("</section>", 1)[0]
    played, suggested = box.split("The bot suggests", 1)
    assert sorted(_cards(page, played)) == sorted(decision.played)
    assert sorted(_cards(page, suggested)) == sorted(decision.suggested)
    assert f'data-testid="points-lost">{round(decision.lost, 1)}<' in box
    assert 'data-testid="costly-mistake"' in box  # the costliest decision of its seat is marked
    mistakes = page.split('data-testid="replay-mistakes"', 1)[1]
    assert f"?step={step}" in mistakes and "(you)" in mistakes
    assert len(re.findall('data-testid="mistake"', mistakes)) <= 3 * 4


@pytest.mark.django_db
def test_a_step_that_is_no_decision_shows_no_analysis(analysed):
    page = _replay(_client(analysed["people"][0]), analysed["hand"], 0).content.decode()
    assert 'data-testid="replay-analysis"' not in page
    assert 'data-testid="replay-mistakes"' in page  # the hand's mistakes are listed on every step


@pytest.mark.django_db
def test_the_match_page_shows_each_players_accuracy_per_hand(analysed):
    page = _client(analysed["people"][1]).get(reverse("match_detail", args=[analysed["hand"].match_id]))
    html = page.content.decode()
    table = html.split('data-testid="accuracy"', 1)[1].split("</table>", 1)[0]
    for seat, summary in analysed["analysis"].seats.items():
        assert analysed["people"][int(seat)].username in table
        assert f"{summary['accuracy']}%" in table


@pytest.mark.django_db
def test_public_match_anyone_signed_in_sees_the_analysis(analysed):
    step, _ = _decision_step(analysed)
    stranger = make_user("av-stranger")
    assert 'data-testid="replay-analysis"' in _replay(_client(stranger), analysed["hand"], step).content.decode()


@pytest.mark.django_db
def test_private_match_only_players_and_moderators_see_the_analysis(analysed):
    Table.objects.filter(pk=analysed["table"].pk).update(is_private=True)
    step, decision = _decision_step(analysed)
    hand = analysed["hand"]
    stranger = make_user("av-other")
    assert _replay(_client(stranger), hand, step).status_code == 404
    match_page = _client(stranger).get(reverse("match_detail", args=[hand.match_id]))
    assert match_page.status_code == 404 and b"accuracy" not in match_page.content
    staff = make_user("av-staff")
    staff.is_staff = True
    staff.save()
    seen = _replay(_client(staff), hand, step)
    assert seen.status_code == 200 and b'data-testid="replay-analysis"' not in seen.content
    assert b'data-testid="replay-mistakes"' not in seen.content
    assert b'data-testid="accuracy"' not in _client(staff).get(reverse("match_detail", args=[hand.match_id])).content
    for user in (make_moderator("av-mod"), analysed["people"][(decision.seat + 1) % 4]):
        assert b'data-testid="replay-analysis"' in _replay(_client(user), hand, step).content
        assert b'data-testid="accuracy"' in _client(user).get(reverse("match_detail", args=[hand.match_id])).content


@pytest.mark.django_db
def test_a_queued_analysis_says_it_is_coming(analysed):
    HandAnalysis.objects.filter(pk=analysed["analysis"].pk).update(status=HandAnalysis.Status.QUEUED)
    step, _ = _decision_step(analysed)
    page = _replay(_client(analysed["people"][0]), analysed["hand"], step).content.decode()
    assert 'data-testid="analysis-queued"' in page and 'data-testid="replay-analysis"' not in page


@pytest.mark.django_db
def test_the_analysis_reads_in_chinese(analysed):
    step, _ = _decision_step(analysed)
    client = _client(analysed["people"][0])
    client.cookies["django_language"] = "zh-hans"
    page = _replay(client, analysed["hand"], step).content.decode()
    assert "机器人建议" in page and "代价最大的失误" in page
