"""The learned player's network, run with numpy alone: weights read from a ``.npz`` file, checked, and applied.

The network scores every legal move of a decision; a softmax over the scores is its policy (the mask is the
legal list itself: an illegal move is never scored). One hidden layer reads the position and the move
together, a second mixes, one number comes out::

    h1 = relu(position @ W_position + move @ W_move + b1)     (one row a legal move; the position's product once)
    h2 = relu(h1 @ W2 + b2)
    score = h2 @ w3 + b3 + move @ w_skip

The last term is a linear skip from the move's features, the game's heuristic score among them: training starts
from the heuristic's softmax (``w_skip`` on its score, ``w3`` zero) and the hidden layers learn where the teacher
parts from it (residual policy learning).

Inference needs numpy only (never torch): the level costs a fraction of a millisecond beyond the game's
heuristic scores, and a server that offers it needs no more than numpy. The file holds the arrays above and a
``meta`` text (JSON): the file's format (:data:`FORMAT`), the features' layout (``features``, which must be
:data:`~diloti.ai.learned.features.FEATURES_VERSION`), the game and player counts it was trained for and
claims, how it was trained, and optionally the ``margin`` its player plays with
(:class:`~diloti.ai.learned.LearnedPlayer`). A file of another format or layout is refused with
:class:`LearnedWeightsError`, naming the file and the reason.

>>> net = load_weights()
>>> net.meta["game"], net.meta["players"]
('diloti', [2])
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one BLAS thread, before numpy loads: see features.py

import numpy as np
import numpy.typing as npt

from diloti.ai.errors import PlayerError
from diloti.ai.learned.features import FEATURES_VERSION, MOVE_SIZE, POSITION_SIZE

#: The weights file's own format (the arrays and the meta's keys). Another format is refused.
FORMAT = "diloti-learned-weights-1"
ARRAYS = ("W_position", "W_move", "b1", "W2", "b2", "w3", "b3", "w_skip")
#: The shipped weights: Diloti, 2 players, trained by ``python -m diloti.ai.learned.train`` (docs/RESEARCH.md).
DEFAULT_WEIGHTS = Path(__file__).resolve().parent / "data" / "diloti-2p.npz"


class LearnedWeightsError(PlayerError):
    """A weights file that cannot be used: missing, unreadable, of another format or feature layout."""


@dataclass(frozen=True)
class Network:
    """The arrays of one trained network and its meta (see the module's text)."""

    W_position: npt.NDArray[np.float32]
    W_move: npt.NDArray[np.float32]
    b1: npt.NDArray[np.float32]
    W2: npt.NDArray[np.float32]
    b2: npt.NDArray[np.float32]
    w3: npt.NDArray[np.float32]
    b3: npt.NDArray[np.float32]
    w_skip: npt.NDArray[np.float32]
    meta: dict[str, Any]

    def scores(self, position: npt.NDArray[np.float32], moves: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """One score a move (a row of ``moves``); higher is better.

        >>> net = load_weights()
        >>> net.scores(np.zeros(POSITION_SIZE, np.float32), np.zeros((3, MOVE_SIZE), np.float32)).shape
        (3,)
        """
        h1 = np.maximum(moves @ self.W_move + (position @ self.W_position + self.b1), 0.0)
        h2 = np.maximum(h1 @ self.W2 + self.b2, 0.0)
        out: npt.NDArray[np.float32] = (h2 @ self.w3 + self.b3 + moves @ self.w_skip).astype(np.float32)
        return out

    def claims(self, game: str, players: int) -> bool:
        """Whether the network was trained for ``game`` with ``players`` players."""
        return game == self.meta.get("game") and players in self.meta.get("players", ())

    def save(self, path: str | Path) -> None:
        """Write the network as ``.npz`` (float32 arrays and the meta as JSON text)."""
        arrays = {name: np.asarray(getattr(self, name), dtype=np.float32) for name in ARRAYS}
        with open(path, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(self.meta, sort_keys=True)), **arrays)  # type: ignore[arg-type]


def new_meta(game: str, players: list[int], hidden: int, **training: Any) -> dict[str, Any]:
    """The meta of a network trained now: format, feature layout, sizes, claims and the recipe's settings."""
    return {"format": FORMAT, "features": FEATURES_VERSION, "position_size": POSITION_SIZE,
            "move_size": MOVE_SIZE, "hidden": hidden, "game": game, "players": players, "training": training}


_LOADED: dict[tuple[str, float], Network] = {}


def load_weights(path: str | Path | None = None) -> Network:
    """The network in ``path`` (default: the shipped weights), checked; read once per file and change.

    >>> import tempfile, os
    >>> bad = os.path.join(tempfile.mkdtemp(), "old.npz")
    >>> net = load_weights()
    >>> Network(**{**net.__dict__, "meta": {**net.meta, "features": "learned-features-0"}}).save(bad)
    >>> try:
    ...     load_weights(bad)
    ... except LearnedWeightsError as exc:
    ...     print(str(exc).split("' ", 1)[1])  # doctest: +ELLIPSIS
    has feature layout 'learned-features-0'; this version of diloti reads 'learned-features-1' (train again: ...
    """
    p = Path(DEFAULT_WEIGHTS if path is None else path)
    try:
        key = (str(p.resolve()), p.stat().st_mtime)
    except OSError as exc:
        raise LearnedWeightsError(f"weights file {str(p)!r} cannot be read: {exc.strerror or exc}", str(p)) from None
    found = _LOADED.get(key)
    if found is None:
        found = _LOADED[key] = _read(p)
    return found


def _read(p: Path) -> Network:
    try:
        with np.load(p, allow_pickle=False) as data:
            arrays = {name: np.asarray(data[name], dtype=np.float32) for name in data.files if name != "meta"}
            meta_text = str(data["meta"]) if "meta" in data.files else None
    except (OSError, ValueError, EOFError) as exc:
        raise LearnedWeightsError(f"weights file {str(p)!r} is not a weights file (.npz): {exc}", str(p)) from None
    if meta_text is None:
        raise LearnedWeightsError(f"weights file {str(p)!r} has no meta: not a learned player's weights", str(p))
    try:
        meta = json.loads(meta_text)
    except ValueError:
        raise LearnedWeightsError(f"weights file {str(p)!r} has an unreadable meta (not JSON)", str(p)) from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        found = meta.get("format") if isinstance(meta, dict) else None
        raise LearnedWeightsError(f"weights file {str(p)!r} is of format {found!r}; this version of diloti reads "
                                  f"{FORMAT!r}", str(p))
    if meta.get("features") != FEATURES_VERSION:
        raise LearnedWeightsError(f"weights file {str(p)!r} has feature layout {meta.get('features')!r}; this version "
                                  f"of diloti reads {FEATURES_VERSION!r} (train again: python -m "
                                  f"diloti.ai.learned.train)", str(p))
    missing = [name for name in ARRAYS if name not in arrays]
    if missing:
        raise LearnedWeightsError(f"weights file {str(p)!r} lacks the array {missing[0]!r}", str(p))
    hidden = arrays["W2"].shape[0]
    expected = {"W_position": (POSITION_SIZE, hidden), "W_move": (MOVE_SIZE, hidden), "b1": (hidden,),
                "W2": (hidden, hidden), "b2": (hidden,), "w3": (hidden,), "b3": (), "w_skip": (MOVE_SIZE,)}
    for name, shape in expected.items():
        if arrays[name].shape != shape:
            raise LearnedWeightsError(f"weights file {str(p)!r}: array {name!r} has shape {arrays[name].shape}, "
                                      f"expected {shape}", str(p))
    return Network(meta=meta, **{name: arrays[name] for name in ARRAYS})


__all__ = ["DEFAULT_WEIGHTS", "FORMAT", "LearnedWeightsError", "Network", "load_weights", "new_meta"]
