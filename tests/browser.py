"""The browser tests' fixtures and helpers (a pytest plugin, loaded by tests/conftest.py):
one live server and one chromium per xdist worker, a fresh browser context for each test.

- `server`: the URL of a `manage.py runserver` process (daphne; it serves /static/ in DEBUG)
  against the worker's test database and Redis database. It is started at the worker's
  first test that asks for it and lives until the worker ends; a module that needs other
  settings in the server marks itself `@pytest.mark.server_env(NAME="value", …)` and gets a
  server of its own kind, kept as long. The test's cache keys are the server's; between
  tests the database is emptied (the tests are transactional) and those keys (throttles,
  rate limits, presence, the event pages' stamps) are removed.
- `browser`: the worker's chromium (Playwright). Each test opens its own contexts; whatever
  it left open is closed after it.

Tests that must own a server (the production stack, faults, multi-host, two processes
sharing a table) start their own (tests/servers.py).
"""

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from django.contrib.auth import get_user_model
from django.db import connection, connections

from games import engine
from games.models import Table
from tests.conftest import session_id
from tests.servers import free_port, test_database_url, wait_listening

ROOT = Path(__file__).resolve().parents[1]
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
# The cache keys of the worker's live servers and of the browser test running: one
# namespace, as on a site whose processes share Redis (a stamp the test bumps is the one the
# server reads). Emptied after each test.
CACHE_PREFIX = f"browser-{WORKER}-{os.getpid()}"
APPLICATION_NAME = CACHE_PREFIX  # the live servers' database sessions, by name
SHOTS = ROOT / "artifacts" / "screenshots"  # gitignored
PASSWORD = "a-long-test-pass-1"
TIMEOUT_MS = 30_000
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The decks of every table a browser test looks at, in the server and in the test process:
# the same deals each run (a layout that fails on some deal fails on every run).
DECK_SEED = "browser"
# What every browser test's server runs with: a quick deal's lead-in, Play now dealing at
# the create form's "fast" pace, bots without a pause, and no next hand by itself (the tests
# start it, or press Ready).
SERVER_ENV = {
    "GAMES_DECK_SEED": DECK_SEED,
    "DEBUG": "1",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "GAMES_DEAL_LEAD_IN_MS": "300",
    "GAMES_DEAL_PACE_MS": "75",
    "GAMES_BOT_DELAY_MS": "0",
    "GAMES_NEXT_HAND_DELAY_MS": "600000",
    "PYTHONUNBUFFERED": "1",
}


# manage.py, with every thread's stack printed on SIGUSR1 (LiveServer.dump).
DUMPABLE = (
    "import faulthandler, runpy, signal, sys; faulthandler.register(signal.SIGUSR1, all_threads=True); "
    "sys.argv[0] = 'manage.py'; runpy.run_path('manage.py', run_name='__main__')"
)


class LiveServer:
    """One runserver process with `env` over SERVER_ENV."""

    def __init__(self, number: int, env: dict[str, str]):
        self.name = f"browser-server-{WORKER}-{number}"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = ROOT / "artifacts" / f"{self.name}.log"
        self.log_path.parent.mkdir(exist_ok=True)
        self.log = open(self.log_path, "w")  # noqa: SIM115 (the server's whole life)
        self.process = subprocess.Popen(
            [sys.executable, "-c", DUMPABLE, "runserver", f"127.0.0.1:{self.port}", "--noreload"],
            cwd=ROOT,
            env={
                **os.environ,
                **SERVER_ENV,
                **env,
                "DATABASE_URL": test_database_url(APPLICATION_NAME),
                "CACHE_KEY_PREFIX": CACHE_PREFIX,
            },
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_listening(self.port, self.process, f"the live server (see {self.log_path})")

    def dump(self, path: Path) -> None:
        """What the server was doing when a test failed: every thread's stack (it prints them
        on SIGUSR1) and its database sessions, in `path`."""
        written = self.log_path.stat().st_size
        self.process.send_signal(signal.SIGUSR1)
        time.sleep(0.5)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, state, wait_event_type, wait_event, now() - xact_start, left(query, 300)"
                " FROM pg_stat_activity WHERE application_name = %s ORDER BY pid",
                [APPLICATION_NAME],
            )
            sessions = "\n".join(" | ".join(map(str, row)) for row in cursor.fetchall())
        with open(self.log_path) as log:
            log.seek(written)
            stacks = log.read()
        path.write_text(f"{self.name}'s database sessions:\n{sessions}\n\n{self.name}'s threads:\n{stacks}")

    def stop(self) -> None:
        self.process.kill()  # nothing of it outlives the run: no graceful close to wait for
        self.process.wait()
        self.log.close()


@pytest.fixture(scope="session")
def live_servers(django_db_setup, django_db_blocker):
    """The worker's live servers by their settings, started when first asked for; stopped
    (and their database sessions gone) before the test database is dropped."""
    servers: dict[tuple, LiveServer] = {}
    yield servers
    for live in servers.values():
        live.stop()
    with django_db_blocker.unblock():
        _wait_for_sessions_to_end()


def _wait_for_sessions_to_end(timeout: float = 10.0) -> None:
    """The test database is dropped after the run: the killed servers' sessions must be gone
    (PostgreSQL ends them once it reads the closed socket)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APPLICATION_NAME])
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(0.05)


def forget_cache() -> None:
    """Remove the browser tests' cache keys: one test's throttles and presence are not the next's."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    keys = list(client.scan_iter(match=f"{CACHE_PREFIX}:*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def server(request, live_servers, transactional_db, settings):
    """The URL of the worker's live server for this test's `server_env` marker; the test's
    own cache keys join the server's."""
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        pytest.skip("the browser tests need DATABASE_URL=postgres://… (a second process shares the test DB)")
    if not os.environ.get("REDIS_URL"):
        pytest.skip("the browser tests need REDIS_URL (the server process and the test share it)")
    marker = request.node.get_closest_marker("server_env")
    env = dict(marker.kwargs) if marker else {}
    key = tuple(sorted(env.items()))
    if key not in live_servers:
        live_servers[key] = LiveServer(len(live_servers), env)
    live = live_servers[key]
    assert live.process.poll() is None, f"the live server exited; see {live.log_path}"
    settings.CACHES = {"default": {**settings.CACHES["default"], "KEY_PREFIX": CACHE_PREFIX}}
    yield live.url
    if request.node.stash.get(FAILED, False):
        live.dump(failure_path(request.node.name, "server.txt"))
    forget_cache()


@pytest.fixture(autouse=True)
def browser_test_settings(request, settings, fast_and_isolated):
    """Users of a browser test log in through the live server, which checks passwords with the
    project's own hashers: create them with those, not the tests' fast one. Tables the test
    itself deals deal as the server does."""
    if request.node.get_closest_marker("browser"):
        from django.conf import global_settings

        settings.PASSWORD_HASHERS = global_settings.PASSWORD_HASHERS
        marker = request.node.get_closest_marker("server_env")
        settings.GAMES_DECK_SEED = (marker and marker.kwargs.get("GAMES_DECK_SEED")) or DECK_SEED


class Chromium:
    """The worker's chromium under Playwright's sync API.

    That API runs its event loop in this thread and marks it as running while a browser test
    uses it; between tests the mark is taken away, so that the next test's fixtures (and
    async tests) see no running loop, as before any browser was opened."""

    def __init__(self):
        self.playwright = self.browser = self.loop = None

    def open(self):
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
            if not Path(executable).exists():
                pytest.skip(f"no chromium at {executable}")
            self.playwright = sync_playwright().start()
            self.loop = asyncio.get_running_loop()
            self.browser = self.playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        else:
            asyncio._set_running_loop(self.loop)  # as Playwright's own sync calls leave it
        return self.browser

    def release(self) -> None:
        """After a test: close what it left open, and lift the running loop's mark."""
        if self.browser is None:
            return
        for context in list(self.browser.contexts):
            context.close()
        asyncio._set_running_loop(None)

    def close(self) -> None:
        if self.browser is not None:
            asyncio._set_running_loop(self.loop)
            self.browser.close()
            self.playwright.stop()
            self.playwright = self.browser = self.loop = None


@pytest.fixture(scope="session")
def chromium():
    pytest.importorskip("playwright.sync_api")
    one = Chromium()
    yield one
    one.close()


def pytest_addoption(parser):
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="write the browser tests' pictures of the pages to artifacts/screenshots/ (to look at)",
    )


def pytest_configure(config):
    global TAKE_SCREENSHOTS
    TAKE_SCREENSHOTS = config.getoption("--screenshots")


TAKE_SCREENSHOTS = False


def screenshot(target, path: Path, **options) -> None:
    """A picture of a page or an element at `path`, for people to look at, taken only with
    `--screenshots`: a picture checks nothing, and it costs a page sweep a fifth of its time.
    One image pixel per CSS pixel, a phone's too. (A failed test's pages are always taken.)"""
    if TAKE_SCREENSHOTS:
        path.parent.mkdir(parents=True, exist_ok=True)
        target.screenshot(scale="css", path=str(path), **options)


FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
    return report


class SocketLog:
    """Every websocket frame of every page a test opens, kept in case the test fails: a page
    that waits in vain shows nothing of what it sent and what it was told."""

    FRAME_CHARS = 300  # a state's HTML is long; its start says which state it was

    def __init__(self):
        self.frames: dict = {}  # page → [(seconds, socket's path, "sent" | "received" | …, text)]
        self.started = time.monotonic()

    def watch(self, context) -> None:
        context.on("page", self._watch_page)

    def _watch_page(self, page) -> None:
        frames = self.frames.setdefault(page, [])

        def on_socket(socket):
            where = urlsplit(socket.url).path

            def note(direction, payload=""):
                text = payload if isinstance(payload, str) else repr(payload)
                frames.append((time.monotonic() - self.started, where, direction, text[: self.FRAME_CHARS]))

            note("opened")
            socket.on("framesent", lambda payload: note("sent", payload))
            socket.on("framereceived", lambda payload: note("received", payload))
            socket.on("close", lambda _: note("closed"))

        page.on("websocket", on_socket)

    def write(self, page, path: Path) -> None:
        frames = self.frames.get(page, ())
        lines = (f"{at:8.3f} {where} {direction:8} {text}" for at, where, direction, text in frames)
        path.write_text("\n".join(lines) + "\n")


def shoot_open_pages(browser, test_name: str, sockets: SocketLog) -> None:
    """What every page still open showed when the test failed, and its websockets' frames
    (artifacts/screenshots/failed/; the `server` fixture adds what the server was doing)."""
    from playwright.sync_api import Error as PlaywrightError

    for c, context in enumerate(browser.contexts):
        for p, page in enumerate(context.pages):
            sockets.write(page, failure_path(test_name, f"{c}-{p}.frames.txt"))
            with contextlib.suppress(PlaywrightError):  # a page that cannot be drawn says nothing
                page.screenshot(scale="css", path=str(failure_path(test_name, f"{c}-{p}.png")), timeout=5000)


def failure_path(test_name: str, what: str) -> Path:
    folder = SHOTS / "failed"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{re.sub(r'\W+', '-', test_name)}-{what}"


@pytest.fixture
def browser(request, chromium, monkeypatch):
    # The test's ORM reads (its oracle) are plain sync calls between page actions, made
    # while Playwright's loop is marked as running.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    opened = chromium.open()
    sockets = SocketLog()
    new_context = opened.new_context

    def new_watched_context(**options):
        context = new_context(**options)
        sockets.watch(context)
        return context

    monkeypatch.setattr(opened, "new_context", new_watched_context)
    try:
        yield opened
    finally:
        if request.node.stash.get(FAILED, False):
            shoot_open_pages(chromium.browser, request.node.name, sockets)
        # ORM reads made while Playwright's loop runs get their own connection (the
        # context differs): close it while that is still the context, so that the test
        # database can be emptied and, at the end, dropped.
        connections.close_all()
        chromium.release()


# --- helpers of the browser tests ----------------------------------------------------


def oracle(table_id):
    table = Table.objects.get(pk=table_id)
    return table, (engine.Game.from_json(table.state) if table.state else None)


def wait_for(predicate, table_id, timeout=30.0, what="the table"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        table, game = oracle(table_id)
        if game is not None and predicate(table, game):
            return table, game
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen in {timeout}s (phase {game and game.phase})")


def at_version(page, version):
    page.wait_for_selector(f'#table[data-version="{version}"]', state="attached", timeout=TIMEOUT_MS)


PRESSED = "() => document.querySelectorAll('#hand .card-btn[aria-pressed=\"true\"]').length"


PRESSED_CODES = """() => Array.from(document.querySelectorAll('#hand .card-btn[aria-pressed="true"]'))
  .map((b) => b.dataset.card)"""


def click_cards(page, cards, *, tap=False):
    """Select cards one by one, as a person does: each rises before the next is touched."""
    for code in cards:
        toggle_card(page, code, pressed=False, tap=tap)


def toggle_card(page, code, *, pressed, tap=False):
    """Touch one card of the hand that is (or is not) `pressed`, and check that this card,
    and no other, changed. A finger goes to the card's open left edge: the next card covers
    the rest, its centre included (a tap there would take the neighbour)."""
    before = Counter(page.evaluate(PRESSED_CODES))
    button = page.locator(f'#hand .card-btn[data-card="{code}"][aria-pressed="{str(pressed).lower()}"]').first
    where = {"x": 8, "y": button.bounding_box()["height"] * 0.6}
    button.tap(position=where) if tap else button.click(position=where)
    page.wait_for_function(f"n => ({PRESSED})() !== n", arg=before.total(), timeout=3000)
    expected = before - Counter([code]) if pressed else before + Counter([code])
    assert Counter(page.evaluate(PRESSED_CODES)) == expected, f"touching {code} changed other cards"


def log_in(context, base, username, watch=None):
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    if watch is not None:
        watch.add(page, username)
    page.goto(f"{base}/accounts/login/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password"]', PASSWORD)
    page.click('main button[type="submit"]')
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    return page


def logged_in_context(browser, base, username, **options):
    """A new browser context (`options`) where `username` is logged in, by a session that
    Django's test client opened (the live server shares its database). A sweep opens a
    context per window and language; the login page has tests of its own."""
    context = browser.new_context(**options)
    user = get_user_model().objects.get(username=username)
    context.add_cookies([{"name": "sessionid", "value": session_id(user), "url": base}])
    return context


def in_a_thread(function, **kwargs):
    """A write-path call made outside Playwright's event loop (it sends group messages)."""

    def call():
        try:
            return function(**kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()
