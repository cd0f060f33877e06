"""docs/DEPLOY.md's steps, run as they are written there (issue 47, item 6).

The guide marks each command block with an HTML comment, ``<!-- deploy-guide: NAME -->`` (or ``<!--
deploy-guide: NAME, not run: REASON -->``), and this test reads the blocks from the guide itself, so the two
cannot drift apart. Each block runs in bash with ``set -euo pipefail`` after a prelude of the test's own: the
guide's settings block replaced by the test's (a role and databases named ``deploy_guide_*`` on the project's
private PostgreSQL), a ``sudo`` that runs ``-u postgres`` commands as that user (``runuser``; the superuser's
connection goes to the private PostgreSQL through PGHOST/PGPORT) and others as they are, and, for the recovery,
a ``systemctl`` that stops and starts a private PostgreSQL with ``pg_ctl``. The guide's example paths
(``/opt/diloti``, ``/etc/diloti``, ``/srv/...``, PostgreSQL's data directory) become temporary folders, and its
example recovery time the moment the test chose. Nothing else is changed.

- The install: the guide's wheel built from a copy of this checkout (pure Python, ``DILOTI_BUILD_PURE=1``:
  the compiled core's build takes minutes and is checked by tests/test_core_build.py), installed into a fresh
  virtualenv with the guide's constraints; skipped, saying so, when the package index is out of reach.
- The database: the role and database the guide creates; the first server started as the unit file says
  (its ExecStart, with the guide's environment file) creates the schema as that role, which is neither a
  superuser nor may create databases; a game and a player are stored through it.
- Backup and restore: the guide's pg_dump and restore (the new database made by the superuser, owned by the
  role, restored by the role) hold every row of every table, and the game's moves.
- The unit file: the guide shows it as it is, and ``systemd-analyze verify`` finds nothing to say about it
  (skipped, saying so, where systemd-analyze cannot be had).
- Point-in-time recovery: on a private PostgreSQL of its own with the guide's archive settings, moves stored
  before and after the guide's base backup, then every move deleted; the guide's recovery to the moment
  before the deletion has every move back.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import re
import resource
import secrets
import shlex
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from sqlalchemy import create_engine, inspect, text
from websockets.sync.client import connect

from diloti.store.db import SeatData, Store, TableData
from servers import ROOT, free_port, my_turn, recv

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]
GUIDE = ROOT / "docs" / "DEPLOY.md"
UNIT = ROOT / "deploy" / "systemd" / "diloti@.service"
BLOCK = re.compile(r"^([ \t]*)<!-- deploy-guide: ([\w-]+)(?:, not run: ([^>]+?))? -->\n\1```(\w+)\n(.*?)^\1```$",
                   re.M | re.S)
# Every block the guide marks, and the ones the test does not run (with the guide's reason).
RUN = ("settings", "database", "backup", "restore", "wal-archive", "base-backup", "recover", "build", "install",
       "environment", "unit-file")
NOT_RUN = ("user", "enable")
NAMES = ("deploy_guide_db", "deploy_guide_db_restored")  # the databases this test makes (and drops)
ROLE = "deploy_guide_role"
OFFLINE = ("NewConnectionError", "Failed to establish a new connection", "Temporary failure in name resolution",
           "Network is unreachable", "ConnectTimeoutError", "ReadTimeoutError", "No matching distribution found",
           "Could not find a version that satisfies")


@dataclass
class Block:
    name: str
    lang: str
    body: str
    not_run: str | None


def guide_blocks() -> dict[str, Block]:
    """The marked blocks of docs/DEPLOY.md, by name, their indentation (inside a list item) removed."""
    out: dict[str, Block] = {}
    for m in BLOCK.finditer(GUIDE.read_text()):
        indent, name, reason, lang, body = m.groups()
        lines = [line[len(indent):] if line.startswith(indent) else line for line in body.splitlines()]
        assert name not in out, f"two blocks named {name}"
        out[name] = Block(name, lang, "\n".join(lines) + "\n", reason)
    return out


def test_the_guide_marks_every_command_block_and_shows_the_unit_file_as_it_is() -> None:
    blocks = guide_blocks()
    assert sorted(blocks) == sorted(RUN + NOT_RUN)
    assert {n for n, b in blocks.items() if b.not_run} == set(NOT_RUN)
    # No command block of the steps goes unmarked (so unrun).
    steps = GUIDE.read_text().split("## Step by step", 1)[1].split("## What to watch", 1)[0]
    fences = re.findall(r"^[ \t]*```(\w+)\n", steps, flags=re.M)
    assert len(fences) == len(blocks), "a command block of DEPLOY.md's steps has no deploy-guide mark"
    assert blocks["unit-file"].body == UNIT.read_text(), "DEPLOY.md shows another unit than deploy/systemd's"
    assert "--metrics-allow-ips" in UNIT.read_text() and "LimitNOFILE=" in UNIT.read_text()
    assert "DILOTI_DEVICE_SECRET=" in blocks["environment"].body


def postgres_url() -> str:
    url = os.environ.get("DILOTI_TEST_POSTGRES_URL")
    if not url:
        out = subprocess.run(["bash", str(ROOT / "scripts" / "install-postgres")], capture_output=True, text=True,
                             timeout=300, check=False)
        if out.returncode != 0:
            pytest.skip(f"PostgreSQL could not be started: {out.stderr.strip()[-300:]}")
        url = out.stdout.strip().splitlines()[-1]
    return url


def pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}")) or [shutil.which(name) or ""]
    if not found[-1]:
        pytest.skip(f"PostgreSQL's {name} is not installed")
    return found[-1]


def engine(url: str) -> Any:
    return create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT")


def drop_ours(admin_url: str) -> None:
    """Drop this test's databases and role (from an earlier, interrupted run too)."""
    eng = engine(admin_url)
    try:
        with eng.connect() as conn:
            for name in NAMES:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(text(f'DROP ROLE IF EXISTS "{ROLE}"'))
    finally:
        eng.dispose()


def prelude(settings: dict[str, str], pghost: str, pgport: str, extra: str = "") -> str:
    """What runs before each block: the test's settings and stand-ins for sudo (and systemctl)."""
    lines = ["set -euo pipefail", "unset PYTHONPATH VIRTUAL_ENV",
             f"export PATH={shlex.quote(str(Path(pg_bin('psql')).parent))}:\"$PATH\"",
             f"export PGHOST={shlex.quote(pghost)} PGPORT={shlex.quote(pgport)}"]
    lines += [f"{k}={shlex.quote(v)}" for k, v in settings.items()]
    lines += [
        # sudo -u USER CMD: CMD as USER (runuser where this runs as root), connecting to PostgreSQL as USER.
        'sudo() { if [ "$1" = -u ]; then local who=$2; shift 2; as_user "$who" "$@"; else "$@"; fi; }',
        'as_user() { local who=$1; shift; if [ "$(id -u)" = 0 ] && [ "$who" != root ]; then '
        'runuser -u "$who" -- env PGUSER="$who" "$@"; else PGUSER="$who" "$@"; fi; }',
        extra,
    ]
    return "\n".join(lines) + "\n"


def run_block(block: Block, head: str, cwd: Path, swaps: dict[str, str], timeout: float = 300,
              env: dict[str, str] | None = None) -> str:
    """Run one of the guide's blocks as written (after ``swaps`` of its example paths); its output."""
    assert block.lang == "bash" and block.not_run is None
    body = block.body
    for old, new in swaps.items():
        body = body.replace(old, new)
    out = subprocess.run(["bash", "-c", head + body], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                         env=env, check=False)
    if out.returncode != 0:
        raise AssertionError(f"DEPLOY.md's block {block.name!r} failed ({out.returncode}):\n{body}\n"
                             f"--- stdout\n{out.stdout[-3000:]}\n--- stderr\n{out.stderr[-3000:]}")
    return out.stdout + out.stderr


def checkout_copy(target: Path) -> None:
    """This working tree's files (tracked, and new ones not ignored) as a fresh checkout would have them."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True, timeout=60).stdout.split(b"\0")
    for name in filter(None, files):
        src = ROOT / os.fsdecode(name)
        if src.is_file():
            dst = target / os.fsdecode(name)
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


@dataclass
class Installed:
    root: Path  # a temporary folder, readable by the postgres user
    checkout: Path
    head: str  # the prelude
    swaps: dict[str, str]
    blocks: dict[str, Block]
    admin_url: str  # the private PostgreSQL's superuser, on its maintenance database
    db_url: str  # the guide's database, as the guide's role
    settings: dict[str, str]


@pytest.fixture(scope="module")
def installed() -> Iterator[Installed]:
    """The guide's install, on a copy of this checkout, and its database and role on a private PostgreSQL."""
    url = postgres_url()
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", str(parts.port or 5432)
    admin_url = url.rsplit("/", 1)[0] + "/postgres"
    root = Path(tempfile.mkdtemp(prefix="deploy_guide_"))
    root.chmod(0o755)
    settings = {"DB_HOST": f"{host}:{port}", "DB_NAME": NAMES[0], "DB_ROLE": ROLE,
                "DB_PASSWORD": secrets.token_hex(16), "DEVICE_SECRET": secrets.token_hex(32), "LISTEN": "127.0.0.1",
                "PROXY_IPS": "127.0.0.1", "METRICS_IPS": "127.0.0.2"}
    swaps = {"/opt/diloti": str(root / "opt-diloti"), "/etc/diloti": str(root / "etc-diloti")}
    blocks = guide_blocks()
    drop_ours(admin_url)
    try:
        checkout = root / "checkout"
        checkout_copy(checkout)
        head = prelude(settings, host, port)
        try:
            run_block(blocks["build"], head, checkout, swaps, timeout=900,
                      env={**os.environ, "DILOTI_BUILD_PURE": "1"})
            run_block(blocks["install"], head, checkout, swaps, timeout=900)
        except AssertionError as exc:
            if any(sign in str(exc) for sign in OFFLINE):
                pytest.skip(f"the package index is out of reach, so DEPLOY.md's install cannot run: {exc}"[:2000])
            raise
        db_url = (f"postgresql://{ROLE}:{settings['DB_PASSWORD']}@{settings['DB_HOST']}/{settings['DB_NAME']}")
        yield Installed(root, checkout, head, swaps, blocks, admin_url, db_url, settings)
    finally:
        drop_ours(admin_url)
        shutil.rmtree(root, ignore_errors=True)


def unit_command(inst: Installed, port: int) -> tuple[list[str], dict[str, str], int | None]:
    """The unit file's ExecStart for instance ``port`` as systemd would run it (its EnvironmentFile read,
    ``${VAR}`` and ``%i`` put in), its environment, and its LimitNOFILE."""
    unit = UNIT.read_text()
    for old, new in inst.swaps.items():
        unit = unit.replace(old, new)
    env_file = re.search(r"^EnvironmentFile=(.+)$", unit, flags=re.M)
    exec_start = re.search(r"^ExecStart=(.+)$", unit, flags=re.M)
    nofile = re.search(r"^LimitNOFILE=(\d+)$", unit, flags=re.M)
    assert env_file and exec_start
    env = {}
    for line in Path(env_file.group(1)).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            env[key] = value
    args = []
    for word in exec_start.group(1).split():
        word = re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], word.replace("%i", str(port)))
        args.append(word)
    return args, env, int(nofile.group(1)) if nofile else None


def counts(url: str) -> dict[str, int]:
    eng = engine(url)
    try:
        with eng.connect() as conn:
            return {t: int(conn.execute(text(f'SELECT count(*) FROM "{t}"')).scalar_one())
                    for t in inspect(conn).get_table_names()}
    finally:
        eng.dispose()


def wait_until(what: str, check: Any, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.1)


def test_the_guide_installs_serves_backs_up_and_restores(installed: Installed) -> None:
    inst, blocks = installed, installed.blocks
    run_block(blocks["database"], inst.head, inst.checkout, inst.swaps)
    run_block(blocks["environment"], inst.head, inst.checkout, inst.swaps)
    assert (Path(inst.swaps["/etc/diloti"]) / "diloti.env").stat().st_mode & 0o777 == 0o600
    # The server as the unit starts it (systemd itself cannot run here), with the unit's open-file limit.
    port = free_port()
    args, env, nofile = unit_command(inst, port)
    assert args[0] == str(Path(inst.swaps["/opt/diloti"]) / "bin" / "diloti")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = min(nofile or soft, hard) if hard != resource.RLIM_INFINITY else nofile or soft
    path_env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR")}
    server = subprocess.Popen(args, env={**path_env, **env}, cwd=inst.root, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard)))
    base = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(f"{base}/healthz", timeout=1).status_code == 200
            return False
        wait_until("the installed server answers", up, timeout=120)
        metrics = httpx.get(f"{base}/metrics", timeout=10).text
        assert f"process_max_fds {float(limit)}" in metrics
        # The role made the schema: it owns every table, with no right beyond owning its database.
        eng = engine(inst.admin_url)
        try:
            with eng.connect() as conn:
                rights = conn.execute(text("SELECT rolsuper, rolcreatedb, rolcreaterole FROM pg_roles "
                                           "WHERE rolname = :r"), {"r": ROLE}).one()
                assert tuple(rights) == (False, False, False)
        finally:
            eng.dispose()
        eng = engine(inst.db_url)
        try:
            with eng.connect() as conn:
                owners = set(conn.execute(text("SELECT tableowner FROM pg_tables WHERE schemaname = 'public'"))
                             .scalars())
        finally:
            eng.dispose()
        assert owners == {ROLE}
        # A game and a player, through the installed server.
        assert httpx.post(f"{base}/api/players", json={"name": "Deployer"}, timeout=10).status_code == 201
        t = httpx.post(f"{base}/api/tables", json={"name": "Ann", "seats": [
            {"kind": "human"}, {"kind": "bot", "level": "greedy"}]}, timeout=10).json()
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, proxy=None) as ws:
            ws.send(json.dumps({"type": "hello", "table": t["table"], "token": t["token"]}))
            recv(ws, "welcome")
            state = my_turn(ws)
            for _ in range(2):
                ws.send(json.dumps({"type": "move", "move": state["legal"][0]["move"], "ply": state["ply"]}))
                state = my_turn(ws)
        # Backup and restore, as the guide says, while the server runs.
        run_block(blocks["backup"], inst.head, inst.checkout, inst.swaps)
        assert len(list(inst.checkout.glob("diloti-*.dump"))) == 1
        run_block(blocks["restore"], inst.head, inst.checkout, inst.swaps)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        if server.stderr is not None:
            print("the installed server's log:\n" + server.stderr.read()[-5000:])  # shown if the test fails
            server.stderr.close()
    restored = inst.db_url.rsplit("/", 1)[0] + f"/{NAMES[1]}"
    before, after = counts(inst.db_url), counts(restored)
    assert after == before and before["players"] == 1 and before["moves"] >= 4 and len(before) >= 10
    eng = engine(inst.admin_url)
    try:
        with eng.connect() as conn:
            owner = conn.execute(text("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = :d"),
                                 {"d": NAMES[1]}).scalar_one()
    finally:
        eng.dispose()
    assert owner == ROLE
    moves = {}
    for url in (inst.db_url, restored):
        eng = engine(url)
        try:
            with eng.connect() as conn:
                moves[url] = conn.execute(text("SELECT ply, seat, move FROM moves WHERE table_id = :t ORDER BY ply"),
                                          {"t": t["table"]}).all()
        finally:
            eng.dispose()
    assert moves[restored] == moves[inst.db_url] and len(moves[restored]) >= state["ply"]


def test_the_unit_file_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    out = subprocess.run(["bash", str(ROOT / "scripts" / "install-proxy"), "systemd-analyze"], capture_output=True,
                         text=True, timeout=600, check=False)
    if out.returncode != 0:
        pytest.skip(f"systemd-analyze could not be had: {out.stderr.strip()[-300:]}")
    tool = out.stdout.strip().splitlines()[-1]
    # verify checks that ExecStart's program exists: the unit's path in a folder of the test's (the install
    # itself is the other test's), and nothing else of the unit changed.
    program = tmp_path / "opt-diloti" / "bin" / "diloti"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = UNIT.read_text().replace("/opt/diloti", str(tmp_path / "opt-diloti"))
    assert unit.count(str(program)) == 1
    (tmp_path / UNIT.name).write_text(unit)
    check = subprocess.run([tool, "verify", "diloti@8001.service"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=120, check=False)
    if check.returncode != 0 and "Failed to" in check.stderr and "diloti@" not in check.stderr:
        pytest.skip(f"systemd-analyze verify cannot run here: {check.stderr.strip()[-300:]}")
    # It reports a bad key, a bad value or a missing program as a line naming the unit; it says nothing else.
    assert check.returncode == 0 and "diloti@" not in check.stdout + check.stderr, check.stdout + check.stderr


def as_postgres(args: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    if os.getuid() == 0:
        args = ["runuser", "-u", "postgres", "--", *args]
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=120, **kw)


def test_point_in_time_recovery_as_the_guide_says() -> None:
    blocks = guide_blocks()
    initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
    root = Path(tempfile.mkdtemp(prefix="deploy_guide_pitr_"))
    root.chmod(0o755)
    data, wal, backups = root / "data", root / "wal", root / "base"
    for folder in (wal, backups):
        folder.mkdir()
    if os.getuid() == 0:
        shutil.chown(root, "postgres")
        for folder in (wal, backups):
            shutil.chown(folder, "postgres")
    port = free_port()
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1"
    swaps = {"/srv/diloti-wal": str(wal), "/srv/diloti-base": str(backups), "/var/lib/postgresql/15/main": str(data)}
    # systemctl stop/start postgresql: this private server's pg_ctl.
    systemctl = (f'systemctl() {{ case "$*" in\n'
                 f'  "stop postgresql") as_user postgres {pg_ctl} -D {data} -m fast -w -t 60 stop ;;\n'
                 f'  "start postgresql") as_user postgres {pg_ctl} -D {data} -l {root}/log -w -t 120 '
                 f'-o {shlex.quote(options)} start ;;\n'
                 f'  *) echo "systemctl $*: not in this test" >&2; return 1 ;;\n'
                 f'esac; }}')
    head = prelude({}, "127.0.0.1", str(port), systemctl)
    url = f"postgresql://postgres@127.0.0.1:{port}/deploy_guide_pitr"
    try:
        as_postgres([initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale"])
        conf = blocks["wal-archive"].body
        for old, new in swaps.items():
            conf = conf.replace(old, new)
        with (data / "postgresql.conf").open("a") as f:
            f.write("\n# docs/DEPLOY.md, point-in-time recovery\n" + conf)
        as_postgres([pg_ctl, "-D", str(data), "-l", str(root / "log"), "-w", "-t", "120", "-o", options, "start"])
        admin = engine(url.rsplit("/", 1)[0] + "/postgres")
        with admin.connect() as conn:
            conn.execute(text("CREATE DATABASE deploy_guide_pitr"))
        admin.dispose()
        store = Store(url)  # the schema, as the servers make it
        try:
            store.create_table(TableData("t1", 2, {}, 7, 0, False, "playing", seats=[
                SeatData(0, "human", None, "Ann", "a" * 64), SeatData(1, "bot", "greedy")]))
            store.add_moves([("t1", 0, 1, "7H", None, None), ("t1", 1, 0, "7D x 7H", None, None)])
            run_block(blocks["base-backup"], head, root, swaps)
            taken = sorted(backups.iterdir())
            assert len(taken) == 1 and (taken[0] / "base.tar.gz").is_file()
            swaps = {"/srv/diloti-base/2026-11-24": str(taken[0]), **swaps}  # before /srv/diloti-base
            store.add_moves([("t1", 2, 1, "3C", None, None), ("t1", 3, 0, "4D", None, None)])
        finally:
            store.close()
        eng = engine(url)
        try:
            with eng.connect() as conn:
                target = conn.execute(text("SELECT clock_timestamp()")).scalar_one()
                conn.execute(text("DELETE FROM moves"))  # the mistake
                assert conn.execute(text("SELECT count(*) FROM moves")).scalar_one() == 0
                segment = conn.execute(text("SELECT pg_walfile_name(pg_switch_wal())")).scalar_one()

                def archived() -> bool:
                    last = conn.execute(text("SELECT last_archived_wal FROM pg_stat_archiver")).scalar_one()
                    return last is not None and last >= segment
                wait_until("the WAL with the mistake is archived", archived)
        finally:
            eng.dispose()
        swaps = {"2026-11-24 14:30:00+00": target.isoformat(sep=" "), **swaps}
        run_block(blocks["recover"], head, root, swaps, timeout=300)
        eng = engine(url)
        try:
            def promoted() -> bool:
                with contextlib.suppress(Exception), eng.connect() as conn:
                    return not conn.execute(text("SELECT pg_is_in_recovery()")).scalar_one()
                return False
            wait_until("the recovered server is open for writes", promoted, timeout=120)
            with eng.connect() as conn:
                kept = conn.execute(text("SELECT ply, move FROM moves WHERE table_id = 't1' ORDER BY ply")).all()
        finally:
            eng.dispose()
        # Every move before the mistake is back, those after the base backup too; the deletion is not.
        assert [tuple(r) for r in kept] == [(0, "7H"), (1, "7D x 7H"), (2, "3C"), (3, "4D")]
        assert (root / "data.before-recovery").is_dir()
    finally:
        if (data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.SubprocessError):
                as_postgres([pg_ctl, "-D", str(data), "-m", "immediate", "-w", "-t", "60", "stop"])
        shutil.rmtree(root, ignore_errors=True)
