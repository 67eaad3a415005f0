"""The README's serve command runs on the embedded defaults: SQLite and the in-memory channel
layer. The rest of the suite runs on PostgreSQL, where a statement SQLite cannot run (a
PostgreSQL-only function, say) would pass unnoticed; so a separate process builds the page
tests' site (tests/pages_data.py: a hand played through the write path, ratings, tables in
every state) on a SQLite file and answers every page around the table with 200.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
from django.core.management import call_command
from django.test import Client
from django.conf import settings

assert settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"), settings.DATABASES["default"]["ENGINE"]
call_command("migrate", verbosity=0)
from tests.pages_data import build_site, pages_of

site = build_site("pages-on-sqlite")
for who, pages in pages_of(site).items():
    client = Client()
    if who:
        client.force_login(site["moderator"] if who == "moderator" else site["people"][who])
    for name, path in pages:
        print(name, client.get(path).status_code, flush=True)
"""


def test_every_page_answers_on_the_embedded_sqlite_defaults(tmp_path):
    env = {name: value for name, value in os.environ.items() if name not in ("DATABASE_URL", "REDIS_URL")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'site.sqlite3'}"  # the default file, somewhere of its own
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    answers = dict(line.rsplit(" ", 1) for line in result.stdout.split("\n") if line.strip())
    assert len(answers) >= 20, result.stdout
    assert {name: code for name, code in answers.items() if code != "200"} == {}
