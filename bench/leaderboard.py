"""How fast the players' queries are on a big database: the leaderboard, a profile, one game's rating update.

Generates ``--players`` players (default 100,000) and ``--games`` finished games (default 1,000,000:
70% two humans, 15% a human against a computer, 15% four humans) with their per-seat results and
each player's ratings, bulk-loaded into a fresh database (SQLite by default, ``--postgres URL`` for
PostgreSQL: its diloti tables are dropped first), or reused when it holds as many already. Then prints
the median time of:

- leaderboard pages (first, middle, last; 50 a page) of each mode, and the first with its player count
  (which the store keeps 30 s);
- a profile's queries (ratings with ranks, statistics, favourite opponents, rating history, first
  games page) of the player with the most games and of a typical one;
- one game's end with its rating update (:meth:`diloti.store.players.PlayerStore.finish`).

The ratings and results are generated, not computed by playing the games through the rating rules
(that would take hours and time nothing of interest here); the seats of the generated tables are
left out (a profile's games page then names guests by nothing, which costs the same lookup).

    .venv/bin/python bench/leaderboard.py                          # SQLite in /tmp, generated once, reused
    .venv/bin/python bench/leaderboard.py --postgres postgresql://postgres@127.0.0.1:54329/diloti_bench
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from diloti.server.ratings import rate_seats
from diloti.store.db import SeatData, Store, TableData
from diloti.store.players import GameResult, PlayerStore, SeatResult

LEVELS = ("random", "greedy", "heuristic", "expert")
TABLES = ("results", "ratings", "player_stats", "player_keys", "chat", "moves", "seats", "tables", "players",
          "alembic_version")


def bulk(store: Store, table: str, columns: list[str], rows: Iterable[tuple[Any, ...]], chunk: int = 50_000) -> int:
    """Insert rows fast: executemany on SQLite, COPY on PostgreSQL."""
    raw: Any = store.engine.raw_connection()
    n = 0
    try:
        cur = raw.cursor()
        if store.is_postgres:
            with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
                    n += 1
        else:
            sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
            batch: list[tuple[Any, ...]] = []
            for row in rows:
                batch.append(row)
                if len(batch) >= chunk:
                    cur.executemany(sql, batch)
                    n += len(batch)
                    batch.clear()
            cur.executemany(sql, batch)
            n += len(batch)
        raw.commit()
    finally:
        raw.close()
    return n


def generate(store: Store, players: int, games: int, seed: int) -> None:
    rng = random.Random(seed)
    t0 = time.perf_counter()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    pid = [f"p{i:07d}" for i in range(players)]
    skill = [rng.gauss(25.0, 6.0) for _ in range(players)]
    # A few players play a lot: game i's players are drawn with weights (a long tail).
    weights = [1.0 / (1 + i) ** 0.6 for i in range(players)]
    rng.shuffle(weights)
    cum = list(itertools.accumulate(weights))
    bulk(store, "players", ["id", "name", "name_key", "created", "seen"],
         ((p, f"Player {i}", f"player {i}", start, start) for i, p in enumerate(pid)))
    counts: dict[tuple[int, str], list[int]] = {}  # (player, mode) -> [games, wins, losses]
    totals: dict[tuple[int, str], list[int]] = {}  # (player, 2p or 4p) -> [games, won, lost, xeris, points, rounds]

    def game_rows() -> Iterable[tuple[Any, ...]]:
        for g in range(games):
            kind = rng.random()
            mode, humans = ("2p", 2) if kind < 0.7 else (("2p", 1) if kind < 0.85 else ("4p", 4))
            who = rng.choices(range(players), cum_weights=cum, k=humans)
            seats = 4 if mode == "4p" else 2
            winner = rng.randrange(2)
            finished = start + timedelta(seconds=g * 30)
            rounds = rng.randint(4, 9)
            pts = [rng.randint(20, 60), rng.randint(20, 60)]
            pts[winner] = max(pts[winner], 61)
            level = rng.choice(LEVELS)
            for seat in range(seats):
                side = seat & 1
                p = who[seat] if seat < humans else None
                xeris = rng.randint(0, 2)
                if p is not None:
                    for m in (mode, "overall"):
                        c = counts.setdefault((p, m), [0, 0, 0])
                        c[0] += 1
                        c[1 if side == winner else 2] += 1
                    t = totals.setdefault((p, mode), [0, 0, 0, 0, 0, 0])
                    for k, v in enumerate((1, side == winner, side != winner, xeris, pts[side], rounds)):
                        t[k] += int(v)
                mu = skill[p] + rng.gauss(0, 1) if p is not None else None
                sigma = max(1.0, 8.3 - 0.3 * counts[(p, mode)][0]) if p is not None else None
                yield (f"g{g:08d}", seat, pid[p] if p is not None else None, "human" if p is not None else "bot",
                       None if p is not None else level, side, mode, True, side == winner, pts[side], pts[1 - side],
                       rounds, xeris, None, finished, mu, sigma, mu, sigma)

    bulk(store, "tables", ["id", "players", "options", "seed", "first_dealer", "private", "status", "winner",
                           "created", "updated", "scored"],
         ((f"g{g:08d}", 2, "{}", g, 0, False, "over", 0, start, start, True) for g in range(games)))
    n = bulk(store, "results", ["table_id", "seat", "player_id", "kind", "level", "side", "mode", "rated", "won",
                                "points", "against", "rounds", "xeris", "end_reason", "finished", "mu", "sigma",
                                "omu", "osigma"], game_rows())
    stamp = start + timedelta(seconds=games * 30)
    bulk(store, "ratings", ["player_id", "mode", "mu", "sigma", "score", "games", "wins", "losses", "updated"],
         ((pid[p], m, skill[p], max(1.0, 8.3 - 0.3 * c[0]), skill[p] - 3 * max(1.0, 8.3 - 0.3 * c[0]), c[0], c[1],
           c[2], stamp) for (p, m), c in counts.items()))
    bulk(store, "player_stats", ["player_id", "mode", "games", "won", "lost", "xeris", "points", "rounds"],
         ((pid[p], m, *t) for (p, m), t in totals.items()))
    if store.is_postgres:  # what autovacuum does after a bulk load: statistics, and the visibility map
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.execute(text("VACUUM ANALYZE"))
    else:
        with store.engine.begin() as conn:
            conn.execute(text("ANALYZE"))
    print(f"generated {players:,} players, {games:,} games ({n:,} result rows, {len(counts):,} ratings) in "
          f"{time.perf_counter() - t0:.0f} s", flush=True)


def have_counts(conn: Any) -> tuple[Any, Any]:
    """The players and generated games a database holds already."""
    return (conn.execute(text("SELECT count(*) FROM players")).scalar(),
            conn.execute(text("SELECT count(*) FROM tables WHERE id LIKE 'g%'")).scalar())


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    fn()  # warm
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def profile(ps: PlayerStore, pid: str) -> None:
    ps.profile_data(pid, ("overall", "2p", "4p"), 10)  # what GET /api/players/{id} reads, in one snapshot


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--db", default="/tmp/diloti-leaderboard.sqlite3", help="the SQLite file (reused if it holds "
                    "the same numbers of players and games)")
    ap.add_argument("--postgres", help="a PostgreSQL URL instead (its diloti tables are dropped first)")
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    url = args.postgres or f"sqlite:///{args.db}"
    fresh = True
    if args.postgres:
        store = Store(url, migrate=False)
        try:
            with store.engine.connect() as conn:
                fresh = have_counts(conn) != (args.players, args.games)
        except Exception:
            fresh = True
        if fresh:
            with store.engine.begin() as conn:
                for name in TABLES:
                    conn.execute(text(f"DROP TABLE IF EXISTS {name} CASCADE"))
        store.migrate()
    else:
        if os.path.exists(args.db):
            store = Store(url)
            with store.engine.connect() as conn:
                fresh = have_counts(conn) != (args.players, args.games)
            if fresh:
                store.close()
                for suffix in ("", "-wal", "-shm"):
                    if os.path.exists(args.db + suffix):
                        os.remove(args.db + suffix)
        if fresh:
            store = Store(url)
    if fresh:
        generate(store, args.players, args.games, args.seed)
    ps = PlayerStore(store)
    print(f"database: {store.engine.dialect.name}; median of {args.repeat} runs")
    def count() -> None:
        ps._counts.clear()
        ps.leaderboard("overall", 0, 50)

    ms = median_ms(count, args.repeat)
    print(f"  leaderboard overall first page with its player count (kept {ps.COUNT_SECONDS:g} s): {ms:7.2f} ms")
    for mode in ("overall", "2p", "4p"):
        total = ps.leaderboard(mode, 0, 1)[0]
        last = max(0, (total - 1) // 50)
        for name, page in (("first", 0), ("middle", last // 2), ("last", last)):
            ms = median_ms(lambda page=page, mode=mode: ps.leaderboard(mode, page * 50, 50), args.repeat)
            print(f"  leaderboard {mode:7} {name:6} page ({page + 1:5} of {last + 1}, {total:,} players): {ms:7.2f} ms")
    with store.engine.connect() as conn:
        busiest = conn.execute(text("SELECT player_id, games FROM ratings WHERE mode = 'overall' "
                                    "ORDER BY games DESC LIMIT 1")).one()
        typical = conn.execute(text("SELECT player_id, games FROM ratings WHERE mode = 'overall' ORDER BY games "
                                    "LIMIT 1 OFFSET (SELECT count(*) / 2 FROM ratings WHERE mode = 'overall')")).one()
    for label, (pid, games) in (("busiest", busiest), ("typical", typical)):
        ms = median_ms(lambda pid=pid: profile(ps, pid), args.repeat)
        print(f"  profile of the {label} player ({games:,} games): {ms:7.2f} ms")
    rng = random.Random(args.seed + 1)
    counter = [0]

    def one_game() -> float:
        counter[0] += 1
        tid = f"bench{os.getpid()}x{counter[0]}"
        a, b = (f"p{rng.randrange(args.players):07d}" for _ in range(2))
        store.create_table(TableData(tid, 2, {}, 1, 0, False, "playing", seats=[
            SeatData(0, "human", None, "A", "a" * 64, player_id=a), SeatData(1, "human", None, "B", "b" * 64,
                                                                             player_id=b)]))
        result = GameResult(tid, "2p", rng.randrange(2), None, a != b,
                            [SeatResult(0, "human", None, a, 0, 61, 40, 6, 1), SeatResult(1, "human", None, b, 1, 40,
                                                                                           61, 6, 0)])
        t = time.perf_counter()
        ps.finish(result, rate_seats)
        return time.perf_counter() - t

    one_game()
    ms = statistics.median(one_game() for _ in range(args.repeat)) * 1000
    print(f"  a game's end with its rating update: {ms:7.2f} ms")
    store.close()


if __name__ == "__main__":
    main()
