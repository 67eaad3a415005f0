"""Real server processes (daphne) for multi-process and restart tests, and websocket
clients that talk to them over loopback."""

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from xmlrpc.client import Fault

from django.conf import settings

from config.stack import status

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_cache_prefix() -> str:
    """The cache key prefix of the running test (conftest.fast_and_isolated), for a server
    process started by it: its throttles and rate limits count this test's requests only."""
    return settings.CACHES["default"].get("KEY_PREFIX", "")


def test_database_url(application_name: str | None = None) -> str:
    """The test database's URL; its sessions named `application_name`, if given, so that a
    test can find (and count) a server's own among the others."""
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    return f"{url}?application_name={application_name}" if application_name else url


class Server:
    """One daphne process serving config.asgi against the pytest test database."""

    def __init__(self, port: int | None = None, **env):
        self.port = port or free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "CACHE_KEY_PREFIX": server_cache_prefix(),
            "DEBUG": "1",
            "GAMES_DEAL_LEAD_IN_MS": "0",
            "GAMES_BOT_DELAY_MS": "0",
            **env,
        }
        self.process = None

    def start(self) -> "Server":
        self.process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port), "config.asgi:application"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wait_listening(self.port, self.process, "server", timeout=20)
        return self

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()  # no graceful shutdown: this is what a crash looks like
            self.process.wait(10)

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


def wait_listening(port: int, process: subprocess.Popen, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited: {process.stderr.read().decode()[-3000:] if process.stderr else ''}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not start listening")


class Stack:
    """The production stack exactly as `config/stack/run` starts it (config/stack/serve.py:
    supervisord running nginx in front of `processes` table processes and `pages` page
    processes, DEBUG=0), on a free port, against the pytest test database. Static files must
    be collected first (`collectstatic`)."""

    def __init__(self, processes: int = 2, pages: int = 1, **env):
        self.port = free_port()
        self.run_dir = Path(tempfile.mkdtemp(prefix="doubleup-test-stack-"))
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "CACHE_KEY_PREFIX": server_cache_prefix(),
            "SECRET_KEY": settings.SECRET_KEY,  # the sessions the test logs in are signed with it
            "STACK_LISTEN": f"127.0.0.1:{self.port}",
            "STACK_PROCESSES": str(processes),
            "STACK_PAGE_PROCESSES": str(pages),
            "STACK_RUN_DIR": str(self.run_dir),
            "GAMES_DEAL_LEAD_IN_MS": "0",
            "GAMES_BOT_DELAY_MS": "0",
            **env,
        }
        self.env.pop("DEBUG", None)  # the stack's own default: off
        self.process = None

    def start(self) -> "Stack":
        self.process = subprocess.Popen(
            [sys.executable, "config/stack/serve.py"],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.run_dir / "stack.log", "wb"),  # noqa: SIM115 (the child keeps it)
        )
        deadline = time.monotonic() + 40
        while not status.ready(self.run_dir):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the stack did not start: {self.log()[-3000:]}")
            time.sleep(0.1)
        wait_listening(self.port, self.process, "the stack")
        return self

    def log(self) -> str:
        return (self.run_dir / "stack.log").read_text(errors="replace")

    def processes(self) -> dict[str, dict]:
        """name → supervisord's record of that process (pid, statename, group, …)."""
        return status.processes(self.run_dir)

    def upstream_of(self, name: str) -> str:
        """The X-Upstream nginx reports for a request that process `name` served."""
        return f"unix:{self.run_dir / name}.sock"

    def kill(self, name: str, *, for_good: bool = False) -> None:
        """A crash (SIGKILL). supervisord starts the process again at once, unless `for_good`:
        then it is told to leave it stopped, as if its machine were gone."""
        info = self.processes()[name]
        os.kill(info["pid"], signal.SIGKILL)
        while for_good and self.processes()[name]["statename"] != "STOPPED":
            with contextlib.suppress(Fault):  # between its death and its restart: nothing to stop
                status.supervisor(self.run_dir).stopProcess(f"{info['group']}:{name}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()  # supervisord stops every process
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        print(f"--- the stack's log (end) ---\n{self.log()[-4000:]}")  # pytest shows it when a test failed
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


class LiveClient:
    """A websocket client over loopback that keeps every message it received.

    With `reconnect`, it does what static/js/table.js does when its socket drops: connects
    again (backing off) unless the server closed it for good (1009 or a 4xxx code), and
    meanwhile drops what it is asked to send. `upstreams` lists, per connection, which
    server process nginx chose (its X-Upstream header; None without nginx), and
    `connected_at` where in `received` its messages begin."""

    def __init__(self, connection, *, url=None, origin=None, cookie=b"", reconnect=False):
        self.connection = connection
        self.received: list[dict] = []
        self.received_at: list[float] = []  # when each arrived (time.monotonic())
        self.upstreams: list[str | None] = [_upstream(connection)]
        self.connected_at = [0]  # per connection: how many messages came before it
        self.closes: list[int | None] = []
        self._target = (url, origin, cookie)
        self._reconnect = reconnect
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, server, path: str, cookie: bytes, *, reconnect=False) -> "LiveClient":
        """A socket to `server` (a Server or a Stack: anything with `url()` and `port`)."""
        url, origin = server.url(path), f"http://127.0.0.1:{server.port}"
        return cls(await _connect(url, origin, cookie), url=url, origin=origin, cookie=cookie, reconnect=reconnect)

    @property
    def upstream(self) -> str | None:
        return self.upstreams[-1]

    async def _read(self):
        retry = 0
        while True:
            try:
                async for raw in self.connection:
                    self.received.append(json.loads(raw))
                    self.received_at.append(time.monotonic())
            except Exception:
                pass  # the server went away; the test decides what that means
            code = self.connection.close_code
            self.closes.append(code)
            if not self._reconnect or code == 1009 or (code or 0) >= 4000:
                return
            while True:  # as table.js: back off, then try again
                retry = min(retry + 1, 3)
                await asyncio.sleep(0.25 * 2**retry)
                try:
                    self.connection = await _connect(*self._target)
                except Exception:
                    continue
                self.upstreams.append(_upstream(self.connection))
                self.connected_at.append(len(self.received))
                retry = 0
                break

    async def send(self, payload: dict):
        try:
            await self.connection.send(json.dumps(payload))
        except Exception:
            if not self._reconnect:
                raise  # table.js drops what it cannot send while it reconnects

    async def wait_for(self, predicate, timeout=10.0) -> dict:
        deadline = asyncio.get_running_loop().time() + timeout
        seen = 0
        while asyncio.get_running_loop().time() < deadline:
            for message in self.received[seen:]:
                if predicate(message):
                    return message
            seen = len(self.received)
            await asyncio.sleep(0.01)
        last = [(m.get("type"), m.get("version"), m.get("code")) for m in self.received[-3:]]
        raise AssertionError(f"expected message did not arrive (closes {self.closes}, last messages {last})")

    async def close(self):
        self._reconnect = False
        self.reader.cancel()
        await self.connection.close()


async def _connect(url, origin, cookie: bytes):
    from websockets.asyncio.client import connect

    return await connect(url, origin=origin, additional_headers={"Cookie": cookie.decode()}, open_timeout=10)


def _upstream(connection) -> str | None:
    response = getattr(connection, "response", None)
    tried = response.headers.get("X-Upstream") if response is not None else None
    return tried.split(", ")[-1] if tried else None  # nginx lists every process it tried; the last answered
