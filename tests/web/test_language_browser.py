"""One language per page: a logged-in player's account language wins over the device's, for
the page frame and for every region the table's socket pushes (issue #40).

The player logs in on a device whose browser asks for the other language, then chooses
their language elsewhere (their account changes, this device's cookie does not). The table
page they open, and what it shows after a push, are all in the account's language: every
text node sits under one `lang`, and its words are in that language.
"""

import re

import pytest
from django.urls import reverse

from accounts.models import Profile
from games.models import Table
from tests.browser import (
    TIMEOUT_MS,
    at_version,
    log_in,
)
from tests.conftest import make_table, make_user

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

# Every text node of the body with the language it is marked with (its closest `lang`).
TEXT_LANGUAGES = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    if (!text || node.parentElement.closest("script, style")) continue;
    const marked = node.parentElement.closest("[lang]");
    found.push([marked ? marked.lang.toLowerCase() : "", text]);
  }
  return found;
}"""
CJK = r"[\u3400-\u9fff]"
# English text may name a Chinese term in brackets: "Double Up (双升, …)".
# The names in these pages are the players' and the table's (below): no English word in them.
ENGLISH_WORD = r"[A-Za-z]{3,}"
# The language switcher names each language in itself, and the site's name is marked too.
SELF_NAMED = {("en", "English"), ("zh-hans", "简体中文"), ("en", "Double Up online"), ("zh-hans", "/ 双升")}


def out_of_language(marked: str, text: str, language: str) -> bool:
    if (marked, text) in SELF_NAMED:
        return False
    if marked != language:
        return True
    if language == "en":
        return bool(re.search(CJK, re.sub(r"\(.*?\)", "", text)))
    return bool(re.search(ENGLISH_WORD, text))


def words_out_of_language(page, language: str) -> list:
    return [(marked, text) for marked, text in page.evaluate(TEXT_LANGUAGES) if out_of_language(marked, text, language)]


@pytest.fixture
def waiting_table(server):
    """A table with its owner seated (made before Playwright starts: its event loop would
    refuse the write path's sync calls), and a player who is about to sit."""
    owner, player = make_user("p1"), make_user("p2")
    table = make_table(owner, players=[owner])
    Table.objects.filter(pk=table.pk).update(name="T9")
    return table, player


@pytest.mark.parametrize(("account", "device"), [("zh-hans", "en-US"), ("en", "zh-CN")])
def test_the_table_page_and_its_pushes_speak_the_accounts_language(waiting_table, server, browser, account, device):
    table, player = waiting_table
    context = browser.new_context(locale=device, viewport={"width": 1366, "height": 768})
    try:
        page = log_in(context, server, player.username)
        Profile.objects.update_or_create(user=player, defaults={"language": account})  # chosen on another device
        page.goto(server + reverse("table", args=[table.pk]))
        page.wait_for_selector("#conn.online", timeout=TIMEOUT_MS)
        assert page.evaluate("document.documentElement.lang") == account
        page.locator('#players button[data-action="sit"]').first.click()  # the socket pushes the seats
        at_version(page, table.version + 1)
        page.wait_for_selector("#conn.online", timeout=TIMEOUT_MS)
        assert page.locator("#players").get_by_text("p2").count() >= 1, "the push did not seat the player"
        wrong = words_out_of_language(page, account)
        assert wrong == [], wrong
    finally:
        context.close()
