"""The production stack's process list: N daphne processes behind one nginx, as children.

    python config/stack/supervise.py        (normally through `bash config/stack/run`)

Starts the server processes (each on a unix socket in the run directory), renders
config/stack/nginx.conf for them and starts nginx in the foreground, writes
`processes.json` (name, pid, socket of each child) into the run directory, and waits.
SIGTERM or SIGINT stops everything (SIGTERM to each child, SIGKILL after 10 s); when
nginx exits, everything stops; a server process (or runtables, or the analysis worker) that dies is started again after
STACK_RESTART_DELAY seconds (nginx skips it meanwhile). docs/deployment.md.

Environment (besides the site's own; all of it commented in config/production.env.example):
  STACK_LISTEN         nginx's listen address          (default 127.0.0.1:8000)
  STACK_PROCESSES      daphne processes                (default: one per core)
  STACK_RUN_DIR        sockets, pids, logs, nginx temp (default: a new temporary directory)
  STACK_RUNTABLES      1: also run `manage.py runtables` (all-bot tables with nobody connected)
  STACK_ANALYSIS_WORKER  0: do not run `manage.py analysis_worker` (the hand analyses; default 1)
  STACK_RESTART_DELAY  seconds before a dead server process is started again (default 2)
  STACK_BEHIND_TLS_PROXY  1: TLS ends at a proxy in front, whose X-Forwarded-Proto is passed on
  STACK_TABLE_AFFINITY 0: spread a table's sockets over the processes like every connection
                       (default 1: all on the process the table's path hashes to)
  MALLOC_ARENA_MAX     set to 2 for the children when unset (site_environment, below)
"""

import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
TEMPLATE = Path(__file__).resolve().parent / "nginx.conf"
STOP_GRACE_S = 10.0

# A run on one machine over plain http (no TLS in front): production settings, minus what
# only makes sense over https (a redirect to https, Secure cookies, HSTS pinning the host
# to https in the browser). Whatever the environment sets wins (config/production.env.example).
PLAIN_HTTP_DEFAULTS = {
    "DEBUG": "0",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "SECURE_HSTS_SECONDS": "0",
    "LOGIN_THROTTLE_IP_META": "REMOTE_ADDR",  # daphne reads X-Real-IP (--proxy-headers below)
}


def say(message: str) -> None:
    print(f"stack: {message}", file=sys.stderr, flush=True)


def site_environment() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not env.get(name):
            raise SystemExit(
                f"stack: {name} must be set: several server processes share PostgreSQL (DATABASE_URL) "
                "and Redis (REDIS_URL), e.g. DATABASE_URL=postgres://user@127.0.0.1:5432/doubleup "
                "REDIS_URL=redis://127.0.0.1:6379/0"
            )
    for name, value in PLAIN_HTTP_DEFAULTS.items():
        env.setdefault(name, value)
    # glibc gives threads that allocate their own malloc arenas (up to 8 per core), and the
    # ASGI thread pools' arenas fragment: a server's RSS crept up while its Python heap
    # stayed flat (the soak, docs/performance.md). Two arenas are plenty for one event loop.
    env.setdefault("MALLOC_ARENA_MAX", "2")
    if not env.get("SECRET_KEY"):
        say("SECRET_KEY is not set: using a random one (sessions end when the stack stops)")
        env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def daphne_command(socket_path: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "daphne",
        "-u",
        str(socket_path),
        # After a restart every client reconnects at once (docs/deployment.md).
        "--websocket_connect_timeout",
        "30",
        # The client's address from the header nginx overwrites (never from the client).
        "--proxy-headers",
        "--proxy-headers-host",
        "X-Real-IP",
        "--access-log",
        str(socket_path.with_suffix(".access.log")),
        "config.asgi:application",
    ]


def _workers_user() -> str:
    """Started as root, nginx's workers would run as `nobody` and could not read the static
    files of a checkout in a private directory (a CI clone in a 0700 temp dir): they run as
    the user who started the stack. Otherwise nginx cannot switch users and says nothing."""
    if os.geteuid() != 0:
        return ""
    return f"user {pwd.getpwuid(os.geteuid()).pw_name};"


def render_nginx(run_dir: Path, sockets: list[Path], listen: str) -> Path:
    behind_tls = os.environ.get("STACK_BEHIND_TLS_PROXY") == "1"
    forwarded_proto = "$http_x_forwarded_proto" if behind_tls else "$scheme"
    servers = "\n".join(f"        server unix:{path} max_fails=1 fail_timeout=5s;" for path in sockets)
    text = (
        TEMPLATE.read_text()
        .replace("@RUN_DIR@", str(run_dir))
        .replace("@UPSTREAM_SERVERS@", servers)
        .replace("@LISTEN@", listen)
        .replace("@STATIC_ROOT@", str(ROOT / "staticfiles"))
        .replace("@FORWARDED_PROTO@", forwarded_proto)
        .replace("@USER@", _workers_user())
        .replace("@TABLE_GROUP@", "daphne" if os.environ.get("STACK_TABLE_AFFINITY") == "0" else "daphne_tables")
    )
    path = run_dir / "nginx.conf"
    path.write_text(text)
    return path


def wait_for_sockets(sockets: list[Path], children: dict, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not all(path.exists() for path in sockets):
        for name, child in children.items():
            if child.poll() is not None:
                raise SystemExit(f"stack: {name} exited with {child.returncode} while starting")
        if time.monotonic() > deadline:
            raise SystemExit("stack: the server processes did not start listening in time")
        time.sleep(0.1)


class Stack:
    def __init__(self) -> None:
        self.env = site_environment()
        self.listen = os.environ.get("STACK_LISTEN", "127.0.0.1:8000")
        self.count = int(os.environ.get("STACK_PROCESSES") or os.cpu_count() or 1)
        self.restart_delay = float(os.environ.get("STACK_RESTART_DELAY", "2"))
        given = os.environ.get("STACK_RUN_DIR")
        self.run_dir = Path(given) if given else Path(tempfile.mkdtemp(prefix="doubleup-stack-"))
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.run_dir.chmod(0o755)  # nginx's workers (user nobody when started as root) reach the sockets
        self.sockets = [self.run_dir / f"daphne-{n}.sock" for n in range(1, self.count + 1)]
        # The children besides nginx, by name: what each runs (started again when it dies).
        self.commands = {f"daphne-{n}": daphne_command(path) for n, path in enumerate(self.sockets, 1)}
        # The background worker of the hand analyses (docs/analysis.md), at a lower CPU
        # priority; its queue is a table in PostgreSQL, so nothing queued is lost if it dies.
        if os.environ.get("STACK_ANALYSIS_WORKER", "1") == "1":
            self.commands["analysis-worker"] = [sys.executable, "manage.py", "analysis_worker"]
        if os.environ.get("STACK_RUNTABLES") == "1":
            self.commands["runtables"] = [sys.executable, "manage.py", "runtables"]
        self.children: dict[str, subprocess.Popen] = {}
        self.died_at: dict[str, float] = {}
        self.stopping = False

    def start_child(self, name: str) -> None:
        if name.startswith("daphne-"):
            self.sockets[int(name.removeprefix("daphne-")) - 1].unlink(missing_ok=True)
        self.children[name] = subprocess.Popen(self.commands[name], cwd=ROOT, env=self.env)

    def start(self) -> None:
        if shutil.which("nginx") is None:
            raise SystemExit("stack: nginx is missing (apt-get install nginx; config/stack/run does that)")
        for name in self.commands:
            self.start_child(name)
        wait_for_sockets(self.sockets, self.children)
        (self.run_dir / "nginx-temp").mkdir(exist_ok=True)
        conf = render_nginx(self.run_dir, self.sockets, self.listen)
        self.children["nginx"] = subprocess.Popen(["nginx", "-p", str(self.run_dir), "-c", str(conf)], cwd=ROOT)
        self.write_process_list()
        say(f"{self.count} server processes behind nginx on http://{self.listen}  (run directory {self.run_dir})")

    def write_process_list(self) -> None:
        entries = [
            {"name": name, "pid": child.pid, "socket": str(self.run_dir / f"{name}.sock") if "daphne" in name else None}
            for name, child in self.children.items()
        ]
        path = self.run_dir / "processes.json"
        path.with_suffix(".tmp").write_text(json.dumps(entries))
        path.with_suffix(".tmp").replace(path)  # readers never see half a file

    def watch(self) -> None:
        while not self.stopping:
            for name, child in list(self.children.items()):
                if child.poll() is None:
                    continue
                if name == "nginx":
                    say(f"nginx exited with {child.returncode}: stopping")
                    return
                if name not in self.died_at:
                    say(f"{name} exited with {child.returncode}: starting it again in {self.restart_delay:g} s")
                    self.died_at[name] = time.monotonic()
                elif time.monotonic() - self.died_at[name] >= self.restart_delay:
                    del self.died_at[name]
                    self.start_child(name)
                    self.write_process_list()
            time.sleep(0.2)

    def stop(self, *_args) -> None:
        self.stopping = True

    def stop_children(self) -> None:
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)  # nginx: fast shutdown; daphne: closes its sockets
        deadline = time.monotonic() + STOP_GRACE_S
        for child in self.children.values():
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        for path in self.sockets:
            path.unlink(missing_ok=True)
        say("stopped")


def main() -> None:
    stack = Stack()
    signal.signal(signal.SIGTERM, stack.stop)
    signal.signal(signal.SIGINT, stack.stop)
    try:
        stack.start()
        stack.watch()
    finally:
        stack.stop_children()


if __name__ == "__main__":
    main()
