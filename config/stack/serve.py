"""Start the production stack's processes under supervisord (docs/deployment.md).

    python config/stack/serve.py        (normally through `bash config/stack/run`)

Renders nginx.conf and supervisord.conf (Django templates beside this file) into the run
directory, then replaces itself with supervisord in the foreground, which runs the table
processes, the page processes, nginx and the analysis worker, starts each again when it exits, and stops them
all on SIGTERM or SIGINT. `supervisorctl -c <run dir>/supervisord.conf status` shows them.

Environment (besides the site's own; all of it commented in config/production.env.example):
  STACK_LISTEN         nginx's listen address          (default 127.0.0.1:8000)
  STACK_PROCESSES      table processes (websockets)    (default: one per core)
  STACK_PAGE_PROCESSES page processes (every other request) (default: one per core)
  STACK_RUN_DIR        sockets, logs, configs, nginx temp (default: a new temporary directory)
  STACK_RUNTABLES      1: also run `manage.py runtables` (all-bot tables with nobody connected)
  STACK_ANALYSIS_WORKER  0: do not run `manage.py analysis_worker` (the hand analyses; default 1)
  STACK_EVENTS         0: do not run `manage.py events` (duplicate events' rounds; default 1)
  STACK_BEHIND_TLS_PROXY  1: TLS ends at a proxy in front, whose X-Forwarded-Proto is passed on
  STACK_TABLE_AFFINITY 0: spread a table's sockets over the processes like every connection
                       (default 1: all on the process the table's path hashes to)
  STACK_PING_INTERVAL  seconds a quiet websocket waits before daphne pings it (default 20)
  MALLOC_ARENA_MAX     set to 2 for the processes when unset (site_environment, below)
"""

import os
import pwd
import secrets
import shutil
import sys
import tempfile
from pathlib import Path

from django.template import Context, Engine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# The stack's configuration files are plain text: nothing in them is HTML-escaped.
TEMPLATES = Engine(dirs=[str(HERE)], autoescape=False)

# A run on one machine over plain http (no TLS in front): production settings, minus what
# only makes sense over https (a redirect to https, Secure cookies, HSTS pinning the host
# to https in the browser). Whatever the environment sets wins (config/production.env.example).
PLAIN_HTTP_DEFAULTS = {
    "DEBUG": "0",
    "SECURE_SSL_REDIRECT": "0",
    "SECURE_COOKIES": "0",
    "SECURE_HSTS_SECONDS": "0",
    "LOGIN_THROTTLE_IP_META": "REMOTE_ADDR",  # daphne reads X-Real-IP (--proxy-headers)
}


def say(message: str) -> None:
    print(f"stack: {message}", file=sys.stderr, flush=True)


def site_environment() -> dict[str, str]:
    """The environment supervisord passes on to every process of the stack."""
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
    # ASGI thread pools' arenas fragment: a server's memory crept up while its Python heap
    # stayed flat. Two arenas are plenty for one event loop.
    env.setdefault("MALLOC_ARENA_MAX", "2")
    if not env.get("SECRET_KEY"):
        say("SECRET_KEY is not set: using a random one (sessions end when the stack stops)")
        env["SECRET_KEY"] = secrets.token_urlsafe(50)
    return env


def root_user() -> str:
    """Started as root, nginx's workers would run as `nobody` and could not read the static
    files of a checkout in a private directory (a CI clone in a 0700 temp dir): they run as
    the user who started the stack, and supervisord, told so, keeps that user without a
    warning. Otherwise neither can switch users: empty."""
    return pwd.getpwuid(os.geteuid()).pw_name if os.geteuid() == 0 else ""


def render(name: str, run_dir: Path, context: dict) -> Path:
    path = run_dir / name
    path.write_text(TEMPLATES.get_template(name).render(Context(context)))
    return path


def main() -> None:
    env = site_environment()
    if shutil.which("nginx") is None:
        raise SystemExit("stack: nginx is missing (apt-get install nginx; config/stack/run does that)")
    listen = os.environ.get("STACK_LISTEN", "127.0.0.1:8000")
    processes = int(os.environ.get("STACK_PROCESSES") or os.cpu_count() or 1)
    pages = int(os.environ.get("STACK_PAGE_PROCESSES") or os.cpu_count() or 1)
    given = os.environ.get("STACK_RUN_DIR")
    run_dir = Path(given) if given else Path(tempfile.mkdtemp(prefix="doubleup-stack-"))
    run_dir.mkdir(parents=True, exist_ok=True)
    run_dir.chmod(0o755)  # nginx's workers reach the sockets
    (run_dir / "nginx-temp").mkdir(exist_ok=True)
    behind_tls = os.environ.get("STACK_BEHIND_TLS_PROXY") == "1"
    context = {  # strings only: Django's number formatting would need the site's settings
        "root": str(ROOT),
        "run_dir": str(run_dir),
        "python": sys.executable,
        "programs": [{"name": "tables", "count": str(processes)}, {"name": "pages", "count": str(pages)}],
        "table_sockets": [str(run_dir / f"tables-{n}.sock") for n in range(1, processes + 1)],
        "page_sockets": [str(run_dir / f"pages-{n}.sock") for n in range(1, pages + 1)],
        "listen": listen,
        "static_root": str(ROOT / "staticfiles"),
        "forwarded_proto": "$http_x_forwarded_proto" if behind_tls else "$scheme",
        "user": root_user(),
        "table_group": "sockets" if os.environ.get("STACK_TABLE_AFFINITY") == "0" else "tables",
        "analysis_worker": os.environ.get("STACK_ANALYSIS_WORKER", "1") == "1",
        "runtables": os.environ.get("STACK_RUNTABLES") == "1",
        "ping_interval": os.environ.get("STACK_PING_INTERVAL") or "20",
        "events": os.environ.get("STACK_EVENTS", "1") == "1",
    }
    render("nginx.conf", run_dir, context)
    conf = render("supervisord.conf", run_dir, context)
    say(f"{processes} table and {pages} page processes behind nginx on http://{listen}  (run directory {run_dir})")
    command = [sys.executable, "-m", "supervisor.supervisord", "--configuration", str(conf)]
    os.execve(sys.executable, command, env)


if __name__ == "__main__":
    main()
