"""The stack's processes as supervisord reports them, over its socket in the run directory
(what `supervisorctl -c <run dir>/supervisord.conf status` shows). The tests and the soak
read pids and states here."""

from pathlib import Path
from xmlrpc.client import ServerProxy

from supervisor.xmlrpc import SupervisorTransport

SERVER_GROUPS = ("tables", "pages")  # the daphne processes' programs (supervisord.conf)


def supervisor(run_dir: Path):
    """supervisord's XML-RPC interface (getAllProcessInfo, stopProcess, …)."""
    transport = SupervisorTransport(None, None, f"unix://{run_dir}/supervisord.sock")
    return ServerProxy("http://stack", transport=transport).supervisor


def processes(run_dir: Path) -> dict[str, dict]:
    """name (tables-1, …, pages-1, …, nginx, analysis-worker) → its record: pid, statename, group, …"""
    return {info["name"]: info for info in supervisor(run_dir).getAllProcessInfo()}


def servers(run_dir: Path) -> dict[str, dict]:
    """The daphne processes (tables-N and pages-N) among them."""
    return {name: info for name, info in processes(run_dir).items() if info["group"] in SERVER_GROUPS}


def ready(run_dir: Path) -> bool:
    """supervisord answers, every process is running and each daphne process listens."""
    try:
        every = processes(run_dir)
    except OSError:  # supervisord is not answering yet
        return False
    sockets = [run_dir / f"{name}.sock" for name, info in every.items() if info["group"] in SERVER_GROUPS]
    return {info["statename"] for info in every.values()} == {"RUNNING"} and all(path.exists() for path in sockets)
