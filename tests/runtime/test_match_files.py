"""Match files (games/history/export.py): download a finished match as versioned JSON,
open it in the replay viewer (checked by folding it through the engine, never stored),
and replay links that open at a chosen trick."""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from games import engine
from games.history import export
from games.models import Hand, Match, Table, TableEvent
from tests.conftest import make_table, make_user
from tests.history.test_replay import FAST, drive


@pytest.fixture(scope="module")
def played(django_db_setup, django_db_blocker):
    """Two finished hands and a third under way, committed once for the module."""
    with django_db_blocker.unblock(), override_settings(**FAST):
        players = [make_user(f"mf-{name}") for name in ("north", "east", "south", "west")]
        table = make_table(players[0], players=players)
        drive(table, players, hands=3, stop_after_plays=6)
        yield {"table": table, "players": players, "match": Match.objects.get(table=table)}
        Table.objects.filter(pk=table.pk).delete()
        for user in players:
            user.delete()


def _client(user):
    client = Client()
    client.force_login(user)
    return client


def _download(played):
    response = _client(played["players"][0]).get(reverse("match_export", args=[played["match"].pk]))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    return json.loads(response.content)


@pytest.mark.django_db
def test_the_file_holds_every_finished_hand_and_nothing_of_the_running_one(played):
    document = _download(played)
    assert document["format"] == export.FORMAT and document["version"] == export.VERSION
    assert document["rules"]["rulebook"] == "RULES.md" and "deal_pace_ms" in document["rules"]["table"]
    assert engine.Rules.from_json(document["rules"]["engine"]) == played["match"].game_rules()  # as played
    assert [p["name"] for p in document["players"]] == [u.username for u in played["players"]]
    stored = list(Hand.objects.filter(match=played["match"], finished_at__isnull=False).order_by("number"))
    assert len(stored) == 2 and [h["number"] for h in document["hands"]] == [1, 2]  # hand 3 is running
    running = Hand.objects.get(match=played["match"], number=3)
    assert running.seed not in json.dumps(document)  # RULES §9: not its deck, not its seed
    for hand, row in zip(document["hands"], stored):
        assert hand["deck"] == row.deck and hand["seed"] == row.seed
        assert hand["result"]["defenders_score"] == row.defenders_score
        assert hand["result"]["levels_after"] == row.levels_after and hand["result"]["trump"] == row.trump
        assert sorted(hand["result"]["buried"]) == sorted(row.bury.cards)
        assert sum(len(cards) for _seat, cards in hand["plays"]) == 100  # every card played once
        assert sum(t["points"] for t in hand["tricks"]) <= 200
    assert document["actions"][0]["type"] == "start_hand"


@pytest.mark.django_db
def test_the_file_opens_in_the_replay_viewer_and_steps_without_being_stored(played):
    document = _download(played)
    client = _client(played["players"][1])
    counts = (Match.objects.count(), Hand.objects.count(), TableEvent.objects.count())
    upload = SimpleUploadedFile("match.json", json.dumps(document).encode(), content_type="application/json")
    page = client.post(reverse("replay_upload"), {"match_file": upload, "hand": "2"})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="replay-frame"' in html and 'data-step="0"' in html and "mf-north" in html
    text = page.context["document_text"]
    stepped = client.post(reverse("replay_upload"), {"document": text, "hand": "2", "step": "40"})
    assert 'data-step="40"' in stepped.content.decode()
    at_trick = client.post(reverse("replay_upload"), {"document": text, "hand": "1", "trick": "3"})
    assert at_trick.context["frame"].kind == "played" and len(at_trick.context["view"]["trick"]) == 4
    assert (Match.objects.count(), Hand.objects.count(), TableEvent.objects.count()) == counts


def _tampered(document, change):
    bad = copy.deepcopy(document)
    change(bad)
    return json.dumps(bad)


@pytest.mark.django_db
def test_a_file_that_does_not_fold_is_refused_with_the_reason(played):
    document = _download(played)
    first_play = next(i for i, a in enumerate(document["actions"]) if a["type"] == "play")

    def swap_a_card(d):
        d["actions"][first_play]["cards"] = ["BJK", "BJK", "BJK"]

    def change_the_score(d):
        d["hands"][0]["result"]["defenders_score"] += 5

    cases = {
        "breaks the rules": _tampered(document, swap_a_card),
        "Hand 1 in the file is not what its actions play": _tampered(document, change_the_score),
        "cannot be read here": _tampered(document, lambda d: d.update(version=99)),
        "not a Double Up match file": json.dumps({"hello": 1}),
        "not JSON": "{not json",
        "must name four players": _tampered(document, lambda d: d["players"].pop()),
        "Unknown action": _tampered(document, lambda d: d["actions"].insert(0, {"type": "sit", "seat": 1})),
    }
    client = _client(played["players"][2])
    counts = (Match.objects.count(), Hand.objects.count(), TableEvent.objects.count())
    for reason, text in cases.items():
        upload = SimpleUploadedFile("match.json", text.encode(), content_type="application/json")
        response = client.post(reverse("replay_upload"), {"match_file": upload})
        assert response.status_code == 400, reason
        assert reason in response.content.decode(), reason
        assert 'id="replay-frame"' not in response.content.decode()
    assert (Match.objects.count(), Hand.objects.count(), TableEvent.objects.count()) == counts
    zh = _client(played["players"][2])
    zh.cookies["django_language"] = "zh-hans"
    response = zh.post(reverse("replay_upload"), {"document": json.dumps({"hello": 1})})
    assert response.status_code == 400 and "这不是双升的牌局文件" in response.content.decode()


@pytest.mark.django_db
def test_who_may_download(played):
    private = make_table(played["players"][0], players=played["players"], is_private=True)
    match = Match.objects.create(table=private, number=1)
    outsider = _client(make_user("mf-outsider"))
    assert outsider.get(reverse("match_export", args=[match.pk])).status_code == 404  # private: not even its existence
    assert outsider.get(reverse("match_export", args=[played["match"].pk])).status_code == 200  # public
    assert _client(played["players"][0]).get(reverse("match_export", args=[match.pk])).status_code == 404  # no hand
    assert Client().get(reverse("match_export", args=[played["match"].pk])).status_code == 302  # log in first


@pytest.mark.django_db
def test_a_replay_link_opens_at_a_chosen_trick(played):
    hand = Hand.objects.get(match=played["match"], number=1)
    client = _client(played["players"][0])
    response = client.get(reverse("hand_replay", args=[hand.pk]) + "?trick=5")
    frame = response.context["frame"]
    step = response.context["step"]
    assert frame.kind == "played" and len(response.context["view"]["trick"]) == 4  # trick 5, complete
    tricks = {t["n"]: t["step"] for t in response.context["tricks"]}
    assert step == tricks[5]  # the trick list opens each trick whole, as ?trick=N does
    assert client.get(reverse("hand_replay", args=[hand.pk]) + "?trick=999").context["step"] == 0
