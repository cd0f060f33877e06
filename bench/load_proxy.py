"""The shipped nginx file in front of the load benchmark's servers (``bench/load.py --proxy``).

nginx runs as a private process (no root, no system files touched) with ``deploy/nginx/diloti.conf``
as shipped, only its ports changed: the upstream lists the servers this run started, and it
listens on a free loopback port. What the players of the run meet is then what a deployed
service's players meet: nginx's per-address limits, its buffering and its upstream choice.
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONF = ROOT / "deploy" / "nginx" / "diloti.conf"
MAIN = ROOT / "deploy" / "nginx" / "diloti-main.conf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proxy_conf(upstreams: list[int], listen: int) -> str:
    """The shipped file with these servers' ports and this listening port (nothing else changed).

    >>> conf = proxy_conf([9001, 9002, 9003], 7000)
    >>> re.findall(r"server (127\\.0\\.0\\.1:\\d+)", conf), "listen 127.0.0.1:7000;" in conf
    (['127.0.0.1:9001', '127.0.0.1:9002', '127.0.0.1:9003'], True)
    """
    conf = CONF.read_text()
    lines = re.findall(r"^\s*server 127\.0\.0\.1:\d+ .*$", conf, flags=re.M)
    if not lines or "listen 8080;" not in conf:
        raise SystemExit(f"load: {CONF} changed shape (its upstream servers or its listen line)")
    block = "\n".join(lines[0].replace(lines[0].split()[1], f"127.0.0.1:{p}") for p in upstreams)
    conf = conf.replace("\n".join(lines), block)
    return conf.replace("listen 8080;", f"listen 127.0.0.1:{listen};")


class Proxy:
    """A private nginx in front of ``upstreams`` (ports); ``url`` is where the players go."""

    def __init__(self, upstreams: list[int]) -> None:
        out = subprocess.run(["bash", str(ROOT / "scripts" / "install-proxy")], capture_output=True, text=True,
                             timeout=300, check=False)
        if out.returncode != 0:
            raise SystemExit(f"load: nginx could not be installed: {out.stderr.strip()[-300:]}")
        binary = out.stdout.strip().splitlines()[-1]
        self.dir = Path(tempfile.mkdtemp(prefix="diloti-load-nginx-"))
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        (self.dir / "logs").mkdir()
        (self.dir / "diloti.conf").write_text(proxy_conf(upstreams, port))
        (self.dir / "nginx.conf").write_text(f"""
daemon off;
pid {self.dir}/nginx.pid;
error_log {self.dir}/logs/error.log warn;
include {MAIN};
worker_rlimit_nofile 8192;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {self.dir}/body;
    proxy_temp_path {self.dir}/proxy;
    include {self.dir}/diloti.conf;
}}
""")
        cmd = [binary, "-p", str(self.dir), "-c", str(self.dir / "nginx.conf")]
        check = subprocess.run([*cmd, "-t"], capture_output=True, text=True, check=False)
        if check.returncode != 0:
            raise SystemExit(f"load: nginx refused the configuration: {check.stderr.strip()[-500:]}")
        self.proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"load: nginx did not start (see {self.dir}/logs/error.log)")
            time.sleep(0.1)

    def errors(self) -> list[str]:
        """The lines nginx logged at warn or above (its refusals, upstream failures)."""
        path = self.dir / "logs" / "error.log"
        return path.read_text(errors="replace").splitlines() if path.exists() else []

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def cleanup(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
