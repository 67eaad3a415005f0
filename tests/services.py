"""A PostgreSQL cluster and a Redis server of a test's own, on free ports in a temporary
directory, that the test may stop and restart (the machine's shared services on 5432 and
6379 are never touched). PostgreSQL refuses to run as root: as root, its programs run as
the `postgres` OS user, in a directory it owns."""

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.servers import free_port, wait_listening

PG_USER = "postgres"


def _as_postgres(command: list[str]) -> list[str]:
    program = shutil.which(command[0]) or _debian_program(command[0])
    command = [program, *command[1:]]
    return ["runuser", "-u", PG_USER, "--", *command] if os.geteuid() == 0 else command


def _debian_program(name: str) -> str:
    """Debian keeps initdb and pg_ctl off the PATH, in /usr/lib/postgresql/<version>/bin."""
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: int(p.parts[-3]))
    if not found:
        raise RuntimeError(f"{name} not found (apt-get install postgresql)")
    return str(found[-1])


class OwnPostgres:
    """`initdb` + `pg_ctl`: a throwaway cluster trusting local connections."""

    def __init__(self):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="doubleup-pg-"))
        self.data = self.dir / "data"
        if os.geteuid() == 0:
            account = pwd.getpwnam(PG_USER)
            os.chown(self.dir, account.pw_uid, account.pw_gid)
        self._run(["initdb", "-D", str(self.data), "-U", PG_USER, "--auth=trust", "-E", "UTF8", "--no-sync"])

    def _run(self, command: list[str]) -> None:
        subprocess.run(_as_postgres(command), check=True, capture_output=True, timeout=120)

    def url(self, name: str = "postgres") -> str:
        return f"postgres://{PG_USER}@127.0.0.1:{self.port}/{name}"

    def start(self) -> "OwnPostgres":
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run(["pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"), "-w", "start"])
        return self

    def stop(self, mode: str = "fast") -> None:
        """fast: roll back open transactions and close every connection (what a restart does)."""
        self._run(["pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop"])

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # not running
            self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


class OwnRedis:
    """A redis-server in the foreground, without persistence (a restart empties it)."""

    def __init__(self):
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="doubleup-redis-"))
        self.process = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> "OwnRedis":
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self.dir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wait_listening(self.port, self.process, "redis-server")
        return self

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def destroy(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
