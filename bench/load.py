"""Load benchmark for ``diloti serve`` (a script, not a test).

Starts the server in a subprocess on a fresh SQLite file (or ``--processes N`` servers on one
PostgreSQL database, or uses ``--url`` of a running server or proxy), creates ``--tables`` tables, and
plays every game to the end with simulated players over websockets on loopback: each player
answers its turn after a random think time by choosing a random legal move. Prints moves per
second, the move latency p50/p90/p99/max (from sending a move to the server's ``played``
coming back to the mover, and to the other player of the table), and checks that every game
finished and that the database holds every move a player saw announced, with no ply missing
or stored twice. With ``--url`` that check needs ``--db``, the URL of the database behind the server (or
behind the proxy's servers): the run reads its own tables there directly, as it does for servers it starts.

It needs the ``load`` extra (httpx, and the server's packages): ``pip install -c constraints/test.txt '.[load]'``.

Each table's players use a loopback address of their own (127.0.0.2, 127.0.0.3, ...), so the
server's per-address limits see one person per table. With several processes the two players
of a table are on different processes (the latency to the other player crosses them), and a
computer seat runs on the process its human does not use.

    .venv/bin/python bench/load.py --tables 200
    .venv/bin/python bench/load.py --tables 50 --bots      # one simulated human + one server bot per table
    .venv/bin/python bench/load.py --postgres --processes 2 --tables 250 --workers 1
    .venv/bin/python bench/load.py --postgres --processes 2 --tables 200 --bots --bot-level expert --workers 1
    .venv/bin/python bench/load.py --postgres --processes 2 --tables 250 --kill-after 30  # SIGKILL server 0
    .venv/bin/python bench/load.py --postgres --processes 2 --tables 250 --flood 1000     # one address floods
    .venv/bin/python bench/load.py --postgres --processes 2 --tables 250 --proxy          # through nginx
    .venv/bin/python bench/load.py --tables 20 --bots --bot-level expert --workers 1 --core both --pairs 2
    .venv/bin/python bench/load.py --url http://127.0.0.1:8080 --db postgresql://diloti:...@db.internal/diloti

With computer seats it also reports the computer moves played and the CPU seconds of the servers' worker
processes (the ones that run computer moves, read from /proc), and their ratio: computer moves per worker
CPU-second. ``--core pure|compiled`` starts the servers with ``DILOTI_PURE=1`` or ``0`` (their workers
inherit it); which core each worker really ran is read from its memory map (mypyc's shared library loaded
or not) and a mismatch fails the run. ``--core both`` runs compiled and pure alternately (``--pairs`` of
each, the same seed and tables, fixed deals: the same games, which a digest of the stored moves shows) and
ends with the two side by side and their ratio. Figures: docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from load_check import Check, check_database, pct, sustained_rate
from load_flood import FLOOD_ADDRESS
from load_players import Sample, Stats, one_table
from load_proxy import Proxy
from load_servers import (
    PROBE,
    Server,
    core_of,
    dies_with_parent,
    end_orphans,
    fresh_postgres,
    postgres_cpu,
    start_servers,
    stop_all,
)


@dataclass
class Flood:
    start: float  # seconds since the run's start
    end: float
    statuses: dict[str, int]
    accepted: dict[int, int]  # server index -> tables it created
    cpu: float  # CPU seconds of the flooding process
    server_cpu: float  # CPU seconds of the servers (with their workers) from the flood's start to its end
    server_cpu_after: float = float("nan")  # the same over as long a time right after the flood (the control)


@dataclass
class Workers:
    """The servers' worker processes over a run: what they cost and which core they ran."""

    cpu: float  # CPU seconds of all of them since the start
    processes: int
    cores: list[str]  # the distinct cores the workers ran (from their memory maps), and the servers' own
    server_cores: list[str]
    computed: int | None  # computer moves the workers computed (the servers' metrics)
    seconds: float | None  # their wall-clock time in all, waiting for a worker included (the servers' metrics)


@dataclass
class Outcome:
    stats: Stats
    ids: list[str] = field(default_factory=list)
    wall: float = 0.0
    flood: Flood | None = None
    killed_at: float | None = None  # seconds since the start
    orphans: int = 0  # worker processes of the killed server still running 5 s after it
    loads: list[float] = field(default_factory=list)  # the 1-minute load average every 5 s
    lags: list[float] = field(default_factory=list)  # how late this client's event loop wakes from 5 ms sleeps
    stalls: list[Sample] = field(default_factory=list)  # (when, lag) of the lags over 100 ms
    client_cpu0: float = field(default_factory=time.process_time)  # this client's CPU before the run (--core both)


async def run(args: argparse.Namespace, bases: list[str], servers: list[Server], spread: bool) -> Outcome:
    out = Outcome(Stats())
    stats = out.stats
    wall0 = time.time() - (time.perf_counter() - stats.t0)  # the run's start on the wall clock

    async def delayed(i: int) -> str:
        # Tables start over the first `ramp` seconds, like players arriving.
        await asyncio.sleep(args.ramp * i / max(1, args.tables))
        return await one_table(i, bases, args, stats, spread, reconnect=args.kill_after is not None)

    async def kill_later() -> None:
        await asyncio.sleep(args.kill_after)
        victim = servers[0]
        workers = await asyncio.to_thread(victim.kill)
        out.killed_at = time.perf_counter() - stats.t0
        print(f"  ... killed server 0 (pid {victim.proc.pid}) at {out.killed_at:.1f} s", file=sys.stderr, flush=True)
        await asyncio.sleep(5)
        out.orphans = end_orphans(workers)

    async def flood_later() -> Flood:
        await asyncio.sleep(args.flood_at if args.flood_at is not None else args.ramp + 5)
        print(f"  ... flooding: {args.flood} table creations from {FLOOD_ADDRESS if spread else 'the client'}",
              file=sys.stderr, flush=True)
        cpu0 = sum(s.tree_cpu() for s in servers)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).with_name("load_flood.py")), "--count", str(args.flood),
            "--local", FLOOD_ADDRESS if spread else "", *bases, stdout=asyncio.subprocess.PIPE)
        got = json.loads((await proc.communicate())[0])
        cpu1 = sum(s.tree_cpu() for s in servers)
        fl = Flood(got["start"] - wall0, got["end"] - wall0, got["statuses"],
                   {int(k): v for k, v in got["accepted"].items()}, got["cpu"], cpu1 - cpu0)
        await asyncio.sleep(fl.end - fl.start)  # the control: as long again, without the flood
        fl.server_cpu_after = sum(s.tree_cpu() for s in servers) - cpu1
        return fl

    side = []
    if args.kill_after is not None:
        side.append(asyncio.create_task(kill_later()))
    flood_task = asyncio.create_task(flood_later()) if args.flood else None
    progress = asyncio.create_task(report_progress(stats, args.tables, out.loads, servers))
    lag = asyncio.create_task(loop_lag(out.lags, out.stalls, stats.t0))
    results = await asyncio.gather(*(delayed(i) for i in range(args.tables)), return_exceptions=True)
    out.wall = time.perf_counter() - stats.t0
    if flood_task is not None:
        out.flood = await flood_task
    for task in side:
        await task
    progress.cancel()
    lag.cancel()
    for res in results:
        if isinstance(res, BaseException):
            stats.errors.append(f"table failed: {res!r}")
        else:
            out.ids.append(res)
    return out


async def report_progress(stats: Stats, tables: int, loads: list[float], servers: list[Server]) -> None:
    while True:
        await asyncio.sleep(5)
        loads.append(os.getloadavg()[0])
        for s in servers:
            s.sample_workers()  # a worker's CPU is read while it lives
        recent = [lat for _, lat in (stats.cross or stats.own)[-2000:]]
        print(f"  ... {stats.moves} moves, {stats.finished}/{tables} games finished, "
              f"p99 (recent) {pct(recent, 99):.1f} ms", file=sys.stderr, flush=True)


async def loop_lag(lags: list[float], stalls: list[Sample], t0: float) -> None:
    """The client's own delay: a latency figure includes it, so it is measured too."""
    while True:
        t = time.perf_counter()
        await asyncio.sleep(0.005)
        lags.append(time.perf_counter() - t - 0.005)
        if lags[-1] > 0.1:
            stalls.append((t - t0, lags[-1]))


def summary(samples: list[Sample]) -> dict[str, float]:
    lat = [x for _, x in samples]
    return {"n": len(lat), "p50": pct(lat, 50), "p90": pct(lat, 90), "p99": pct(lat, 99),
            "max": max(lat) * 1000 if lat else float("nan"),
            "mean": statistics.fmean(lat) * 1000 if lat else float("nan")}


def line(name: str, s: dict[str, float]) -> str:
    return (f"{name} ms: p50 {s['p50']:.1f}  p90 {s['p90']:.1f}  p99 {s['p99']:.1f}  max {s['max']:.1f}  "
            f"mean {s['mean']:.1f}  ({s['n']} moves)")


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    ap.add_argument("--target", type=int, default=11, help="target score of each game (default 11: one or two rounds)")
    ap.add_argument("--think-min", type=float, default=0.5, help="shortest think time, seconds (default 0.5)")
    ap.add_argument("--think-max", type=float, default=2.0, help="longest think time, seconds (default 2.0)")
    ap.add_argument("--ramp", type=float, default=10.0, help="seconds over which tables start (default 10)")
    ap.add_argument("--bots", action="store_true", help="second seat is a server-side computer player")
    ap.add_argument("--bot-level", default="random", help="level of those computer players (default random)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nice", type=int, default=0,
                    help="run the server and this client at this niceness (negative needs root; a control on a "
                         "shared machine: shows the latency when the other work on it does not delay us)")
    ap.add_argument("--url", default=None,
                    help="use a running server or proxy (http://HOST:PORT) instead of starting servers; with --db "
                         "its database is checked after the run")
    ap.add_argument("--proxy", action="store_true",
                    help="put the shipped nginx file (deploy/nginx/diloti.conf) in front of the servers it starts: "
                         "the players go through nginx, as a deployed service's do (needs nginx: "
                         "scripts/install-proxy installs it)")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes to start on one database (more than 1 needs PostgreSQL; default 1)")
    ap.add_argument("--db", default=None, help="database URL for the servers (default: a fresh SQLite file); "
                    "with --url, the database of the server(s) behind it, read directly after the run; "
                    "on a database of your own only this run's tables are checked")
    ap.add_argument("--postgres", action="store_true",
                    help="start the project's private PostgreSQL (scripts/install-postgres) and use a fresh "
                         "database diloti_load on it (dropped first)")
    ap.add_argument("--workers", type=int, default=None,
                    help="worker processes of each server for computer moves (default: the server's own, 2)")
    ap.add_argument("--kill-after", type=float, default=None, metavar="SECONDS",
                    help="SIGKILL server 0 this long after the start; its players reconnect to another server")
    ap.add_argument("--flood", type=int, default=0, metavar="N",
                    help=f"meanwhile, post N table creations from one address ({FLOOD_ADDRESS}) as fast as it can, "
                         "round robin over the servers")
    ap.add_argument("--flood-at", type=float, default=None, metavar="SECONDS",
                    help="when the flood starts (default: 5 s after the ramp)")
    ap.add_argument("--core", choices=("pure", "compiled", "both"), default=None,
                    help="the servers' core: DILOTI_PURE=1 or 0 in their environment (their workers inherit "
                         "it); both: compiled and pure runs alternately, side by side at the end "
                         "(default: whatever this environment gives)")
    ap.add_argument("--fixed-deals", action="store_true",
                    help="table i's deal seeded from --seed and i (the servers run with --allow-seed): with the "
                         "players' own seeds, every run of one seed plays the same games (implied by --core both)")
    ap.add_argument("--pairs", type=int, default=1, help="with --core both: how many runs of each (default 1)")
    ap.add_argument("--json", default=None, metavar="FILE", help="append the figures to FILE as one JSON line")
    ap.add_argument("--samples", default=None, metavar="FILE",
                    help="write every latency sample to FILE (CSV: kind, seconds since the start, latency ms; "
                         "also this client's own stalls over 100 ms)")
    args = ap.parse_args()
    if args.url and (args.postgres or args.processes != 1 or args.kill_after is not None or args.core):
        ap.error("--url uses a running server: --postgres, --processes, --kill-after and --core start servers "
                 "(--db with --url names its database, for the check after the run)")
    if args.proxy and args.url:
        ap.error("--proxy starts nginx in front of the servers this run starts; --url names a running service")
    if args.proxy and args.kill_after is not None:
        ap.error("--proxy with --kill-after is tests/test_deploy.py's (a killed upstream is nginx's to route around)")
    if args.pairs < 1 or (args.pairs > 1 and args.core != "both"):
        ap.error("--pairs N needs --core both (and N >= 1)")
    if args.core == "both":
        args.fixed_deals = True
    if args.processes < 1 or (args.processes > 1 and not (args.postgres or (args.db or "").startswith("postgres"))):
        ap.error("--processes N > 1 needs PostgreSQL: --postgres or --db postgresql://...")
    if args.kill_after is not None and args.processes < 2:
        ap.error("--kill-after needs --processes 2 or more (the players reconnect to another process)")
    return args


def main() -> int:
    args = parse_args()
    cores: list[str | None] = ["compiled", "pure"] * args.pairs if args.core == "both" else [args.core]
    ok, figures = True, []
    for k, core in enumerate(cores):
        if len(cores) > 1:
            print(f"=== run {k + 1}/{len(cores)}: {core} core ===", flush=True)
        run_ok, fig = one_run(args, core)
        ok = ok and run_ok
        figures.append(fig)
    if len(cores) > 1:
        print_side_by_side(figures)
    return 0 if ok else 1


def one_run(args: argparse.Namespace, core: str | None) -> tuple[bool, dict[str, object]]:
    """One run of the load on fresh servers running ``core`` (None: as this environment says)."""
    load_start = os.getloadavg()
    servers: list[Server] = []
    proxy: Proxy | None = None
    db = None
    if args.url:
        bases = [args.url]
        db = args.db  # the running server's database (or None: no check), read directly after the run
    else:
        if args.postgres:
            db = fresh_postgres()
        elif args.db:
            db = args.db
        else:
            db = f"sqlite:///{Path(tempfile.mkdtemp(prefix='diloti-load-')) / 'load.sqlite3'}"
        if args.nice:
            os.nice(args.nice)  # the servers inherit it
        servers = start_servers(db, args.processes, args.workers, core, allow_seed=args.fixed_deals)
        bases = [s.url for s in servers]
        if args.proxy:
            try:
                proxy = Proxy([urlparse(b).port or 80 for b in bases])
            except BaseException:
                stop_all(servers)
                raise
            bases = [proxy.url]
    spread = all(urlparse(b).hostname in ("127.0.0.1", "localhost") for b in bases)
    on_pg = db is not None and db.startswith("postgres")
    local_pg = on_pg and bool(servers)  # PostgreSQL's CPU is read from this machine's processes: ours only
    who = (f"1 player + 1 server bot ({args.bot_level})" if args.bots else "2 players") + " each"
    where = (f"{len(servers)} server process{'es' if len(servers) > 1 else ''} on "
             f"{'PostgreSQL' if on_pg else 'SQLite'}{' behind nginx' if proxy else ''}" if servers
             else f"server {args.url}, {'its database checked after the run' if db else 'no database check (--db)'}")
    print(f"load: {args.tables} tables, {who}, target {args.target}, think {args.think_min}-{args.think_max} s, "
          f"{where}, workers {args.workers or 'default'}, core {core or 'as the environment says'}; "
          f"load average at start "
          f"{load_start[0]:.1f} {load_start[1]:.1f} {load_start[2]:.1f}", flush=True)
    pg0 = postgres_cpu() if local_pg else {}
    probe = subprocess.Popen([sys.executable, "-c", PROBE], stdout=subprocess.PIPE, text=True,
                             preexec_fn=dies_with_parent)
    probe_out = ["nan", "nan", "nan"]
    workers: Workers | None = None
    try:
        out = asyncio.run(run(args, bases, servers, spread))
        server_cpu = [s.tree_cpu() - s.cpu0 for s in servers]
        for s in servers:
            s.sample_workers()
        metrics = fetch_metrics([s.url for s in servers if s.killed_at is None])
        print_store_profile(metrics)
        if servers:
            computed = [metric(text, "diloti_computer_move_seconds_count") for text in metrics]
            seconds = [metric(text, "diloti_computer_move_seconds_sum") for text in metrics]
            workers = Workers(sum(s.workers_cpu() for s in servers), sum(len(s.worker_cpu) for s in servers),
                              sorted({c for s in servers for c in s.worker_core.values()}),
                              sorted({core_of(s.proc.pid) for s in servers if s.killed_at is None}),
                              None if None in computed else int(sum(c or 0 for c in computed)),
                              None if None in seconds else sum(c or 0.0 for c in seconds))
        pg1 = postgres_cpu() if local_pg else {}
        probe.terminate()
        probe_out = (probe.communicate(timeout=10)[0] or "nan nan nan").split()
    finally:
        if probe.poll() is None:
            probe.kill()
        if proxy is not None:
            proxy.stop()
        stop_all(servers)
    check = check_database(db, out.ids, out.stats.acked, out.stats.seen) if db else None
    pg_cpu = sum(v - pg0.get(pid, 0.0) for pid, v in pg1.items())
    figures = report(args, out, check, servers, server_cpu, pg_cpu if local_pg else None, probe_out, load_start)
    if servers:
        # A table changes hands only when its process dies (docs/DEPLOY.md's alert): 0 in a run that kills none.
        took = [metric(text, "diloti_takeovers_total") for text in metrics]
        figures["takeovers"] = None if None in took else int(sum(t or 0 for t in took))
        print(f"takeovers (diloti_takeovers_total, the live servers): {figures['takeovers']}")
    if proxy is not None:
        lines = proxy.errors()
        figures["proxy"] = {"error_log_lines": len(lines)}
        print(f"nginx logged {len(lines)} lines at warn or above" + "".join(f"\n    {ln}" for ln in lines[:5]))
        proxy.cleanup()
    if check is not None:
        figures["games"] = check.digest
    if workers is not None and (args.bots or workers.processes):
        figures["core"] = core
        figures["workers"] = report_workers(out.stats, workers, core)
    if args.samples:
        with open(args.samples, "w") as f:
            f.write("kind,sent_s,latency_ms\n")
            for kind in ("own", "cross", "reply"):
                f.writelines(f"{kind},{t:.3f},{lat * 1000:.2f}\n" for t, lat in getattr(out.stats, kind))
            f.writelines(f"client_stall,{t:.3f},{lag * 1000:.2f}\n" for t, lag in out.stalls)
    if args.json:
        with open(args.json, "a") as f:
            f.write(json.dumps({"when": datetime.now(UTC).isoformat(timespec="seconds"),
                                "command": " ".join(sys.argv), **figures}) + "\n")
    st = out.stats
    ok = (st.finished == args.tables and not st.errors and (check is None or (
        not check.lost and not check.unstored and not check.gaps and not check.duplicates
        and not check.bad_replays and check.over == args.tables)))
    wrong_core = core is not None and workers is not None and any(c != core for c in workers.cores
                                                                   + workers.server_cores)
    return ok and not wrong_core, figures


def report_workers(st: Stats, w: Workers, core: str | None) -> dict[str, object]:
    """Print the computer moves against the CPU of the workers that computed them; returns the figures."""
    played = len(st.computer)
    moves = w.computed if w.computed is not None else played
    rate = moves / w.cpu if w.cpu > 0 else float("nan")
    per_move = 1000 * w.cpu / moves if moves else float("nan")
    print(f"computer moves: {played} played (announced to the players), "
          f"{'?' if w.computed is None else w.computed} computed by the workers (servers' metrics); "
          f"workers' CPU {w.cpu:.1f} s ({w.processes} process{'es' if w.processes != 1 else ''}, "
          f"core {'/'.join(w.cores) or 'none seen'}; servers' own core {'/'.join(w.server_cores)}): "
          f"{rate:.2f} computer moves per worker CPU-second ({per_move:.1f} ms a move)"
          + (f"; a computer move took {1000 * w.seconds / moves:.0f} ms of wall-clock time on average, waiting "
             "for the worker included (servers' metrics)" if w.seconds is not None and moves else ""))
    if core is not None and any(c != core for c in w.cores + w.server_cores):
        print(f"  error: asked for the {core} core, but the servers or their workers ran "
              f"{'/'.join(sorted(set(w.cores + w.server_cores)))}")
    return {"played": played, "computed": w.computed, "cpu": round(w.cpu, 2), "processes": w.processes,
            "cores": w.cores, "server_cores": w.server_cores, "moves_per_cpu_s": round(rate, 3),
            "cpu_ms_per_move": round(per_move, 2),
            "wall_ms_per_move": round(1000 * w.seconds / moves, 1) if w.seconds is not None and moves else None}


def print_side_by_side(figures: list[dict[str, object]]) -> None:
    """``--core both``: each pair's computer moves per worker CPU-second, compiled against pure."""
    by_core: dict[str, list[dict[str, Any]]] = {"compiled": [], "pure": []}
    for fig in figures:
        w = fig.get("workers")
        if isinstance(w, dict) and fig.get("core") in by_core:
            by_core[str(fig["core"])].append(w)
    digests = [str(fig.get("games")) for fig in figures]
    print(f"games stored: {'the same in every run' if len(set(digests)) == 1 else 'not the same in every run'} "
          f"(digests of the stored moves, run by run: {', '.join(digests)})")
    pairs = list(zip(by_core["compiled"], by_core["pure"], strict=False))
    if not pairs:
        return
    print("side by side: computer moves per worker CPU-second (worker CPU ms a move), compiled against pure")
    ratios = []
    for k, (c, p) in enumerate(pairs, 1):
        ratio = c["moves_per_cpu_s"] / p["moves_per_cpu_s"] if p["moves_per_cpu_s"] else float("nan")
        ratios.append(ratio)
        print(f"  pair {k}: compiled {c['moves_per_cpu_s']:.2f} ({c['cpu_ms_per_move']:.1f} ms, {c['computed']} "
              f"moves)  pure {p['moves_per_cpu_s']:.2f} ({p['cpu_ms_per_move']:.1f} ms, {p['computed']} moves)  "
              f"compiled / pure {ratio:.2f}")
    if len(pairs) > 1:
        c_med = statistics.median(c["moves_per_cpu_s"] for c, _ in pairs)
        p_med = statistics.median(p["moves_per_cpu_s"] for _, p in pairs)
        print(f"  median: compiled {c_med:.2f}  pure {p_med:.2f}  compiled / pure {c_med / p_med:.2f} "
              f"(the pairs' ratios {min(ratios):.2f} to {max(ratios):.2f})")


def fetch_metrics(urls: list[str]) -> list[str]:
    """Each server's /metrics text (Prometheus); a server that does not answer is left out, with a line."""
    import urllib.request

    texts = []
    for url in urls:
        try:
            texts.append(urllib.request.urlopen(f"{url}/metrics", timeout=10).read().decode())
        except OSError as exc:
            print(f"metrics of {url}: {exc}")
    return texts


def metric(text: str, name: str) -> float | None:
    """The value of an unlabelled sample ``name`` in a /metrics text (None when absent)."""
    import re

    m = re.search(rf"^{re.escape(name)} (\S+)$", text, flags=re.M)
    return float(m.group(1)) if m else None


def print_store_profile(texts: list[str]) -> None:
    """Where a move's time goes on the servers, from their own metrics (/metrics): the time from a move's
    arrival to its commit (the group commit's wait and the database), the rest being the engine, the
    messages and the event loop's queue."""
    import re

    buckets: dict[float, float] = {}
    total = 0.0
    for text in texts:
        for le, n in re.findall(r'^diloti_move_store_seconds_bucket\{le="([^"]+)"\} (\S+)$', text, flags=re.M):
            buckets[float(le)] = buckets.get(float(le), 0.0) + float(n)
        total += metric(text, "diloti_move_store_seconds_sum") or 0.0
    count = buckets.get(float("inf"), 0.0)
    if not count:
        return

    def upto(q: float) -> str:
        le = next(le for le in sorted(buckets) if buckets[le] >= q * count)
        return f"<= {le * 1000:g} ms" if le != float("inf") else "> 5 s"

    print(f"servers' metrics: {count:.0f} moves stored, arrival -> commit mean {total / count * 1000:.1f} ms, "
          f"p50 {upto(0.5)}, p90 {upto(0.9)}, p99 {upto(0.99)}")


def report(args: argparse.Namespace, out: Outcome, check: Check | None, servers: list[Server],
           server_cpu: list[float], pg_cpu: float | None, probe: list[str],
           load_start: tuple[float, float, float]) -> dict[str, object]:
    st, wall = out.stats, out.wall
    stored = check.stored if check else None
    sustained = sustained_rate(list(st.first_seen.values()))
    fig: dict[str, object] = {"tables": args.tables, "finished": st.finished, "errors": len(st.errors),
                              "stale": st.stale, "rate_limited": st.limited, "moves_by_players": st.moves,
                              "stored": stored,
                              "wall": round(wall, 1), "sustained_moves_per_s": round(sustained, 1),
                              "own": summary(st.own), "load_start": load_start[0]}
    print(f"games finished: {st.finished}/{args.tables}   errors: {len(st.errors)}   stale moves refused: {st.stale}   "
          f"moves over the message rate, sent again: {st.limited}")
    print(f"moves by players: {st.moves}   stored moves (incl. bots): {stored}   wall: {wall:.1f} s")
    rate = f"   stored moves/s: {stored / wall:.1f}" if stored else ""
    print(f"moves/s (players): {st.moves / wall:.1f}{rate}   sustained (10-90 % of the moves): {sustained:.1f}")
    print(line("latency (move -> its own played)", fig["own"]))  # type: ignore[arg-type]
    if st.cross:
        fig["cross"] = summary(st.cross)
        print(line("latency (move -> the other player's played)", fig["cross"]))  # type: ignore[arg-type]
    if st.reply:
        fig["reply"] = summary(st.reply)
        print(line("computer reply (own played -> the computer's played)", fig["reply"]))  # type: ignore[arg-type]
    if check is not None:
        fig["check"] = {"over": check.over, "lost": len(check.lost), "unstored": check.unstored,
                        "gaps": check.gaps, "duplicates": check.duplicates, "bad_replays": len(check.bad_replays)}
        print(f"database: {check.over}/{args.tables} games over and replaying; moves lost (acknowledged to the "
              f"mover, not stored): {len(check.lost)}; announced but not stored: {check.unstored}; "
              f"ply gaps: {check.gaps}; duplicate plies: {check.duplicates}; bad replays: {len(check.bad_replays)}")
        for x in (check.lost + check.bad_replays)[:10]:
            print("  lost or bad:", x)
    if out.killed_at is not None:
        rc = st.reconnects
        fig["kill"] = {"at": round(out.killed_at, 1), "drops": st.drops, "reconnected": len(rc),
                       "reconnect_p50": pct(rc, 50), "reconnect_max": max(rc) * 1000 if rc else float("nan"),
                       "orphans": out.orphans}
        after = [x for x in st.cross or st.own if out.killed_at <= x[0] <= out.killed_at + 10]
        fig["kill"]["latency_10s_after"] = summary(after)  # type: ignore[index]
        print(f"kill: server 0 killed at {out.killed_at:.1f} s; connections lost {st.drops}, back with a state "
              f"{len(rc)}; reconnect ms p50 {pct(rc, 50):.1f}  p99 {pct(rc, 99):.1f}  "
              f"max {fig['kill']['reconnect_max']:.1f}; its worker processes still running 5 s later: "  # type: ignore[index]
              f"{out.orphans}")
        print(line("  latency of the moves sent in the 10 s after the kill", summary(after)))
    if out.flood is not None:
        fl = out.flood
        main_lat = st.cross or st.own
        during = [s for s in main_lat if fl.start <= s[0] <= fl.end]
        rest = [s for s in main_lat if s[0] >= args.ramp and not fl.start - 1 <= s[0] <= fl.end + 1]
        span = fl.end - fl.start
        after = [s for s in main_lat if fl.end < s[0] <= fl.end + span]  # as long again, right after
        fig["flood"] = {"seconds": round(span, 2), "statuses": dict(fl.statuses),
                        "flooder_cpu": round(fl.cpu, 1), "server_cpu_during": round(fl.server_cpu, 1),
                        "server_cpu_after": round(fl.server_cpu_after, 1),
                        "accepted_per_server": {str(k): v for k, v in sorted(fl.accepted.items())},
                        "during": summary(during), "after": summary(after), "rest": summary(rest)}
        print(f"flood: {args.flood} creations from one address in {span:.2f} s: "
              f"{dict(sorted(fl.statuses.items()))}; accepted per server {dict(sorted(fl.accepted.items()))}; "
              f"the flooding process used {fl.cpu:.1f} CPU s; the servers {fl.server_cpu:.1f} CPU s during the "
              f"flood, {fl.server_cpu_after:.1f} in as long a time right after it")
        print(line("  latency of the players during the flood", fig["flood"]["during"]))  # type: ignore[index]
        print(line("  latency of the players in as long a time right after it", fig["flood"]["after"]))  # type: ignore[index]
        print(line("  latency of the players after the ramp, outside the flood", fig["flood"]["rest"]))  # type: ignore[index]
    client_cpu = time.process_time() - out.client_cpu0
    fig["cpu"] = {"servers": [round(c, 1) for c in server_cpu], "postgres": pg_cpu, "client": round(client_cpu, 1)}
    load_end = os.getloadavg()
    fig["load_end"] = load_end[0]
    fig["load_during"] = {"mean": round(statistics.fmean(out.loads), 1) if out.loads else None,
                          "max": round(max(out.loads), 1) if out.loads else None}
    fig["bystander_ms"] = probe
    per_move = 1000 * sum(server_cpu) / max(1, stored or st.moves)
    pg = f", PostgreSQL {pg_cpu:.1f} (all its processes)" if pg_cpu is not None else ""
    print(f"CPU seconds: server{'s' if len(servers) > 1 else ''} "
          f"{' + '.join(f'{c:.1f}' for c in server_cpu) or 'nan'} (with their worker processes){pg}, "
          f"load client {client_cpu:.1f} (servers {per_move:.2f} ms per move); "
          f"load average {load_end[0]:.1f} at the end ({load_start[0]:.1f} at the start; during the run, every 5 s: "
          f"mean {fig['load_during']['mean']}, max {fig['load_during']['max']}) on {os.cpu_count()} cores")  # type: ignore[index]
    print(f"scheduling delay of an idle bystander process, ms: p50 {probe[0]}  p99 {probe[1]}  max {probe[2]}")
    fig["client_lag_ms"] = [round(pct(out.lags, 50), 1), round(pct(out.lags, 99), 1), round(pct(out.lags, 100), 1)]
    print(f"event-loop delay of this load client (part of every latency above), ms: p50 {pct(out.lags, 50):.1f}  "
          f"p99 {pct(out.lags, 99):.1f}  max {pct(out.lags, 100):.1f}; stalls over 100 ms: {len(out.stalls)}"
          + (f", the longest at {max(out.stalls, key=lambda x: x[1])[0]:.1f} s" if out.stalls else ""))
    for e in st.errors[:10]:
        print("  error:", e)
    for s in servers:
        lines = s.log_lines()
        if lines:
            print(f"server {s.index} logged {len(lines)} lines ({s.log_path}); the first:")
            for ln in lines[:8]:
                print("   ", ln[:300])
    return fig


if __name__ == "__main__":
    sys.exit(main())
