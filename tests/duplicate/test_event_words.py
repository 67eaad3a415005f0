"""Every sentence an event's refusal can show is in both languages."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

pytestmark = pytest.mark.events

SOURCES = (
    "games/duplicate/service.py",
    "games/runtime/seating.py",
    "games/runtime/play.py",
    "games/web/event_views.py",
)
MARKED = re.compile(r'(?:gettext_noop|_)\(\s*"((?:[^"\\]|\\.)+)"')


def sentences():
    for source in SOURCES:
        yield from MARKED.findall((Path(settings.BASE_DIR) / source).read_text())


@pytest.mark.parametrize("sentence", sorted(set(sentences())))
def test_the_sentence_has_a_chinese_translation(sentence):
    with translation.override("zh-hans"):
        assert translation.gettext(sentence) != sentence
