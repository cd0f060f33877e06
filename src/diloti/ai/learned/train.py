"""Training the learned player by expert iteration: self-play positions, the search's moves, imitation.

Expert iteration (ExIt; AlphaZero's loop with a search as the policy-improvement operator): the *apprentice* (the
network) and a fixed *expert* (a search level, by default the master at a budget of playouts) take turns.

1. **Positions by self-play.** Rounds of the game are played by the behaviour policy: in the first iteration the
   heuristic level, in each later one the current network, drawing its moves from its softmax (temperature 1);
   each move is replaced by a uniformly random legal one with probability ``eps`` (positions off the policy's
   path). The rounds are dealt from seeds drawn from ``--seed``, split over ``--workers`` processes.
2. **Labels by search.** At every decision with more than one legal move (a move the game takes by rule
   excepted), the teacher chooses from the seat's own view: the label is its move.
3. **Imitation.** The network is trained from scratch on every position labelled so far (all iterations):
   cross-entropy of the teacher's move under the softmax of the network's scores over the legal moves (the
   mask), Adam, minibatches.

The positions, labels and the network are reproducible from ``--seed``: every seed, the teacher's included,
derives from it, the workers' chunks are fixed whatever their number, and torch runs on one thread.

    python -m diloti.ai.learned.train --seed 1 --rounds 2000,600 --margin 0.5 \\
        --out src/diloti/ai/learned/data/diloti-2p.npz

(the shipped file's command: 39 core-minutes; ``--margin`` only its player reads; ``--soft`` and ``--start`` learn the
teacher's values, kept beside its moves, and go on from a file: docs/RESEARCH.md says what they measured)
needs torch (the ``learned-train`` extra) and prints, at the end, what it cost: the CPU seconds of the
workers and of the training, as core-minutes. A tiny run (seconds): ``--rounds 2 --teacher heuristic
--epochs 1``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from diloti.ai import make_player
from diloti.ai.errors import PlayerError
from diloti.ai.games import players_part
from diloti.ai.learned import LearnedPlayer
from diloti.ai.learned.features import MOVE_SIZE, POSITION_SIZE, move_features, position_features
from diloti.ai.learned.network import FORMAT, Network, load_weights, new_meta
from diloti.core.moves import Move
from diloti.core.registry import find_game
from diloti.core.seeds import derive_seed

DEFAULT_TEACHER = "master:iterations=200,seconds=none,width=5,infer=0,counted=99"
MAX_MOVES = 256  # a decision with more legal moves (a table grown by lays) is not learned from: rare, and costly
HEURISTIC_START = 20.0  # the skip's first weight on the heuristic score (points / 10): a point is 2 of logit
LABELS = "labels-3"  # what a cached iteration holds: the teacher's move and its values (read back only if the same)
CHUNK = 10  # rounds a worker's task: the chunks, and so the data, do not depend on the number of workers


@dataclass
class Batch:
    """Labelled positions: position rows, the legal moves' rows (all decisions', concatenated), each decision's
    first move row and move count, the index of the teacher's move among its legal moves, and the teacher's value
    of each move row in round points (NaN: a move it did not value, outside its candidates)."""

    positions: npt.NDArray[np.float32]
    moves: npt.NDArray[np.float16]
    starts: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    labels: npt.NDArray[np.int64]
    values: npt.NDArray[np.float32]
    cpu: float = 0.0

    @staticmethod
    def join(parts: list[Batch]) -> Batch:
        counts = np.concatenate([p.counts for p in parts])
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        return Batch(np.concatenate([p.positions for p in parts]), np.concatenate([p.moves for p in parts]),
                     starts, counts, np.concatenate([p.labels for p in parts]),
                     np.concatenate([p.values for p in parts]), sum(p.cpu for p in parts))

    def __len__(self) -> int:
        return len(self.labels)


def _behaviour(spec: str | None, seed: int) -> Any:
    """The self-play policy: a level's spec, or the path of a network (drawn from at temperature 1)."""
    if spec is None or not spec.endswith(".npz"):
        return make_player(spec or "heuristic", seed=seed)
    return LearnedPlayer(seed, temperature=1.0, weights=spec)


def teacher_values(teacher: Any, view: Any) -> tuple[Move, dict[Move, float]]:
    """The teacher's move at ``view`` and its value of each move it weighed, in round points for the mover's side.

    A search level (``estimates``) gives its candidates' means, its move the one it plays (the survivor of its
    halving, valued at least as the best of the others: the survivor's mean rests on the most worlds); an exact
    position (2 players, the stock empty) gives every legal move's exact value (:func:`diloti.ai.exact.solve_view`)
    and the teacher's own move. Any other teacher gives its move alone (no values)."""
    from diloti.ai.exact import is_exact, solve_view

    if getattr(teacher, "exact", False) and is_exact(view):
        move = teacher.choose(view)  # the solver's own best (of equal ones, the one the master plays)
        exact = solve_view(view)
        if exact is None:
            return move, {}
        values = {m: float(v) for m, v in exact.items()}
        values[move] = max(values.values())  # the same, unless the player's solver ran out of its limits
        return move, values
    estimates = getattr(teacher, "estimates", None)
    if estimates is None:
        return teacher.choose(view), {}
    found = estimates(view)
    values = {e.move: float(e.mean) for e in found if e.weight > 0}
    move = found[0].move
    if values and move in values:
        values[move] = max(values.values())
    return move, values


def generate(task: tuple[str, int, int, str | None, str, float, int]) -> Batch:
    """Play ``count`` rounds (seeds ``seed0 ..``) with the behaviour policy, labelling each decision by the teacher."""
    game, players, seed0, behaviour, teacher_spec, eps, count = task
    start = time.process_time()
    info = find_game(game)
    positions: list[npt.NDArray[np.float32]] = []
    moves: list[npt.NDArray[np.float32]] = []
    labels: list[int] = []
    values: list[npt.NDArray[np.float32]] = []
    for k in range(count):
        seed = seed0 + k
        rng = random.Random(derive_seed("learned-behaviour", seed))
        state = info.new_state(players=players, dealer=seed % players, seed=derive_seed("learned-deal", seed))
        actors = [_behaviour(behaviour, derive_seed("learned-actor", seed, s)) for s in range(players)]
        teacher = make_player(teacher_spec, seed=derive_seed("learned-teacher", seed))
        while True:
            view = state.view(state.turn)
            legal = view.legal
            if not legal or not view.to_move:
                break
            if len(legal) > 1 and len(legal) <= MAX_MOVES and players_part(view).ruled_move(view) is None:
                label, valued = teacher_values(teacher, view)
                positions.append(position_features(view))
                moves.append(move_features(view))
                labels.append(legal.index(label))
                values.append(np.array([valued.get(m, np.nan) for m in legal], dtype=np.float32))
            move = rng.choice(legal) if rng.random() < eps else actors[state.turn].choose(view)
            state.push(move)
    counts = np.array([len(m) for m in moves], dtype=np.int64)
    return Batch(np.array(positions, dtype=np.float32).reshape(-1, POSITION_SIZE),
                 (np.concatenate(moves) if moves else np.zeros((0, MOVE_SIZE))).astype(np.float16),
                 np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64) if len(counts) else counts,
                 counts, np.array(labels, dtype=np.int64),
                 np.concatenate(values) if values else np.zeros(0, dtype=np.float32), time.process_time() - start)


def _save(path: Path, key: str, batch: Batch) -> None:
    """Write ``batch`` with its ``key`` to ``path`` (whole or not at all: a stopped run leaves no half file)."""
    part = path.with_name(path.name + ".part")
    with open(part, "wb") as out:
        np.savez(out, key=np.array(key), positions=batch.positions, moves=batch.moves, starts=batch.starts,
                 counts=batch.counts, labels=batch.labels, values=batch.values, cpu=np.array(batch.cpu))
    part.replace(path)


def _load(path: Path, key: str) -> Batch | None:
    """The batch kept in ``path`` if it was made by ``key``'s inputs, else None."""
    if not path.exists():
        return None
    with np.load(path, allow_pickle=False) as f:
        if str(f["key"]) != key or "values" not in f.files:
            return None
        return Batch(f["positions"], f["moves"], f["starts"], f["counts"], f["labels"], f["values"], float(f["cpu"]))


def chunk(task: tuple[tuple[str, int, int, str | None, str, float, int], str | None, str]) -> Batch:
    """A chunk's positions: read back from its file when its key matches, else generated (and kept there)."""
    inputs, where, key = task
    path = None if where is None else Path(where)
    if path is not None:
        found = _load(path, key)
        if found is not None:
            found.cpu = 0.0  # spent by an earlier run: counted there
            return found
    batch = generate(inputs)
    if path is not None:
        _save(path, key, batch)
    return batch


def collect(game: str, players: int, seed: int, iteration: int, rounds: int, behaviour: str | None, teacher: str,
            eps: float, workers: int, cache: Path | None = None) -> Batch:
    """An iteration's labelled positions, from ``rounds`` rounds in chunks of :data:`CHUNK`, over ``workers``.

    With ``cache`` (a folder) each chunk is kept in it as it ends and read back when every input that made it
    (the seed, the iteration, the chunk's rounds, the teacher, ``eps``, the behaviour network's bytes) is the same:
    a stopped run resumes, and a recipe's fitting can be changed and run again without playing and labelling
    again."""
    base = derive_seed("learned-iteration", seed, iteration) % (1 << 40)
    made_by = hashlib.sha256(Path(behaviour).read_bytes()).hexdigest() if behaviour else "heuristic"
    folder = None if cache is None else cache / f"iteration-{iteration + 1}"
    if folder is not None:
        folder.mkdir(exist_ok=True)
    tasks = []
    for at in range(0, rounds, CHUNK):
        inputs = (game, players, base + at, behaviour, teacher, eps, min(CHUNK, rounds - at))
        key = json.dumps([FORMAT, LABELS, game, players, seed, iteration, at, inputs[-1], made_by, teacher, eps])
        tasks.append((inputs, None if folder is None else str(folder / f"chunk-{at:05d}.npz"), key))
    if workers <= 1:
        parts = [chunk(t) for t in tasks]
    else:
        import diloti.ai.learned.train as module  # by its own name: a spawned worker imports it so, not as __main__

        # Spawned, not forked: the parent has torch loaded (and its thread pools) after the first iteration.
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(module.chunk, tasks, chunksize=1)
    return Batch.join(parts)


def fit(data: Batch, hidden: int, epochs: int, seed: int, lr: float = 2e-3, batch: int = 256,
        decay: float = 1e-3, log: Any = None,
        soft: float = 0.0,
        start: Network | None = None) -> tuple[dict[str, npt.NDArray[np.float32]], dict[str, float]]:
    """Train a network from scratch on ``data``: masked cross-entropy to the teacher's move (``soft`` 0) or, with
    ``soft`` T > 0 (points), to the softmax of the teacher's values at temperature T over the moves it valued (none
    on the others; a position without values keeps its move), so the loss weighs each move by what the search
    thinks it is worth, not only its best. Returns its arrays and the held-out figures (a tenth of the positions,
    by a seeded draw): the agreement with the teacher, of the network and of the heuristic's best move (a
    baseline), and with values the mean points the network's move gives up against the teacher's best
    (``regret``, over the held-out positions whose chosen move it valued; ``unvalued``: the share it did not).

    The network starts as the heuristic's softmax (the skip's weight on the heuristic score, the hidden layers'
    output zero), or as ``start`` (a trained network of the same size: its arrays go on learning), and is kept at
    the epoch of least held-out loss (early stopping), with AdamW's weight decay: the hidden layers learn the
    teacher's departures from the heuristic only as far as the positions bear them out.
    """
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    n = len(data)
    order = np.random.default_rng(seed).permutation(n)
    held = order[: n // 10] if n >= 20 else order[:0]
    train = order[len(held):]
    first = (2.0 / (POSITION_SIZE + MOVE_SIZE)) ** 0.5  # He's scale for the first layer's joined input
    skip = torch.zeros(MOVE_SIZE)
    skip[_heuristic_column()] = HEURISTIC_START
    params = {
        "W_position": torch.nn.Parameter(torch.randn(POSITION_SIZE, hidden) * first),
        "W_move": torch.nn.Parameter(torch.randn(MOVE_SIZE, hidden) * first),
        "b1": torch.nn.Parameter(torch.zeros(hidden)),
        "W2": torch.nn.Parameter(torch.randn(hidden, hidden) * (2.0 / hidden) ** 0.5),
        "b2": torch.nn.Parameter(torch.zeros(hidden)),
        "w3": torch.nn.Parameter(torch.zeros(hidden)),
        "b3": torch.nn.Parameter(torch.zeros(())),
        "w_skip": torch.nn.Parameter(skip),
    }
    if start is not None:
        for name, p in params.items():
            p.data.copy_(torch.from_numpy(np.asarray(getattr(start, name), dtype=np.float32)))
    optimiser = torch.optim.AdamW(params.values(), lr=lr, weight_decay=decay)
    moves_all = torch.from_numpy(data.moves.astype(np.float32))
    positions_all = torch.from_numpy(data.positions)

    def logits(idx: npt.NDArray[np.int64]) -> Any:
        counts = data.counts[idx]
        width = int(counts.max())
        rows = data.starts[idx][:, None] + np.arange(width)[None, :]
        valid = np.arange(width)[None, :] < counts[:, None]
        rows = np.where(valid, rows, 0)
        m = moves_all[torch.from_numpy(rows)]  # (B, width, MOVE_SIZE)
        p = positions_all[torch.from_numpy(idx)] @ params["W_position"]  # (B, hidden)
        h1 = torch.relu(m @ params["W_move"] + (p + params["b1"])[:, None, :])
        h2 = torch.relu(h1 @ params["W2"] + params["b2"])
        out = h2 @ params["w3"] + params["b3"] + m @ params["w_skip"]
        return out.masked_fill(~torch.from_numpy(valid), float("-inf"))

    values_all = data.values if len(data.values) == len(data.moves) else np.full(len(data.moves), np.nan, np.float32)

    def targets(idx: npt.NDArray[np.int64]) -> Any:
        """Each position's target distribution over its legal moves (B, width), zero past its count."""
        counts = data.counts[idx]
        width = int(counts.max())
        rows = data.starts[idx][:, None] + np.arange(width)[None, :]
        valid = np.arange(width)[None, :] < counts[:, None]
        v = np.where(valid, values_all[np.where(valid, rows, 0)], np.nan)
        known = np.isfinite(v)
        out = np.zeros((len(idx), width), dtype=np.float32)
        if soft > 0:
            z = np.where(known, v, -np.inf) / soft
            top = np.max(z, axis=1, keepdims=True)
            has = np.isfinite(top[:, 0])
            e = np.where(known, np.exp(z - np.where(np.isfinite(top), top, 0.0)), 0.0)
            out[has] = (e[has] / e[has].sum(axis=1, keepdims=True)).astype(np.float32)
            plain = ~has
        else:
            plain = np.ones(len(idx), dtype=bool)
        out[np.nonzero(plain)[0], data.labels[idx][plain]] = 1.0
        return torch.from_numpy(out)

    def loss_of(out: Any, idx: npt.NDArray[np.int64], reduction: str = "mean") -> Any:
        """The cross-entropy of the targets under the softmax of ``out`` (illegal moves are -inf: weight 0)."""
        if soft <= 0:  # the teacher's move: torch's own, as the recipe always computed it (the same arrays)
            return torch.nn.functional.cross_entropy(out, torch.from_numpy(data.labels[idx]), reduction=reduction)
        logp = torch.log_softmax(out, dim=1).masked_fill(torch.isinf(out), 0.0)
        per = -(targets(idx) * logp).sum(dim=1)
        return per.sum() if reduction == "sum" else per.mean()

    def held_out() -> tuple[float, float]:
        if not len(held):
            return 0.0, 0.0
        with torch.no_grad():
            losses, right = 0.0, 0
            for at in range(0, len(held), 1024):
                idx = held[at:at + 1024]
                out = logits(idx)
                target = torch.from_numpy(data.labels[idx])
                losses += float(loss_of(out, idx, "sum"))
                right += int((out.argmax(1) == target).sum())
        return losses / len(held), right / len(held)

    def regret(picks: npt.NDArray[np.int64]) -> tuple[float, float]:
        """Over the held-out positions with values: the mean of (teacher's best value - value of the pick) where
        the pick was valued, and the share where it was not."""
        lost, seen, unvalued = 0.0, 0, 0
        for i, p in zip(held, picks, strict=True):
            v = values_all[data.starts[i]:data.starts[i] + data.counts[i]]
            if not np.isfinite(v).any():
                continue
            if np.isfinite(v[p]):
                lost += float(np.nanmax(v) - v[p])
                seen += 1
            else:
                unvalued += 1
        total = seen + unvalued
        return (lost / seen if seen else 0.0), (unvalued / total if total else 0.0)

    rng = np.random.default_rng(seed + 1)
    best_loss, best_agreement = held_out()
    best = {name: p.detach().clone() for name, p in params.items()}
    best_epoch = 0
    if log is not None:
        log(f"  start (the heuristic's softmax): held-out loss {best_loss:.4f}, agreement {best_agreement:.3f}")
    for epoch in range(epochs):
        rng.shuffle(train)
        total = 0.0
        for at in range(0, len(train), batch):
            idx = train[at:at + batch]
            loss = loss_of(logits(idx), idx)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(idx)
        loss_held, agreement = held_out()
        if log is not None:
            log(f"  epoch {epoch + 1}/{epochs}: loss {total / max(1, len(train)):.4f}, held out {loss_held:.4f}, "
                f"agreement {agreement:.3f}")
        if loss_held < best_loss or not len(held):
            best_loss, best_agreement, best_epoch = loss_held, agreement, epoch + 1
            best = {name: p.detach().clone() for name, p in params.items()}
    figures: dict[str, float] = {"positions": float(n), "held_out": float(len(held)), "epoch": float(best_epoch)}
    if len(held):
        figures["held_out_loss"] = best_loss
        figures["agreement"] = best_agreement
        best_h = np.array([int(np.argmax(data.moves[s:s + c, _heuristic_column()].astype(np.float32)))
                           for s, c in zip(data.starts[held], data.counts[held], strict=True)])
        figures["heuristic_agreement"] = float((best_h == data.labels[held]).mean())
        for name, p in params.items():
            p.data.copy_(best[name])
        with torch.no_grad():
            picks = np.concatenate([logits(held[at:at + 1024]).argmax(1).numpy() for at in range(0, len(held), 1024)])
        figures["regret"], figures["unvalued"] = regret(picks)
        figures["heuristic_regret"], figures["heuristic_unvalued"] = regret(best_h)
    arrays = {name: p.numpy().astype(np.float32) for name, p in best.items()}
    return arrays, figures


def _heuristic_column() -> int:
    from diloti.ai.learned.features import MOVE

    column: int = MOVE["heuristic"].start
    return column


def main(argv: list[str] | None = None) -> int:
    """The command (see the module's text); 2 for bad arguments, with a one-line error."""
    ap = argparse.ArgumentParser(prog="python -m diloti.ai.learned.train",
                                 description="Train the learned player by expert iteration (docs/RESEARCH.md).")
    ap.add_argument("--seed", type=int, default=1, help="every seed derives from it (default 1)")
    ap.add_argument("--out", required=True, help="the weights file to write (.npz)")
    ap.add_argument("--game", default="diloti", help="the game (default diloti)")
    ap.add_argument("--players", type=int, default=2, help="player count (default 2)")
    ap.add_argument("--rounds", default="400,150",
                    help="rounds of self-play in each iteration, comma separated (default 400,150: two "
                         "iterations)")
    ap.add_argument("--teacher", default=DEFAULT_TEACHER, help=f"the search that labels (default {DEFAULT_TEACHER})")
    ap.add_argument("--eps", type=float, default=0.1, help="share of random moves in self-play (default 0.1)")
    ap.add_argument("--hidden", type=int, default=128, help="hidden units a layer (default 128)")
    ap.add_argument("--epochs", type=int, default=6, help="training epochs an iteration, at most (default 6)")
    ap.add_argument("--start", help="a weights file (.npz, the same --hidden) every fit goes on from, instead of "
                                    "the heuristic's softmax")
    ap.add_argument("--margin", type=float, default=0.0,
                    help="the margin the player's network must score a move above the heuristic's best to play it "
                         "instead, kept in the weights' meta (default 0: its best move)")
    ap.add_argument("--soft", type=float, default=0.0,
                    help="learn the softmax of the teacher's values at this temperature in points instead of its "
                         "move alone (default 0: its move)")
    ap.add_argument("--workers", type=int, default=2, help="processes generating positions (default 2)")
    ap.add_argument("--data", help="a folder keeping each iteration's labelled positions (read back when the same)")
    args = ap.parse_args(argv)
    try:
        rounds = [int(r) for r in str(args.rounds).split(",") if r.strip()]
    except ValueError:
        ap.error(f"invalid --rounds {args.rounds!r}: expected counts, comma separated")
    if not rounds or any(r < 1 for r in rounds):
        ap.error(f"invalid --rounds {args.rounds!r}: expected counts of at least 1")
    if args.workers < 1 or args.hidden < 1 or args.epochs < 1 or not 0 <= args.eps <= 1:
        ap.error("invalid --workers, --hidden or --epochs (at least 1) or --eps (0..1)")
    if not 0 <= args.margin < float("inf"):
        ap.error(f"invalid --margin {args.margin}: expected a score margin, 0 or more")
    if not 0 <= args.soft < float("inf"):
        ap.error(f"invalid --soft {args.soft}: expected a temperature in points, 0 or more")
    try:
        info = find_game(args.game)
    except Exception as exc:  # the registry's own error names the known games
        ap.error(f"invalid --game {args.game!r}: {exc}")
    if args.players not in info.players:
        ap.error(f"invalid --players {args.players}: {args.game} plays with {', '.join(map(str, info.players))}")
    try:
        make_player(args.teacher, seed=1)
    except PlayerError as exc:
        ap.error(f"invalid --teacher {args.teacher!r}: {exc}")
    start = None
    if args.start is not None:
        try:
            start = load_weights(args.start)
        except PlayerError as exc:
            ap.error(f"invalid --start {args.start!r}: {exc}")
        if start.W2.shape[0] != args.hidden:
            ap.error(f"invalid --start {args.start!r}: {start.W2.shape[0]} hidden units, --hidden is {args.hidden}")
    cache = None if args.data is None else Path(args.data)
    if cache is not None and not cache.is_dir():
        ap.error(f"invalid --data {args.data!r}: not a folder")
    out = Path(args.out)
    if not out.parent.is_dir():
        ap.error(f"invalid --out {args.out!r}: no folder {str(out.parent)!r}")
    try:
        import torch  # noqa: F401
    except ImportError:
        print("error: training needs torch: pip install 'diloti[learned-train]' (docs/RESEARCH.md)", file=sys.stderr)
        return 2

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    start_cpu = time.process_time()
    start_wall = time.time()
    worker_cpu = 0.0
    data: list[Batch] = []
    behaviour: str | None = None
    figures: dict[str, float] = {}
    for it, count in enumerate(rounds):
        log(f"iteration {it + 1}/{len(rounds)}: {count} rounds by {behaviour or 'heuristic'}, labelled by "
            f"{args.teacher}")
        batch = collect(args.game, args.players, args.seed, it, count, behaviour, args.teacher, args.eps,
                        args.workers, cache)
        worker_cpu += batch.cpu if args.workers > 1 else 0.0
        data.append(batch)
        joined = Batch.join(data)
        log(f"  {len(batch)} positions ({len(joined)} in all), {batch.cpu:.0f} CPU s to play and label")
        arrays, figures = fit(joined, args.hidden, args.epochs, args.seed + it, log=log, soft=args.soft, start=start)
        log(f"  held out: network agrees with the teacher {figures.get('agreement', 0):.3f}, the heuristic's best "
            f"{figures.get('heuristic_agreement', 0):.3f}; points given up against the teacher's best "
            f"{figures.get('regret', 0):.3f} (the heuristic's {figures.get('heuristic_regret', 0):.3f}), its "
            f"move unvalued {figures.get('unvalued', 0):.3f} (the heuristic's "
            f"{figures.get('heuristic_unvalued', 0):.3f})")
        meta = new_meta(args.game, [args.players], args.hidden, seed=args.seed, rounds=rounds[:it + 1],
                        teacher=args.teacher, eps=args.eps, epochs=args.epochs, iterations=it + 1, soft=args.soft,
                        start=None if args.start is None else Path(args.start).name,
                        **{k: round(v, 4) for k, v in figures.items()})
        if args.margin:
            meta["margin"] = args.margin
        Network(meta=meta, **arrays).save(out)
        behaviour = str(out.resolve())
        if it + 1 < len(rounds):  # the next iteration's self-play draws from this network: load it as shipped
            load_weights(out)
    cpu = time.process_time() - start_cpu + worker_cpu
    summary = {**figures, "out": str(out), "format": FORMAT, "positions": sum(len(b) for b in data),
               "core_minutes": round(cpu / 60, 1), "wall_minutes": round((time.time() - start_wall) / 60, 1)}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
