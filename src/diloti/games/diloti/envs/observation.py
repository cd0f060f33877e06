"""Diloti's observations: one fixed-layout ``float32`` vector per seat, built only from its :class:`View`.

The view is the one door to hidden information, so an observation cannot show
another hand or the stock order. Seats are relative (0 = the observing seat,
1 = the next to play, ...), sides too (0 = the observer's side), so one policy
can play every seat. The layout is the same for 2 and 4 players (seat slots 2
and 3 stay zero with 2 players). Every entry lies in ``[0, 1]``.

:data:`LAYOUT` names each part with its slice (docs/RESEARCH.md has the
table); :data:`SIZE` is the length.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3)
>>> obs = observe(s.view(1))
>>> obs.shape, obs.dtype, int(obs[LAYOUT["hand"]].sum()), int(obs[LAYOUT["table"]].sum())
((744,), dtype('float32'), 6, 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES, cards_of, mask_of
from diloti.core.errors import InvalidPositionError
from diloti.core.moves import Declaration
from diloti.core.phase import Phase
from diloti.envs.part import layout_of
from diloti.games.diloti.envs.actions import describe
from diloti.games.diloti.envs.planes import MAX_ROUND_POINTS, OPTION_FLAGS, PARTS, encode, encode_state, prefix
from diloti.games.diloti.view import View

if TYPE_CHECKING:
    from diloti.games.diloti.state import State

LAYOUT: dict[str, slice] = layout_of(PARTS)
SIZE = sum(size for _, size, _ in PARTS)


def observe(view: View, head: int = -1, chosen: int = 0,
            out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The observation of ``view``'s seat; ``head`` and ``chosen`` are the move being chosen.

    ``head`` is the head action chosen (-1 before it) and ``chosen`` the
    52-bit set of the item cards chosen since, as in
    :class:`~diloti.envs.actions.Decision`. Writes into ``out`` if given.
    """
    cap = view.captured
    return _array(encode(view.seat, view.players, mask_of(view.hand), mask_of(view.table), view.declarations,
                         _mask_of(cap[0]), _mask_of(cap[1]), view.sweeps, view.bottom, view.hand_sizes,
                         view.stock_size, view.scores, view.options, view.phase, view.turn, view.dealer,
                         view.last_capturer, view.deal_no, view.plays, view.pending, head, chosen), out)


def observe_state(state: State, seat: int, scores: tuple[int, int] = (0, 0)) -> npt.NDArray[np.float32]:
    """``observe(state.view(seat, scores))``, read from the state without building the view (the environments'
    drivers, once a move). Only the seat's own hand and, for the dealer, the bottom card are read of what
    the seat cannot see, as the view does (tests/test_envs_fast.py compares the two on random rounds).

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=3)
    >>> bool((observe_state(s, 1) == observe(s.view(1))).all())
    True
    """
    if not 0 <= seat < state.players:
        raise InvalidPositionError(f"invalid seat {seat!r}: expected 0..{state.players - 1}")
    return _array(encode_state(state, seat, scores), None)


def _array(data: bytearray, out: npt.NDArray[np.float32] | None) -> npt.NDArray[np.float32]:
    """The observation vector over :func:`~diloti.games.diloti.envs.planes.encode`'s bytes (a buffer of its own,
    writable), or copied into ``out`` if given."""
    o = np.frombuffer(data, dtype=np.float32)
    if out is None:
        return o
    out[:] = o
    return out


def with_prefix(base: npt.NDArray[np.float32], head: int, chosen: int) -> npt.NDArray[np.float32]:
    """``observe(view, head, chosen)`` from ``base = observe(view)``: a copy with the move being chosen written in.

    Only the prefix parts depend on ``head`` and ``chosen``, so the later steps of a move need not
    build the rest again.

    >>> from diloti.games.diloti.state import State
    >>> v = State.new(seed=3).view(1)
    >>> bool((with_prefix(observe(v), 7, 1 << 9 | 1 << 20) == observe(v, 7, 1 << 9 | 1 << 20)).all())
    True
    """
    return np.frombuffer(prefix(base.tobytes(), head, chosen), dtype=np.float32)


# The card sets of a view's captured tuples by identity (State.view hands out the same tuple for the same
# set, diloti.core.view.cards_of_set), each kept with its tuple so that its id is not reused.
_MASKS: dict[int, tuple[tuple[int, ...], int]] = {}


def _mask_of(cards: tuple[int, ...]) -> int:
    hit = _MASKS.get(id(cards))
    if hit is not None and hit[0] is cards:
        return hit[1]
    if len(_MASKS) >= 4096:
        _MASKS.clear()
    m = mask_of(cards)
    _MASKS[id(cards)] = (cards, m)
    return m


def _declaration_text(d: Declaration, seat: int, n: int) -> str:
    who = "me" if d.owner == seat else f"+{(d.owner - seat) % n}"
    return f"[{' '.join(NAMES[c] for c in cards_of(d.mask))}]={d.value}{'G' if d.is_group else ''}@{who}"


def _in_stock(view: View, card: int) -> bool:
    """Whether ``card`` is none of the cards ``view`` shows in play (a hand, the table, a declaration, a capture):
    the bottom card is marked in the observation only then."""
    return (card not in view.hand and card not in view.table and all(card not in side for side in view.captured)
            and all(not d.mask >> card & 1 for d in view.declarations))


def describe_view(view: View, head: int = -1, chosen: int = 0) -> str:
    """The observation as one line of text, from the same view (for OpenSpiel's observation string).

    It holds what :func:`observe` holds, no more and no less (tests/test_envs_observation_agreement.py):
    each side's captured cards (their count, then the cards, own side first), and the bottom card while it
    is still the stock's (once dealt, the dealer holds it: the observation no longer marks it).

    >>> from diloti.games.diloti.state import State
    >>> describe_view(State.new(seed=3).view(0))[:40]
    'seat 0/2; phase play; turn +1; dealer +0'
    """
    seat, n = view.seat, view.players
    own, other = view.captured[seat & 1], view.captured[1 - (seat & 1)]
    parts = [
        f"seat {seat}/{n}", f"phase {Phase(view.phase).label}", f"turn +{(view.turn - seat) % n}",
        f"dealer +{(view.dealer - seat) % n}", "hand " + (" ".join(NAMES[c] for c in view.hand) or "-"),
        "table " + (" ".join([NAMES[c] for c in view.table]
                             + [_declaration_text(d, seat, n) for d in view.declarations]) or "-"),
        "sizes " + " ".join(str(view.hand_sizes[(seat + i) % n]) for i in range(n)),
        f"stock {view.stock_size}", f"deal {view.deal_no}", f"plays {view.plays}",
        f"captured {len(own)}/{len(other)}: {' '.join(NAMES[c] for c in own) or '-'} | "
        f"{' '.join(NAMES[c] for c in other) or '-'}",
        f"xeri {view.sweeps[seat & 1]}/{view.sweeps[1 - (seat & 1)]}",
    ]
    if view.last_capturer is not None:
        parts.append(f"last +{(view.last_capturer - seat) % n}")
    if view.bottom is not None and _in_stock(view, view.bottom):
        parts.append(f"bottom {NAMES[view.bottom]}")
    if view.pending:
        parts.append("pending " + " ".join(f"+{(s - seat) % n}" for s in view.pending))
    if head >= 0:
        parts.append("choosing " + describe(head) + (" " + " ".join(NAMES[c] for c in cards_of(chosen))
                                                    if chosen else ""))
    return "; ".join(parts)


__all__ = ["LAYOUT", "MAX_ROUND_POINTS", "OPTION_FLAGS", "PARTS", "SIZE", "describe_view", "observe", "observe_state",
           "with_prefix"]
