"""Real server processes (daphne) for multi-process and restart tests, and websocket
clients that talk to them over loopback."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_database_url() -> str:
    db = settings.DATABASES["default"]
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class Server:
    """One daphne process serving config.asgi against the pytest test database."""

    def __init__(self, port: int | None = None, **env):
        self.port = port or free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
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
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.process.stderr.read().decode()[-2000:]}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start listening")

    def kill(self):
        if self.process and self.process.poll() is None:
            self.process.kill()  # no graceful shutdown: this is what a crash looks like
            self.process.wait(10)

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


class LiveClient:
    """A websocket client over loopback that keeps every message it received."""

    def __init__(self, connection):
        self.connection = connection
        self.received: list[dict] = []
        self.reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, server: Server, path: str, cookie: bytes) -> "LiveClient":
        from websockets.asyncio.client import connect

        connection = await connect(
            server.url(path),
            origin=f"http://127.0.0.1:{server.port}",
            additional_headers={"Cookie": cookie.decode()},
            open_timeout=10,
        )
        return cls(connection)

    async def _read(self):
        try:
            async for raw in self.connection:
                self.received.append(json.loads(raw))
        except Exception:
            pass  # the server went away; the test decides what that means

    async def send(self, payload: dict):
        await self.connection.send(json.dumps(payload))

    async def wait_for(self, predicate, timeout=10.0) -> dict:
        deadline = asyncio.get_running_loop().time() + timeout
        seen = 0
        while asyncio.get_running_loop().time() < deadline:
            for message in self.received[seen:]:
                if predicate(message):
                    return message
            seen = len(self.received)
            await asyncio.sleep(0.01)
        raise AssertionError("expected message did not arrive")

    async def close(self):
        await self.connection.close()
        self.reader.cancel()
