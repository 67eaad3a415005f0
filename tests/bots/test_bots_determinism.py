"""Bots decide the same in every process: nothing they choose depends on the order of a
set of strings, which Python randomises per process (PYTHONHASHSEED). botmatch runs are
then repeatable, and a bot's live move does not depend on which server made it."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

SCRIPT = """
import random
from games import engine
from games.bots.match import fresh_hand, play_hand
out = []
for i in range(4):
    game = fresh_hand(f"det-{i}", dealer=i, level="2")
    result = play_hand(game, ["basic", "novice", "basic", "random"], random.Random(i))
    out.append((result["defenders_score"], [t["plays"] for t in game.tricks]))
print(repr(out))
"""


def _run(hash_seed):
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=Path(settings.BASE_DIR),
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bot_play_does_not_depend_on_the_hash_seed():
    assert _run(1) == _run(2) == _run(3)
