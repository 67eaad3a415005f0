"""Several hosts on this one machine, from Linux network namespaces (docs/deployment.md,
"Several hosts: runbook"): the test clients outside, a front proxy, two application hosts each
running the production stack command, and a data host with a PostgreSQL primary and its
synchronous standby, a Redis primary, its replica and three Sentinels.

Two private links, each a bridge in a namespace of its own (nothing touches the machine's
own interfaces but the two veths the test process talks through):

    front link 10.41.1.0/24: outside .1, front .10, app1 .11, app2 .12
    data link  10.41.2.0/24: outside .1, app1 .11, app2 .12, data .20

Every program listens on one of those addresses (or a namespace's own loopback), and is
started here and stopped here by its pid. `Topology.destroy` removes every namespace and
veth even when a start failed half way; a topology left by a killed run is removed first.
"""

import contextlib
import os
import pwd
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from config.stack import status
from tests.services import PG_USER, _as_postgres

ROOT = Path(__file__).resolve().parents[2]
PREFIX = "du41"
LAN = f"{PREFIX}-lan"  # holds the two bridges
FRONT_NET, DATA_NET = "10.41.1", "10.41.2"
FRONT_IP, DATA_IP = f"{FRONT_NET}.10", f"{DATA_NET}.20"
APPS = {"app1": 11, "app2": 12}
PG_PORTS = (5432, 5433)  # primary, standby: both on the data host
REDIS_PORTS = (6379, 6380)  # primary, replica
SENTINEL_PORTS = (26379, 26380, 26381)
MASTER = "doubleup"  # the name the Sentinels know the Redis primary by
APP_PORT = 8000
FRONT_FAIL_TIMEOUT_S = 2  # how long the front skips a host that failed
RELAY_OFFSET = 10000  # the slow link's relay takes a data port's traffic on that port plus this


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if check and done.returncode:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")
    return done


def in_ns(ns: str, *command: str) -> list[str]:
    return ["ip", "netns", "exec", f"{PREFIX}-{ns}", *command]


def available() -> str | None:
    """Why this machine cannot build the topology, or None."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for program in ("ip", "iptables", "nginx", "redis-server"):
        if subprocess.run(["which", program], capture_output=True).returncode:
            return f"{program} is missing"
    return None


def remove_leftovers() -> None:
    """Namespaces of this topology that a killed run left behind, and the processes that
    run left in them (by pid; deleting a namespace deletes its veth ends, and with them
    their peers)."""
    for line in run("ip", "netns", "list").stdout.splitlines():
        name = line.split()[0] if line.strip() else ""
        if name.startswith(f"{PREFIX}-"):
            for pid in run("ip", "netns", "pids", name, check=False).stdout.split():  # by pid
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
            run("ip", "netns", "del", name, check=False)
    for veth in (f"{PREFIX}-of", f"{PREFIX}-od"):
        run("ip", "link", "del", veth, check=False)


def _link(ns: str | None, name: str, bridge: str, address: str) -> None:
    """A veth from namespace `ns` (None: outside) to `bridge` in the LAN namespace."""
    peer = f"{ns or 'out'}-{name}"[-15:]  # the LAN namespace's end (15 characters at most)
    where = ["netns", f"{PREFIX}-{ns}"] if ns else []
    run("ip", "link", "add", name, *where, "type", "veth", "peer", "name", peer, "netns", LAN)
    run("ip", "netns", "exec", LAN, "ip", "link", "set", peer, "master", bridge, "up")
    here = ["ip", "netns", "exec", f"{PREFIX}-{ns}"] if ns else []
    run(*here, "ip", "addr", "add", f"{address}/24", "dev", name)
    run(*here, "ip", "link", "set", name, "up")


class Process:
    """A program in a namespace, in the foreground, known by its pid."""

    def __init__(self, name: str, command: list[str], log: Path, env: dict | None = None):
        self.name, self.command, self.log, self.env = name, command, log, env
        self.process: subprocess.Popen | None = None

    def start(self) -> "Process":
        # `ip netns exec` enters the namespace and execs the program: the pid is the program's.
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=open(self.log, "ab"),  # noqa: SIM115 (the child keeps it)
            start_new_session=True,
        )
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL, by pid: a crash, or a machine gone."""
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self, timeout: float = 20) -> None:
        if self.alive():
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()


def wait_until(check, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not happen in {timeout}s")
        time.sleep(0.1)


def redis_cli(port: int, *command: str, host: str = DATA_IP) -> str:
    result = run("redis-cli", "-h", host, "-p", str(port), *command, check=False)
    return result.stdout.strip()


class Postgres:
    """A PostgreSQL cluster on the data host (as the `postgres` OS user), by its postmaster's pid."""

    def __init__(self, base: Path, name: str, port: int):
        self.dir, self.port, self.name = base / name, port, name
        self.data = self.dir / "data"

    def _run(self, *command: str) -> None:
        subprocess.run(in_ns("data", *_as_postgres(list(command))), check=True, capture_output=True, timeout=120)

    def options(self, *extra: str) -> str:
        settings = [f"-p {self.port}", f"-k {self.dir}", f"-c listen_addresses={DATA_IP}", "-c max_connections=200"]
        return " ".join([*settings, *extra])

    def start(self, *extra: str) -> "Postgres":
        log = self.dir / "log"
        self._run("pg_ctl", "-D", str(self.data), "-o", self.options(*extra), "-l", str(log), "-w", "start")
        return self

    @property
    def pid(self) -> int | None:
        with contextlib.suppress(FileNotFoundError, ValueError):
            return int((self.data / "postmaster.pid").read_text().split()[0])
        return None

    def kill(self) -> None:
        """SIGKILL to the postmaster by its pid; its backends notice and exit."""
        pid = self.pid
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            wait_until(lambda: not Path(f"/proc/{pid}").exists(), "the postmaster's end", 10)
            # Its backends go within moments of it (they watch the postmaster).
            wait_until(lambda: not _listening(self.port), f"{self.name} to stop listening", 10)

    def alive(self) -> bool:
        pid = self.pid
        return bool(pid) and Path(f"/proc/{pid}").exists()

    def query(self, sql: str) -> str:
        done = subprocess.run(
            ["psql", "-h", DATA_IP, "-p", str(self.port), "-U", PG_USER, "-Atc", sql, "postgres"],
            capture_output=True,
            text=True,
            timeout=30,
        )
        return done.stdout.strip()

    def promote(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "promote")

    def destroy(self) -> None:
        pid = self.pid
        if pid and Path(f"/proc/{pid}").exists():
            with contextlib.suppress(subprocess.CalledProcessError):
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _listening(port: int) -> bool:
    listeners = run(*in_ns("data", "ss", "-ltnH", f"sport = :{port}"), check=False).stdout
    return bool(listeners.strip())


class Topology:
    def __init__(self, *, secret_key: str, apps_env: dict[str, str] | None = None):
        self.base = Path(tempfile.mkdtemp(prefix="doubleup-multihost-"))
        self.base.chmod(0o755)
        self.secret_key = secret_key
        self.apps_env = apps_env or {}
        self.processes: dict[str, Process] = {}
        self.postgres = {name: Postgres(self.base, name, port) for name, port in zip(("pg1", "pg2"), PG_PORTS)}
        self.redis_ports = list(REDIS_PORTS)

    # --- addresses -----------------------------------------------------------------------

    def database_url(self, name: str = "postgres") -> str:
        hosts = ",".join(f"{DATA_IP}:{port}" for port in PG_PORTS)
        return f"postgres://{PG_USER}@{hosts}/{name}?target_session_attrs=read-write&connect_timeout=2"

    @staticmethod
    def sentinels() -> str:
        return ",".join(f"{DATA_IP}:{port}" for port in SENTINEL_PORTS)

    @staticmethod
    def app_ip(app: str) -> str:
        return f"{FRONT_NET}.{APPS[app]}"

    def url(self, path: str) -> str:
        return f"ws://{FRONT_IP}{path}"

    origin = f"http://{FRONT_IP}"

    # --- building --------------------------------------------------------------------------

    def build(self) -> "Topology":
        """The links and the data host (migrate the database, then `serve`)."""
        remove_leftovers()
        self._network()
        self._data_host()
        return self

    def serve(self) -> "Topology":
        """The application hosts and the front proxy."""
        self.start_app(*APPS)
        self._front()
        return self

    def _network(self) -> None:
        for ns in ("lan", "front", "data", *APPS):
            run("ip", "netns", "add", f"{PREFIX}-{ns}")
            run(*in_ns(ns, "ip", "link", "set", "lo", "up"))
        for bridge in ("bfront", "bdata"):
            run("ip", "netns", "exec", LAN, "ip", "link", "add", bridge, "type", "bridge")
            run("ip", "netns", "exec", LAN, "ip", "link", "set", bridge, "up")
        _link(None, f"{PREFIX}-of", "bfront", f"{FRONT_NET}.1")  # the test clients
        _link(None, f"{PREFIX}-od", "bdata", f"{DATA_NET}.1")  # the test's own look at the data
        _link("front", "eth-front", "bfront", FRONT_IP)
        _link("data", "eth-data", "bdata", DATA_IP)
        for app, host in APPS.items():
            _link(app, "eth-front", "bfront", f"{FRONT_NET}.{host}")
            _link(app, "eth-data", "bdata", f"{DATA_NET}.{host}")

    def _process(self, name: str, ns: str, command: list[str], env: dict | None = None) -> Process:
        process = Process(name, in_ns(ns, *command), self.base / f"{name}.log", env).start()
        self.processes[name] = process
        return process

    def _data_host(self) -> None:
        primary, standby = self.postgres["pg1"], self.postgres["pg2"]
        primary.dir.mkdir()
        os.chown(primary.dir, *_postgres_ids())
        primary._run("initdb", "-D", str(primary.data), "-U", PG_USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        with open(primary.data / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {DATA_NET}.0/24 trust\nhost replication all {DATA_NET}.0/24 trust\n")
        # Synchronous replication: a commit (an accepted action) returns only once the
        # standby has it, so a promoted standby holds every action anyone was told about.
        with open(primary.data / "postgresql.auto.conf", "a") as conf:
            conf.write("synchronous_standby_names = 'standby'\nsynchronous_commit = on\n")
        primary.start()
        self.make_standby(standby, primary)
        for port in self.redis_ports:
            replica = [] if port == self.redis_ports[0] else ["--replicaof", DATA_IP, str(self.redis_ports[0])]
            self.start_redis(port, replica)
        for port in SENTINEL_PORTS:
            conf = self.base / f"sentinel-{port}.conf"
            conf.write_text(
                f"port {port}\nbind {DATA_IP} 127.0.0.1\nprotected-mode no\ndir {self.base}\n"
                f"sentinel monitor {MASTER} {DATA_IP} {self.redis_ports[0]} 2\n"
                f"sentinel down-after-milliseconds {MASTER} 1000\n"
                f"sentinel failover-timeout {MASTER} 5000\n"
            )
            self._process(f"sentinel-{port}", "data", ["redis-server", str(conf), "--sentinel"])
        wait_until(
            lambda: redis_cli(self.redis_ports[1], "info", "replication").count("master_link_status:up"),
            "the Redis replica's sync",
        )
        for port in SENTINEL_PORTS:
            wait_until(
                lambda port=port: (
                    "num-other-sentinels" in redis_cli(port, "sentinel", "master", MASTER)
                    and _sentinel_field(port, "num-other-sentinels") == "2"
                ),
                "the Sentinels meeting",
            )

    def make_standby(self, standby: Postgres, primary: Postgres) -> None:
        """A new streaming standby of `primary` (pg_basebackup), known to it as `standby`."""
        shutil.rmtree(standby.dir, ignore_errors=True)
        standby.dir.mkdir()
        os.chown(standby.dir, *_postgres_ids())
        conninfo = f"host={DATA_IP} port={primary.port} user={PG_USER} application_name=standby"
        standby._run(
            "pg_basebackup", "-d", conninfo, "-D", str(standby.data), "-R", "-X", "stream", "-c", "fast", "--no-sync"
        )
        # Promoted, it is a primary without a standby of its own: it must not wait for one
        # (the last setting of the file wins over the copied one).
        with open(standby.data / "postgresql.auto.conf", "a") as conf:
            conf.write("synchronous_standby_names = ''\n")
        standby.start()

    def pg_primary(self) -> Postgres:
        for cluster in self.postgres.values():
            if cluster.alive() and cluster.query("select pg_is_in_recovery()") == "f":
                return cluster
        raise RuntimeError("no PostgreSQL primary")

    def start_redis(self, port: int, replica: list[str]) -> Process:
        # No persistence; a full resynchronisation's file goes to the run directory.
        settings = ["--bind", DATA_IP, "127.0.0.1", "--protected-mode", "no", "--dir", str(self.base)]
        process = self._process(
            f"redis-{port}",
            "data",
            ["redis-server", "--port", str(port), *settings, "--save", "", "--appendonly", "no", *replica],
        )
        wait_until(lambda: redis_cli(port, "ping") == "PONG", f"redis {port}")
        return process

    def redis_primary(self) -> int:
        """The port of the Redis server the Sentinels call the primary."""
        return int(redis_cli(SENTINEL_PORTS[0], "sentinel", "get-master-addr-by-name", MASTER).split()[-1])

    def app_env(self, app: str) -> dict[str, str]:
        # The production settings, whatever the test run uses (tests/settings.py moves each
        # xdist worker to a Redis database of its own, without Sentinel): this Redis is the
        # topology's own.
        inherited = {k: v for k, v in os.environ.items() if k not in ("PYTEST_XDIST_WORKER", "DJANGO_SETTINGS_MODULE")}
        return {
            **inherited,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": self.database_url(),
            "REDIS_URL": f"redis://{MASTER}/0",
            "REDIS_SENTINELS": self.sentinels(),
            "CACHE_KEY_PREFIX": "multihost",
            "SECRET_KEY": self.secret_key,  # the sessions the test logs in are signed with it
            "ALLOWED_HOSTS": f"{FRONT_IP},{self.app_ip(app)}",
            "STACK_LISTEN": f"{self.app_ip(app)}:{APP_PORT}",
            "STACK_PROCESSES": "1",  # two hosts on two cores
            "STACK_PAGE_PROCESSES": "1",
            "STACK_RUN_DIR": str(self.base / app),
            "STACK_ANALYSIS_WORKER": "0",
            "STACK_BEHIND_TLS_PROXY": "0",
            "STACK_PING_INTERVAL": "1",
            "GAMES_BOT_THINKERS": "0",
            "GAMES_DEAL_LEAD_IN_MS": "0",
            "GAMES_BOT_DELAY_MS": "0",
            **self.apps_env,
        }

    def start_app(self, *apps: str) -> None:
        """The production stack command of application hosts (config/stack/serve.py, as
        `config/stack/run` ends), each in its namespace; they start side by side."""
        started = {}
        for app in apps:
            env = self.app_env(app)
            env.pop("DEBUG", None)
            started[app] = self._process(app, app, [sys.executable, "config/stack/serve.py"], env)
        deadline = time.monotonic() + 60
        for app, process in started.items():
            while not status.ready(self.base / app):  # its STACK_RUN_DIR
                if not process.alive() or time.monotonic() > deadline:
                    raise RuntimeError(f"{app} did not start: {self.log(app)[-3000:]}")
                time.sleep(0.1)

    def _front(self) -> None:
        conf = self.base / "front.conf"
        (self.base / "front-temp").mkdir()
        upstreams = "".join(
            f"        server {self.app_ip(app)}:{APP_PORT} max_fails=1 fail_timeout={FRONT_FAIL_TIMEOUT_S}s;\n"
            for app in APPS
        )
        template = (Path(__file__).parent / "front.conf").read_text()
        conf.write_text(
            template.replace("{base}", str(self.base)).replace("{upstreams}", upstreams).replace("{listen}", FRONT_IP)
        )
        self._process("front", "front", ["nginx", "-p", str(self.base), "-c", str(conf)])
        wait_until(lambda: _connects(FRONT_IP, 80), "the front proxy")

    def wait_serving(self, app: str, timeout: float = 60.0) -> float:
        """Seconds until the host accepts a websocket again (the lobby's: its handshake
        joins channel-layer groups, so it needs the host's Redis as well as its database);
        0 when it does at once."""
        from websockets.sync.client import connect

        started, tries = time.monotonic(), 0
        address = f"{self.app_ip(app)}:{APP_PORT}"
        while True:
            try:
                with connect(f"ws://{address}/ws/lobby/", origin=f"http://{address}", open_timeout=2):
                    return time.monotonic() - started if tries else 0.0
            except Exception:
                tries += 1
                if time.monotonic() - started > timeout:
                    raise RuntimeError(f"{app} did not serve again within {timeout} s") from None
                time.sleep(0.2)

    def listeners(self) -> dict[str, set[str]]:
        """Per namespace, the addresses its TCP servers listen on."""
        found = {}
        for ns in ("front", "data", *APPS):
            lines = run(*in_ns(ns, "ss", "-ltnH")).stdout.splitlines()
            found[ns] = {line.split()[3].rsplit(":", 1)[0] for line in lines if line.strip()}
        return found

    def log(self, name: str) -> str:
        path = self.base / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    # --- faults --------------------------------------------------------------------------

    def host_gone(self, app: str) -> None:
        """The host vanishes: its links go down first (nothing it had open is closed
        properly, as when a machine loses power), then every process of it is killed."""
        for link in ("eth-front", "eth-data"):
            run(*in_ns(app, "ip", "link", "set", link, "down"))
        for pid in self.pids_in(app):  # supervisord, daphne, nginx and nginx's worker
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.processes[app].process.wait(10)
        wait_until(lambda: not self.pids_in(app), f"the end of {app}'s processes", 10)

    @staticmethod
    def pids_in(ns: str) -> list[int]:
        """Every process running in a host's namespace."""
        return [int(pid) for pid in run("ip", "netns", "pids", f"{PREFIX}-{ns}").stdout.split()]

    def cut_from_redis(self, app: str, cut: bool = True) -> None:
        """Packets between the host and every Redis port dropped both ways (its clients and
        PostgreSQL still reach it): subscriptions and publishes hang, as on a broken link."""
        action = "-A" if cut else "-D"
        for port in (*self.redis_ports, *SENTINEL_PORTS):
            for chain, address, port_match in (("OUTPUT", "-d", "--dport"), ("INPUT", "-s", "--sport")):
                rule = [chain, "-p", "tcp", address, DATA_IP, port_match, str(port), "-j", "DROP"]
                run(*in_ns(app, "iptables", action, *rule))

    def heal(self) -> None:
        """What a test broke, mended for the next: both application hosts up and reachable,
        a Redis replica beside the primary, a synchronous PostgreSQL standby."""
        mended = False
        relay = self.processes.pop("slowlink", None)
        if relay:  # the application hosts' connections go through it: they restart without
            self.stop_apps()
            relay.stop()
        for app in APPS:
            for link in ("eth-front", "eth-data"):
                run(*in_ns(app, "ip", "link", "set", link, "up"))
            run(*in_ns(app, "iptables", "-F"))
            run(*in_ns(app, "iptables", "-t", "nat", "-F"))
        down = [app for app in APPS if not self.processes[app].alive()]
        if down:
            self.start_app(*down)
            mended = True
        for app in APPS:
            mended = self.wait_serving(app) > 0 or mended
        if mended:
            time.sleep(FRONT_FAIL_TIMEOUT_S)  # the front tries a host it skipped again
        primary_port = self.redis_primary()
        for port in self.redis_ports:
            if not self.processes[f"redis-{port}"].alive():
                self.start_redis(port, ["--replicaof", DATA_IP, str(primary_port)])
        primary = self.pg_primary()
        for cluster in self.postgres.values():
            if not cluster.alive():
                self.make_standby(cluster, primary)
                primary.query("alter system set synchronous_standby_names = 'standby'")
                primary.query("select pg_reload_conf()")

    def slow_data_links(self, delay_ms: int, jitter_ms: int, loss: float) -> None:
        """The links between the application hosts and the data host made slow and lossy:
        every connection of theirs to a data port goes through a relay on the data host that
        holds each chunk `delay_ms` ± `jitter_ms` in each direction (tests/multihost/slowlink.py;
        kernels without netem exist), and iptables' statistic match drops `loss` of their
        packets each way. The application hosts restart behind it, so that no connection they
        had open goes around it. `heal` ends it."""
        routes = [f"{DATA_IP}:{port + RELAY_OFFSET}={DATA_IP}:{port}" for port in self.data_ports()]
        relay = [sys.executable, "-m", "tests.multihost.slowlink", "--delay-ms", str(delay_ms)]
        self._process("slowlink", "data", [*relay, "--jitter-ms", str(jitter_ms), *routes])
        for port in self.data_ports():
            wait_until(lambda port=port: _connects(DATA_IP, port + RELAY_OFFSET), "the slow link's relay")
        self.stop_apps()
        for app in APPS:
            for port in self.data_ports():  # a new connection's destination, rewritten
                to_relay = ["--dport", str(port), "-j", "DNAT", "--to-destination", f"{DATA_IP}:{port + RELAY_OFFSET}"]
                run(*in_ns(app, "iptables", "-t", "nat", "-A", "OUTPUT", "-p", "tcp", "-d", DATA_IP, *to_relay))
            for chain, address in (("OUTPUT", "-d"), ("INPUT", "-s")):
                run(
                    *in_ns(app, "iptables", "-A", chain, address, DATA_IP, "-m", "statistic"),
                    *("--mode", "random", "--probability", str(loss), "-j", "DROP"),
                )
        self.start_app(*APPS)
        for app in APPS:
            self.wait_serving(app)

    def data_ports(self) -> tuple[int, ...]:
        return (*PG_PORTS, *self.redis_ports, *SENTINEL_PORTS)

    def stop_apps(self) -> None:
        for app in APPS:  # supervisord stops the host's processes, then itself
            if self.processes[app].alive():
                os.kill(self.processes[app].pid, signal.SIGTERM)
        for app in APPS:
            self.processes[app].stop()
            wait_until(lambda app=app: not self.pids_in(app), f"the end of {app}'s processes", 20)

    def round_trip_ms(self, app: str, queries: int = 5) -> float:
        """The median time of a PostgreSQL `SELECT 1` from an application host to the primary
        (psql's timing of each query on one connection: one round trip and the query)."""
        primary = self.pg_primary()
        timed = ["-c", "\\timing on", *["-c", "select 1"] * queries]
        command = ["psql", "-h", DATA_IP, "-p", str(primary.port), "-U", PG_USER, "-At", *timed, "postgres"]
        output = run(*in_ns(app, *command)).stdout
        times = [float(line.split()[1]) for line in output.splitlines() if line.startswith("Time:")]
        assert len(times) == queries, output
        return statistics.median(times)

    # --- teardown ------------------------------------------------------------------------

    def destroy(self) -> None:
        for name in ("front", *APPS):
            process = self.processes.get(name)
            if process:
                process.stop()
        for process in self.processes.values():
            process.stop(5)
        for cluster in self.postgres.values():
            cluster.destroy()
        remove_leftovers()
        shutil.rmtree(self.base, ignore_errors=True)  # two database clusters, logs (read them before)


def _sentinel_field(port: int, field: str) -> str:
    lines = redis_cli(port, "sentinel", "master", MASTER).splitlines()
    return lines[lines.index(field) + 1] if field in lines else ""


def _connects(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=0.5).close()
        return True
    except OSError:
        return False


def _postgres_ids() -> tuple[int, int]:
    account = pwd.getpwnam(PG_USER)
    return account.pw_uid, account.pw_gid
