"""The lessons at /learn/, through Django's test client and the real engine: every lesson is
solved with its intended move and failed with a wrong one, and the explanation shown is
checked; progress is kept per account and per visitor's session, and merged at login; bad
input changes nothing; the page shows no card the learner may not see."""

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.lessons import guided
from games.lessons.catalogue import LESSONS, lesson_by_slug
from games.lessons.models import LessonProgress
from games.lessons.positions import LEARNER, cards, position_game, restore
from games.lessons.progress import STATES_KEY
from tests.conftest import make_user

pytestmark = pytest.mark.django_db

FRAGMENT = {"X-Lesson-Fragment": "1"}
EXPLANATION = re.compile(r'data-testid="explanation">(.*?)</p>', re.S)
TAG = re.compile(r"<[^>]+>")

# slug: (the intended moves, words of the explanation of a success)
SOLUTIONS = {
    "cards-and-points": (["SK"], "adds 10 points to your partner's trick"),
    "trumps": (["D7"], "♦7 is a trump above the ♥A"),
    "following-suit": (["C4"], "♣4 gives nothing away"),
    "pairs": (["DK DK"], "♦K ♦K is a pair higher than ♦Q ♦Q"),
    "tractors": (["SQ SQ SJ SJ"], "is a tractor, two pairs next to each other in rank"),
    "winning-tricks": (["SJ"], "your ♠J was high enough"),
    "throws": (["CA CA CK"], "every part of ♣A ♣A ♣K stands"),
    "declaring": (["S2 S2"], "your ♠2 ♠2 overrides the ♦ declaration"),
    "burying": (["C3 C4 C6 C8 C9 D3 D4 D6"], "no trump thrown away"),
    "kitty-bonus": (["CA CA"], "the kitty's 25 points counted ×4"),
    "scoring": (["SA"], "The defenders scored 30"),
}
# slug: [(a wrong move, "refused" by the engine or "short" of the goal, words of its explanation)]
MISTAKES = {
    "cards-and-points": [
        ("S5", "short", "Your ♠5 is worth 5 points"),
        ("H9", "refused", "You still hold ♠ cards: you must follow ♠"),
    ],
    "trumps": [
        ("HQ", "short", "The trick went to the opponent on your left, with ♥A"),
        ("CA", "refused", "You still hold trumps: you must follow with trumps"),
    ],
    "following-suit": [
        ("C10", "short", "Your ♣10 gave them points"),
        ("H9", "refused", "You still hold ♣ cards: you must follow ♣"),
    ],
    "pairs": [
        ("D4 D4", "short", "Only a higher pair beats a pair"),
        ("DK D9", "refused", "You hold pairs in the led suit: play 1 pair of it"),
    ],
    "tractors": [
        ("SQ SQ", "short", "♠Q ♠Q is not a tractor. The trick went to the opponent on your right, with ♠A ♠A"),
        ("SQ SQ SJ SJ S5", "short", "Your throw failed"),
        ("SQ CK", "refused", "A lead must come from one suit-class"),
    ],
    "winning-tricks": [
        ("S3", "short", "The trick went to the opponent on your right, with ♠10"),
        ("C4", "short", "♣4 could not hold the trick"),
    ],
    "throws": [
        ("CA CA CK CJ", "short", "Only ♣J was led, and the throw cost a penalty of 10 points"),
        ("CA CA", "short", "not a throw"),
    ],
    "declaring": [
        ("S2", "refused", "A declaration must be stronger than the standing one"),
        ("SJK", "refused", "Declare with one level card, two identical level cards"),
    ],
    "burying": [
        ("C3 C4 C6 C8 C9 D3 D4 C10", "short", "♣10: 10 points"),
        ("C3 C4 C6 C8 C9 D3 D4 H2", "short", "trumps win tricks, keep them"),
        ("C3 C4", "refused", "Bury exactly 8 cards"),
    ],
    "kitty-bonus": [("CA", "short", "the kitty counted for nobody")],
    "scoring": [("S4", "short", "The defenders scored 45")],
}
PLAYED = [lesson for lesson in LESSONS if lesson.action != "hand"]


def explanation(response) -> str:
    found = EXPLANATION.search(response.content.decode())
    assert found, "no explanation shown"
    return html.unescape(TAG.sub("", found.group(1))).strip()


def move(client, slug, op, played, fragment=True):
    data = {"op": op, "cards": cards(played)}
    return client.post(reverse("lesson", args=[slug]), data, headers=FRAGMENT if fragment else {})


def state_of(client, slug):
    return client.session[STATES_KEY][slug]


def test_there_are_twelve_lessons_in_order_each_with_its_checks():
    assert len(LESSONS) >= 12
    assert [lesson.slug for lesson in LESSONS][:12] == [*SOLUTIONS, "guided-hand"]
    for lesson in PLAYED:
        assert lesson.slug in MISTAKES
        position_game(lesson.position)  # built through the engine: a position breaking a rule fails here


@pytest.mark.parametrize("lesson", PLAYED, ids=lambda lesson: lesson.slug)
def test_each_lesson_is_solved_by_its_intended_move(lesson):
    client = Client()
    intended, words = SOLUTIONS[lesson.slug]
    response = None
    for played in intended:
        response = move(client, lesson.slug, lesson.action, played)
        assert response.status_code == 200
    assert 'class="lesson-feedback is-done"' in response.content.decode()
    assert words in explanation(response)
    assert 'data-testid="next-lesson"' in response.content.decode()
    assert lesson.slug in client.session["lessons_done"]


@pytest.mark.parametrize(
    "slug,played,status,words",
    [(slug, played, status, words) for slug, mistakes in MISTAKES.items() for played, status, words in mistakes],
)
def test_a_wrong_move_is_explained_and_may_be_tried_again(slug, played, status, words):
    lesson = lesson_by_slug(slug)
    client = Client()
    client.get(reverse("lesson", args=[slug]))
    before = state_of(client, slug)["game"]
    response = move(client, slug, lesson.action, played)
    page = response.content.decode()
    assert f'class="lesson-feedback is-{status}"' in page
    assert words in explanation(response)
    # Either way the learner is back at the start: nothing was played, or the position is set up again.
    assert state_of(client, slug)["game"] == before
    assert "lessons_done" not in client.session
    if status == "refused":
        assert 'class="rule-link"' in page  # the engine's refusal links the rule it applies
    else:
        assert "What happened" in page or lesson.until == "action"
    intended, _words = SOLUTIONS[slug]
    for good in intended:
        response = move(client, slug, lesson.action, good)
    assert 'class="lesson-feedback is-done"' in response.content.decode()


def test_the_guided_hand_is_played_to_the_end_with_a_tip_at_each_turn():
    """The learner follows the tips' suggestions (the basic bot's) through the engine; the
    hand ends with its score explained, and an illegal move on the way is refused."""
    client = Client()
    slug = "guided-hand"
    page = client.get(reverse("lesson", args=[slug])).content.decode()
    assert 'data-testid="tip"' in page and "Tip: declare" in page
    refused = move(client, slug, "play", "SA")  # playing during the deal
    assert "This action is not possible now" in explanation(refused)
    turns = 0
    while True:
        game = restore(state_of(client, slug)["game"])
        if guided.is_over(game):
            break
        assert guided.tip(game).startswith("Tip:")
        if game.phase == "last_chance":
            advice = engine.legal_declarations(game, LEARNER)
            response = move(client, slug, "declare" if advice else "pass", " ".join(advice[0]) if advice else "")
        else:
            response = move(
                client, slug, "bury" if game.phase == "bury" else "play", " ".join(guided.advice(game) or [])
            )
        assert 'is-refused"' not in response.content.decode()
        turns += 1
        assert turns < 60
    assert game.result is not None
    assert "The defenders scored" in explanation(response)
    assert slug in client.session["lessons_done"]


def test_without_javascript_cards_are_picked_by_posts_and_the_page_is_shown_again():
    client = Client()
    url = reverse("lesson", args=["cards-and-points"])
    hand = engine.view(position_game(lesson_by_slug("cards-and-points").position), LEARNER)["hand"]
    response = client.post(url, {"toggle": str(hand.index("SK"))})
    assert response.status_code == 302 and response["Location"] == url
    assert 'data-card="SK" aria-pressed="true"' in client.get(url).content.decode()
    client.post(url, {"op": "play"})
    page = client.get(url)
    assert "adds 10 points" in explanation(page)


def test_bad_input_is_refused_and_changes_nothing():
    client = Client()
    slug = "pairs"
    client.get(reverse("lesson", args=[slug]))
    before = state_of(client, slug)["game"]
    for data in ({"op": "cheat"}, {"op": "play", "cards": ["XX"]}, {"op": "play", "cards": ["BJK"]}, {"toggle": "99"}):
        client.post(reverse("lesson", args=[slug]), data, headers=FRAGMENT)
        assert state_of(client, slug)["game"] == before
    assert client.get(reverse("lesson", args=["no-such-lesson"])).status_code == 404
    response = client.post(reverse("lesson", args=[slug]), {"op": "play", "cards": ["XX"]}, headers=FRAGMENT)
    assert "Malformed action" in explanation(response)


@pytest.mark.parametrize("lesson", PLAYED, ids=lambda lesson: lesson.slug)
def test_a_lesson_shows_only_cards_the_learner_may_see(lesson):
    """RULES §9: the learner's hand, the cards played or declared, the showcase; never the
    other hands nor a kitty the learner did not pick up."""
    page = Client().get(reverse("lesson", args=[lesson.slug])).content.decode()
    shown = re.findall(r'data-card="([A-Z0-9]+)"', page)
    position = lesson.position
    allowed = cards(position.hands[LEARNER]) + [c for _seat, played in position.trick for c in cards(played)]
    allowed += [c for _seat, shown_cards in position.declared for c in cards(shown_cards)]
    allowed += cards(lesson.showcase[1]) if lesson.showcase else []
    assert not set(shown) - set(allowed), f"shown but hidden: {set(shown) - set(allowed)}"


def test_progress_of_an_account_is_kept_and_shown_on_the_learn_page():
    user = make_user("learner")
    client = Client()
    client.force_login(user)
    move(client, "cards-and-points", "play", "SK")
    assert LessonProgress.objects.filter(user=user, lesson="cards-and-points").exists()
    page = client.get(reverse("learn")).content.decode()
    assert page.count('data-testid="lesson"') == len(LESSONS)
    assert "1 of 12 lessons done" in page
    assert "Continue with lesson 2: Trumps and their order" in page
    move(client, "cards-and-points", "play", "SK")  # done again: still one record
    assert LessonProgress.objects.filter(user=user).count() == 1


def test_a_visitors_progress_is_kept_in_the_session_and_merged_at_login():
    client = Client()
    move(client, "cards-and-points", "play", "SK")
    move(client, "trumps", "play", "S2")
    assert "2 of 12 lessons done" in client.get(reverse("learn")).content.decode()
    user = make_user("returning")
    LessonProgress.objects.create(user=user, lesson="trumps")  # done before, on another device
    response = client.post(reverse("login"), {"username": "returning", "password": "a-long-test-pass-1"})
    assert response.status_code == 302
    assert set(LessonProgress.objects.filter(user=user).values_list("lesson", flat=True)) == {
        "cards-and-points",
        "trumps",
    }
    assert "Continue with lesson 3" in client.get(reverse("learn")).content.decode()
    assert "lessons_done" not in client.session  # moved, not kept twice
    assert "0 of 12 lessons done" in Client().get(reverse("learn")).content.decode()  # another visitor


def test_a_lesson_speaks_chinese():
    client = Client()
    client.cookies["django_language"] = "zh-hans"
    response = move(client, "cards-and-points", "play", "H9")
    assert explanation(response).startswith("你手里还有 ♠：必须跟 ♠")
    assert 'lang="zh-hans"' in client.get(reverse("lesson", args=["cards-and-points"])).content.decode()


def test_each_lesson_links_its_section_of_the_rules_page():
    client = Client()
    for lesson in LESSONS:
        page = client.get(reverse("lesson", args=[lesson.slug])).content.decode()
        assert f'href="{reverse("rules")}#' in page


def test_a_lesson_changed_since_the_session_kept_it_starts_afresh():
    client = Client()
    slug = "pairs"
    move(client, slug, "play", "D4 D4")
    session = client.session
    states = session[STATES_KEY]
    states[slug] = {**states[slug], "key": 0, "game": {"broken": True}}  # made for an older lesson
    session[STATES_KEY] = states
    session.save()
    page = client.get(reverse("lesson", args=[slug])).content.decode()
    assert 'data-testid="feedback"' not in page and 'data-card="DK"' in page


def test_a_visitors_progress_goes_with_them_when_they_register():
    client = Client()
    move(client, "cards-and-points", "play", "SK")
    response = client.post(
        reverse("register"),
        {"username": "newcomer", "password1": "a-long-test-pass-1", "password2": "a-long-test-pass-1", "email": ""},
    )
    assert response.status_code == 302
    user = type(response.wsgi_request.user).objects.get(username="newcomer")
    assert list(LessonProgress.objects.filter(user=user).values_list("lesson", flat=True)) == ["cards-and-points"]


def test_a_guest_keeps_lessons_in_the_account_and_after_registering():
    """A guest is a logged-in user: their progress is theirs, and stays when the guest
    registers (the same row)."""
    from accounts.guests import guest_create

    guest = guest_create(ip="203.0.113.9")
    client = Client()
    client.force_login(guest)
    move(client, "trumps", "play", "D7")
    assert LessonProgress.objects.filter(user=guest, lesson="trumps").exists()
    client.post(
        reverse("register"),
        {"username": "was_a_guest", "password1": "a-long-test-pass-1", "password2": "a-long-test-pass-1", "email": ""},
    )
    guest.refresh_from_db()
    assert guest.username == "was_a_guest"
    assert "1 of 12 lessons done" in client.get(reverse("learn")).content.decode()
