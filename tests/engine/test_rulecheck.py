"""manage.py rulecheck over the shared rule cases and ours (rules-cases/README.md)."""

import json
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.core.management import call_command

SHARED = Path(settings.BASE_DIR).parent / "shared" / "rules-cases"
OURS = Path(settings.BASE_DIR) / "tests" / "rules_cases"


def run(*paths):
    out = []

    class W:
        def write(self, s):
            out.append(s)

        def flush(self):
            pass

    code = 0
    try:
        call_command("rulecheck", *map(str, paths), stdout=W())
    except SystemExit as e:
        code = e.code
    return code, "".join(out)


def test_shared_cases_all_pass():
    assert SHARED.is_dir()
    code, out = run(SHARED)
    last = out.strip().splitlines()[-1]
    assert last.startswith("rulecheck: ") and last.endswith(" 0 failed"), out
    assert int(last.split()[1]) >= 100 and code == 0


def test_our_cases_all_pass():
    code, out = run(OURS)
    last = out.strip().splitlines()[-1]
    assert last.endswith(" 0 failed") and int(last.split()[1]) >= 20, out
    assert code == 0


def test_wrong_and_unknown_cases_fail(tmp_path):
    cases = [
        {
            "id": "wrong-winner",
            "kind": "trick",
            "level": "7",
            "trump": "H",
            "plays": [[0, ["SK"]], [1, ["SA"]], [2, ["S3"]], [3, ["D5"]]],
            "expect": {"winner": 0, "points": 15},
        },
        {"id": "no-such-kind", "kind": "teleport", "expect": {}},
        {"id": "crash", "kind": "order", "level": "7", "trump": "H", "cards": ["ZZ"], "expect": ["ZZ"]},
        {"id": "right", "kind": "order", "level": "7", "trump": "H", "cards": ["S3", "BJK"], "expect": ["BJK", "S3"]},
    ]
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(cases))
    code, out = run(f)
    lines = out.strip().splitlines()
    assert lines[-1] == "rulecheck: 1 passed, 3 failed"
    assert code != 0
    assert any("wrong-winner" in line and '"winner": 1' in line for line in lines)
    assert any("no-such-kind" in line and "unknown kind" in line for line in lines)
    assert any("crash" in line and "error" in line for line in lines)


def test_command_line_exit_status(tmp_path):
    f = tmp_path / "one.json"
    f.write_text(
        json.dumps(
            [
                {
                    "id": "bad",
                    "kind": "result",
                    "dealer": 0,
                    "levels": {"0": "5", "1": "3"},
                    "defenders_score": 0,
                    "expect": {"levels": {"0": "6", "1": "3"}, "next_dealer": 2, "winner": None},
                }
            ]
        )
    )
    root = Path(settings.BASE_DIR)
    p = subprocess.run([sys.executable, "manage.py", "rulecheck", str(f)], cwd=root, capture_output=True, text=True)
    assert p.returncode == 1
    assert p.stdout.strip().splitlines()[-1] == "rulecheck: 0 passed, 1 failed"
    p = subprocess.run(
        [sys.executable, "manage.py", "rulecheck", str(SHARED)], cwd=root, capture_output=True, text=True
    )
    assert p.returncode == 0, p.stdout + p.stderr
