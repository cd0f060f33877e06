"""A fitted evaluation of a deal's start: the search's leaf value, tuned on the project's own games.

The expert's rollouts stop at the end of a deal and score what was captured
(:func:`diloti.games.diloti.players.rollout.evaluate`). What that misses is what the next deal
starts with: a table the leader can sweep at once, the leader's seat, the
loose cards the last capturer would sweep if the round ended now. (No
declaration outlives a deal: its owner must hold a card of its value, and at
a deal's end every hand is empty.) :func:`features` measures those, each signed for side 0,
and :func:`fitted_evaluate` is a linear model of the round's final points
difference on them, fitted by least squares on whole rounds of self-play
(``bench/fit_evaluation.py`` writes ``games/diloti/players/data/evaluation.json``).

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=4)
>>> len(features(s)) == len(NAMES)
True
>>> isinstance(fitted_evaluate(s, 0), float)
True
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from diloti.core.cards import BIT
from diloti.games.diloti.players.knowledge import mask_points, rank_key
from diloti.games.diloti.players.rollout import evaluate, sweepers
from diloti.games.diloti.state import State

DATA = Path(__file__).resolve().parent / "data" / "evaluation.json"  # with the package data
NAMES = ("base", "lead_sweep", "lead", "left_points", "left_cards")
KEY = tuple(rank_key(c) for c in range(52))


def _sign(seat: int | None) -> float:
    if seat is None:
        return 0.0
    return 1.0 if seat % 2 == 0 else -1.0


def features(st: State) -> tuple[float, ...]:
    """The position's features, each signed for side 0 (see :data:`NAMES`).

    ``base`` is the captured-cards evaluation; ``lead_sweep`` whether the
    player to move holds a card that takes the whole table (signed by its
    side); ``lead`` its side; ``left_points``, ``left_cards`` the loose cards' points and count, signed
    by the last capturer, in the round's last deal only (where the end of the
    round gives them to it).
    """
    base = evaluate(st, 0)
    if st.is_over:
        return (base, 0.0, 0.0, 0.0, 0.0)
    lead = _sign(st.turn)
    keys = tuple(KEY[c] for c in st.table)
    pvals = tuple(sorted(p.value for p in st.declarations))
    sweep = sweepers(keys, pvals) if (keys or pvals) else 0
    held = 0
    for c in st.hands[st.turn]:
        held |= 1 << KEY[c]
    lead_sweep = lead if sweep & held else 0.0
    last_deal = st.stock_pos >= len(st.stock)
    loose = 0
    for c in st.table:
        loose |= BIT[c]
    who = _sign(st.last_capturer) if last_deal else 0.0
    return (base, lead_sweep, lead, who * mask_points(loose), who * loose.bit_count())


@lru_cache(maxsize=2)
def weights(players: int = 2) -> tuple[float, ...]:
    """The weights fitted for ``players`` (2 or 4), in the order of :data:`NAMES` (no intercept: symmetry)."""
    data = json.loads(DATA.read_text())
    return tuple(float(data[f"{players}p"][name]) for name in NAMES)


def fitted_evaluate(st: State, side: int) -> float:
    """The fitted round points difference for ``side``: exact once the round is over."""
    if st.is_over:
        a, b = st.points()
        return float(a - b if side == 0 else b - a)
    v = sum(w * f for w, f in zip(weights(st.players), features(st), strict=True))
    return v if side == 0 else -v
