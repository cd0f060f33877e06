"""All levels on one scale: Elo with 95% intervals fitted by maximum likelihood from every pair in bench/results.

Usage: .venv/bin/python bench/ratings.py [--players 2] [--prior 1] [--anchor PLAYER] [FILES...]

Reads the ladder's per-game files (``A_vs_B_Pp_seedS.jsonl``, as bench/ladder.py and
``diloti tournament --results`` write them), counts each game as a win, a loss or half of
each (a draw), and fits one rating per player as Ordo and BayesElo do
(:func:`diloti.match.elo.fit_elo`): the Bradley-Terry model on the Elo scale,
P(A beats B) = 1 / (1 + 10 ** ((R_B - R_A) / 400)), by maximum likelihood, the ratings
relative to the players' average (or to ``--anchor``). Every pair of players that met gets
``--prior`` virtual drawn games (default 1), so a player that won or lost every game
still gets a finite rating (``random`` never wins: its rating rests on the prior). The
95% intervals come from the fit's covariance, the larger of the model's and the one the
duplicate pairs themselves show. A player spec with settings
(``expert:iterations=300,seconds=none``) is its own player, except that
``expert:iterations=300,seconds=none`` is ``expert`` (the default expert never reaches
its time cap; docs/STRENGTH.md).
"""

from __future__ import annotations

import argparse
import glob
import json
import re

from diloti.match.elo import RatingError, fit_elo

NAME = re.compile(r"(?P<a>[^/]+)_vs_(?P<b>.+)_(?P<p>[24])p_seed(?P<seed>\d+)\.jsonl$")
GAMES = ("xeri_", "kontsina_")
# The expert's 300 playouts rarely meet its 1 s cap on either clock, so these play the same moves as ``expert``.
ALIASES = {"expert-iterations=300,seconds=none": "expert", "expert-cpu": "expert"}

Pairs = list[tuple[float, float]]  # per duplicate pair: A's score in each of its two games


def load(paths: list[str], players: int) -> dict[tuple[str, str], Pairs]:
    """(A, B) -> A's scores per duplicate pair, over every matching file."""
    out: dict[tuple[str, str], Pairs] = {}
    for path in paths:
        m = NAME.search(path)
        if not m or int(m["p"]) != players or m["a"].startswith(GAMES):
            continue  # another table size, or Xeri's and Kontsina's ladders (their own games, not this scale)
        a, b = (ALIASES.get(x, x) for x in (m["a"], m["b"]))
        games: dict[int, list[float]] = {}
        with open(path) as f:
            for line in f:
                if line.strip():
                    g = json.loads(line)
                    games.setdefault(g["index"] // 2, []).append(
                        {"a": 1.0, "b": 0.0}.get(g["winner"], 0.5))
        pairs = [(p[0], p[1]) for p in games.values() if len(p) == 2]
        out.setdefault((a, b), []).extend(pairs)
    return out


def components(data: dict[tuple[str, str], Pairs]) -> list[dict[tuple[str, str], Pairs]]:
    """The matches split by the groups of players that games connect (directly or through others), most
    games first: only players of one group can be put on one scale."""
    group: dict[str, str] = {}

    def root(x: str) -> str:
        while group.setdefault(x, x) != x:
            x = group[x]
        return x

    for a, b in data:
        group[root(a)] = root(b)
    out: dict[str, dict[tuple[str, str], Pairs]] = {}
    for (a, b), pairs in data.items():
        out.setdefault(root(a), {})[(a, b)] = pairs
    return sorted(out.values(), key=lambda d: -sum(len(p) for p in d.values()))


def table(data: dict[tuple[str, str], Pairs], prior: float, anchor: str | None) -> None:
    """One scale's table (markdown) for the matches of one group of players."""
    fit = fit_elo(data, prior=prior, anchor=anchor)
    ref = f"{anchor} = 0" if anchor else "average 0"
    print(f"| player | Elo ({ref}) | 95% interval | games | above the next (95% interval) |")
    print("|---|---|---|---|---|")
    ranked = sorted(fit.ratings.values(), key=lambda r: -r.elo)
    for r, below in zip(ranked, [*ranked[1:], None], strict=True):
        gap = ""
        if below is not None:
            d = fit.difference(r.name, below.name)
            gap = f"{d.elo:+.0f} ({d.low:+.0f} .. {d.high:+.0f})"
        print(f"| {r.name} | {r.elo:+.0f} | {r.low:+.0f} .. {r.high:+.0f} | {r.games} | {gap} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--players", type=int, default=2, choices=(2, 4))
    ap.add_argument("--prior", type=float, default=1.0, help="virtual drawn games a pair of players (default 1)")
    ap.add_argument("--anchor", default=None, help="the player at 0 (default: the average is 0)")
    args = ap.parse_args()
    data = load(args.files or sorted(glob.glob("bench/results/*.jsonl")), args.players)
    if not data:
        ap.error(f"no {args.players}-player results among the files given")
    print(f"{args.players} players; {sum(len(p) for p in data.values()) * 2} games over {len(data)} matches; "
          f"{args.prior:g} virtual draw(s) a pair of players\n")
    groups = components(data)
    if args.anchor and not any(args.anchor in ab for g in groups for ab in g):
        ap.error(f"invalid --anchor {args.anchor!r}: no such player in these results")
    try:
        for i, group in enumerate(groups):
            if i:  # a scale of its own: these players never met the others', directly or through others
                names = sorted({x for ab in group for x in ab})
                print(f"\nNot connected to the players above, so on a scale of their own: {', '.join(names)}\n")
            table(group, args.prior, args.anchor if any(args.anchor in ab for ab in group) else None)
    except RatingError as exc:
        raise SystemExit(f"bench/ratings.py: {exc}") from None


if __name__ == "__main__":
    main()
