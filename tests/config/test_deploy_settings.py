"""Production settings: `check --deploy` passes with config/production.env.example, the
example lists every variable the code reads, and every response carries the security
headers (CSP with a nonce, Permissions-Policy)."""

import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "config/production.env.example"

# Where the site and its stack read their environment: the settings, the stack's process
# list and start script, and the apps (which, today, read none directly).
READERS = ["config/**/*.py", "config/stack/run", "games/**/*.py", "accounts/**/*.py"]
READS = [
    r'os\.environ\.get\(\s*"(\w+)"',
    r'os\.environ\[\s*"(\w+)"\s*\]',
    r'os\.getenv\(\s*"(\w+)"',
    r'env_(?:bool|list)\(\s*"(\w+)"',
    r'\benv\.setdefault\(\s*"(\w+)"',  # what the stack sets for its children (MALLOC_ARENA_MAX)
    r'os\.environ\.setdefault\(\s*"(\w+)"',
    r"\$\{(\w+)[:}]",  # the shell script
]
# Read, but no operator's to set, so not in the example; each with its reason.
NOT_FOR_OPERATORS = {
    "DJANGO_SETTINGS_MODULE": "manage.py and config/asgi.py name this project's settings module themselves",
}


def example_environment() -> dict[str, str]:
    """The example file as a shell would load it, with a real secret key."""
    script = f"set -a; . {shlex.quote(str(EXAMPLE))}; env -0"
    dumped = subprocess.run(["bash", "-c", script], capture_output=True, check=True, env={}).stdout
    env = dict(item.split("=", 1) for item in dumped.decode().split("\0") if "=" in item)
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def variables_read() -> set[str]:
    names = set()
    for pattern in READERS:
        for path in ROOT.glob(pattern):
            text = path.read_text()
            names.update(name for read in READS for name in re.findall(read, text))
    return names


def example_blocks() -> list[list[str]]:
    """The example's lines in blocks (separated by blank lines)."""
    blocks: list[list[str]] = [[]]
    for line in EXAMPLE.read_text().splitlines():
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


def example_variables() -> dict[str, bool]:
    """Each variable the example assigns → whether a comment leads its block."""
    found = {}
    for block in example_blocks():
        commented = block[0].startswith("#")
        for line in block:
            match = re.match(r"([A-Za-z_]\w*)=", line)
            if match:
                found[match.group(1)] = commented
    return found


def test_the_example_lists_and_explains_every_variable_the_site_and_the_stack_read():
    read = variables_read()
    # The scan itself finds each kind of read (a settings value, a flag, the stack's own,
    # one the stack sets for its children, one of the shell script's).
    assert {"GAMES_ABANDON_AFTER_S", "BEHIND_TLS_PROXY", "STACK_LISTEN", "MALLOC_ARENA_MAX", "SECRET_KEY"} <= read
    listed = example_variables()
    missing = read - set(listed) - set(NOT_FOR_OPERATORS)
    assert not missing, f"config/production.env.example lacks {sorted(missing)}"
    assert not set(listed) - read, "the example lists variables nothing reads"
    assert all(listed.values()), f"uncommented: {[name for name, commented in listed.items() if not commented]}"
    assert set(NOT_FOR_OPERATORS) <= read  # no stale exception


def deploy_check(env: dict[str, str]) -> subprocess.CompletedProcess:
    base = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_documented_production_environment_passes_the_deploy_check():
    env = example_environment()
    assert env["DEBUG"] == "0" and env["DEFAULT_FROM_EMAIL"] == "Double Up <noreply@play.example.org>"
    result = deploy_check(env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_debug_off_without_that_environment_fails_the_deploy_check():
    result = deploy_check({"DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(50), "SECURE_SSL_REDIRECT": "0"})
    assert result.returncode != 0
    assert "security.W008" in result.stderr + result.stdout and "mail.E001" in result.stderr + result.stdout


def test_a_fixed_deck_seed_fails_the_deploy_check():
    result = deploy_check({**example_environment(), "GAMES_DECK_SEED": "layout272"})
    assert result.returncode != 0 and "games.E001" in result.stderr + result.stdout


def test_pages_carry_a_nonce_policy_and_the_inline_script_its_nonce(client, db):
    """Scripts come from the site itself; an inline script would need the request's nonce
    (the policy names one only when a page uses it). The lobby's live list now runs from a
    static file (static/js/lobby-socket.js), so the lobby has no inline script at all."""
    response = client.get(reverse("lobby"))
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    html = response.content.decode()
    assert '<script src="/static/js/lobby-socket.js"' in html
    nonce = re.search(r"'nonce-([^']+)'", policy)
    inline = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", html)
    assert all(nonce and f'nonce="{nonce.group(1)}"' in attributes for attributes in inline)
    assert "camera=()" in response.headers["Permissions-Policy"]
