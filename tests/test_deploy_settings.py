"""Production settings: `check --deploy` passes with config/production.env.example, and
every response carries the security headers (CSP with a nonce, Permissions-Policy)."""

import os
import re
import secrets
import shlex
import subprocess
import sys
from pathlib import Path

from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent


def example_environment() -> dict[str, str]:
    """The example file as a shell would load it, with a real secret key."""
    script = f"set -a; . {shlex.quote(str(ROOT / 'config/production.env.example'))}; env -0"
    dumped = subprocess.run(["bash", "-c", script], capture_output=True, check=True, env={}).stdout
    env = dict(item.split("=", 1) for item in dumped.decode().split("\0") if "=" in item)
    env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


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
