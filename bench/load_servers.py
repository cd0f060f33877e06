"""The server side of ``bench/load.py``: ``diloti serve`` processes, a fresh database, CPU and a bystander probe."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from diloti._core import read_manifest

ROOT = Path(__file__).resolve().parents[1]

# A bystander process that only sleeps 5 ms at a time: how late the machine wakes it up
# tells how much of the latency is the machine's scheduling (other work), not the server.
PROBE = """
import signal, sys, time
lags = []
def done(*_):
    lags.sort()
    n = len(lags)
    print(f"{lags[n // 2] * 1000:.1f} {lags[int(n * 0.99)] * 1000:.1f} {lags[-1] * 1000:.1f}" if n else "nan nan nan")
    sys.exit(0)
signal.signal(signal.SIGTERM, done)
while True:
    t = time.perf_counter()
    time.sleep(0.005)
    lags.append(time.perf_counter() - t - 0.005)
"""


def dies_with_parent() -> None:
    """A child's ``preexec_fn``: Linux sends it SIGTERM when this script ends, however it ends.

    A run killed from outside (a test's timeout, Ctrl-C twice, ``kill -9``) would otherwise leave its
    servers (and so their workers) and the probe running. The children are started from the main
    thread, so the signal's tie to the starting thread is the script's own life. Elsewhere it is a no-op.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) of one process and of its children it has waited for."""
    fields = _stat(pid)
    if fields is None:
        return float("nan")
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and fields[1] == str(pid):
                out.append(int(entry.name))
    return out


def workers_of(pid: int) -> list[int]:
    """The worker processes (``multiprocessing`` spawned children: the computer moves) of server ``pid``.

    Its resource tracker, also a child, is left out."""
    out = []
    for child in children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                out.append(child)
        except OSError:
            pass
    return out


def own_cpu(pid: int) -> float:
    """CPU time (user + system) of one process alone (nan once it is gone)."""
    fields = _stat(pid)
    return float("nan") if fields is None else sum(int(x) for x in fields[11:13]) / os.sysconf("SC_CLK_TCK")


def core_of(pid: int) -> str:
    """Which core process ``pid`` runs, from its memory map: "compiled" when the shared library the build
    recorded (``library`` in ``diloti/_compiled.txt``: ``diloti_core__mypyc``) is loaded, otherwise "pure"
    (or "gone"). Other packages ship mypyc libraries of their own (charset_normalizer's is loaded in every
    server), so the name is matched whole."""
    library = read_manifest()[1] or "diloti_core__mypyc"
    try:
        maps = Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return "gone"
    return "compiled" if f"/{library}." in maps else "pure"


def postgres_cpu() -> dict[int, float]:
    """CPU seconds of every live process named ``postgres`` (the whole cluster, other users' work included)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                comm = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if comm == "postgres":
                fields = _stat(int(entry.name))
                if fields is not None:
                    out[int(entry.name)] = sum(int(x) for x in fields[11:13]) / os.sysconf("SC_CLK_TCK")
    return out


def fresh_postgres(name: str = "diloti_load") -> str:
    """Start the project's private PostgreSQL (scripts/install-postgres) and return the URL of an empty ``name``."""
    out = subprocess.run(["bash", str(ROOT / "scripts" / "install-postgres")], capture_output=True, text=True,
                         timeout=300, check=False)
    if out.returncode != 0:
        raise SystemExit(f"load: PostgreSQL could not be started: {out.stderr.strip()[-300:]}")
    url = out.stdout.strip().splitlines()[-1]
    from sqlalchemy import create_engine, text

    admin = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return f"{url.rpartition('/')[0]}/{name}"


class Server:
    """One ``diloti serve`` process on ``db``; its log goes to a file, summarised at the end."""

    def __init__(self, db: str, index: int, workers: int | None, logdir: Path, core: str | None = None,
                 allow_seed: bool = False) -> None:
        self.index = index
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = logdir / f"server{index}.log"
        self.killed_at: float | None = None
        self.cpu_at_kill = float("nan")
        self.cpu0 = float("nan")
        self.worker_cpu: dict[int, float] = {}  # worker pid -> its CPU seconds when last seen
        self.worker_core: dict[int, str] = {}  # worker pid -> the core it ran when last seen
        self.worker_cpu0: dict[int, float] = {}  # workers already there at the start (their CPU then)
        cmd = [sys.executable, "-m", "diloti", "serve", "--port", str(self.port), "--db", db, "--log-level", "warning"]
        if workers is not None:
            cmd += ["--workers", str(workers)]
        if allow_seed:
            cmd.append("--allow-seed")
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if core is not None:  # the workers are spawned from the server and inherit its environment
            env["DILOTI_PURE"] = "1" if core == "pure" else "0"
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self._log, stderr=subprocess.STDOUT,
                                     preexec_fn=dies_with_parent)

    def wait_ready(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"load: server {self.index} did not start:\n{self.log_path.read_text()[-2000:]}")
            time.sleep(0.3)

    def tree_cpu(self) -> float:
        """CPU seconds of the server and its live worker processes."""
        if self.killed_at is not None:
            return self.cpu_at_kill
        return cpu_seconds(self.proc.pid) + sum(cpu_seconds(c) for c in children(self.proc.pid))

    def sample_workers(self) -> None:
        """Note each live worker's CPU seconds and core (a worker's CPU is read while it lives: a worker the
        pool replaced or that ended with its server keeps the last figure seen)."""
        if self.killed_at is not None:
            return
        for pid in workers_of(self.proc.pid):
            cpu = own_cpu(pid)
            if cpu == cpu:  # not nan: still there
                self.worker_cpu[pid] = max(cpu, self.worker_cpu.get(pid, 0.0))
                core = core_of(pid)
                if core != "gone":
                    self.worker_core[pid] = core

    def workers_cpu(self) -> float:
        """CPU seconds the worker processes spent since the start (as last sampled)."""
        return sum(c - self.worker_cpu0.get(pid, 0.0) for pid, c in self.worker_cpu.items())

    def kill(self) -> list[int]:
        """SIGKILL the server (its workers are orphaned: returned, to be ended by the caller)."""
        self.cpu_at_kill = self.tree_cpu()
        self.sample_workers()
        workers = children(self.proc.pid)
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.killed_at = time.perf_counter()
        return workers

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()

    def log_lines(self) -> list[str]:
        """The warnings and errors it logged (uvicorn's start and stop lines left out)."""
        skip = ("Started server process", "Waiting for application", "Application startup", "Uvicorn running",
                "Shutting down", "Finished server process", "diloti serve: open", "Application shutdown",
                "Waiting for connections")
        return [ln for ln in self.log_path.read_text(errors="replace").splitlines()
                if ln.strip() and not any(s in ln for s in skip)]


def start_servers(db: str, n: int, workers: int | None, core: str | None = None,
                  allow_seed: bool = False) -> list[Server]:
    logdir = Path(tempfile.mkdtemp(prefix="diloti-load-logs-"))
    servers: list[Server] = []
    try:
        # One after the other: two processes migrating a fresh database at once collide
        # (both create the tables: UniqueViolation on pg_type), so the first migrates alone.
        for i in range(n):
            servers.append(Server(db, i, workers, logdir, core, allow_seed))
            servers[-1].wait_ready()
        for s in servers:
            s.cpu0 = s.tree_cpu()
            s.sample_workers()
            s.worker_cpu0 = dict(s.worker_cpu)
    except BaseException:
        stop_all(servers)
        raise
    return servers


def stop_all(servers: list[Server]) -> None:
    for s in servers:
        s.stop()


def end_orphans(pids: list[int]) -> int:
    """SIGKILL the worker processes a killed server left behind that still run; returns how many did."""
    alive = 0
    for pid in pids:
        try:
            if b"multiprocessing" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue  # gone, and its id taken by another process
            os.kill(pid, signal.SIGKILL)
            alive += 1
        except (OSError, ProcessLookupError):
            pass
    return alive
