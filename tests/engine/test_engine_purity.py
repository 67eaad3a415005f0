"""The engine is pure Python: no Django anywhere in games/engine (house style)."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def engine_modules():
    return sorted(p.stem for p in ENGINE.glob("*.py") if p.stem != "__init__")


def test_no_django_import_in_source():
    for path in ENGINE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] == "django" for n in names), (path.name, names)


def test_importing_every_module_loads_no_django():
    mods = ["games.engine"] + [f"games.engine.{m}" for m in engine_modules()]
    code = (
        "import sys, importlib\n"
        f"for m in {mods!r}: importlib.import_module(m)\n"
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "print(len(bad)); assert not bad, bad\n"
    )
    root = ENGINE.parent.parent
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0"
    assert len(mods) >= 10
