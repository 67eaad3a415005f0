"""The stack's processes as supervisord reports them, over its socket in the run directory
(what `supervisorctl -c <run dir>/supervisord.conf status` shows). The tests and the soak
read pids and states here."""

from pathlib import Path
from xmlrpc.client import ServerProxy

from supervisor.xmlrpc import SupervisorTransport


def supervisor(run_dir: Path):
    """supervisord's XML-RPC interface (getAllProcessInfo, stopProcess, …)."""
    transport = SupervisorTransport(None, None, f"unix://{run_dir}/supervisord.sock")
    return ServerProxy("http://stack", transport=transport).supervisor


def processes(run_dir: Path) -> dict[str, dict]:
    """name (daphne-1, …, nginx, analysis-worker) → its record: pid, statename, group, …"""
    return {info["name"]: info for info in supervisor(run_dir).getAllProcessInfo()}


def ready(run_dir: Path, servers: int) -> bool:
    """supervisord answers, every process is running and each daphne process listens."""
    try:
        states = {info["statename"] for info in processes(run_dir).values()}
    except OSError:  # supervisord is not answering yet
        return False
    sockets = [run_dir / f"daphne-{n}.sock" for n in range(1, servers + 1)]
    return states == {"RUNNING"} and all(path.exists() for path in sockets)
