"""One round driven by action ids: what every environment wrapper shares.

A :class:`Driver` holds the :class:`~diloti.core.state.State` of one round and
the :class:`~diloti.envs.actions.Decision` of the seat to act, applies action
ids, and keeps each step's action mask and observations, so that asking twice
costs nothing. It also checks the environments' arguments, with errors that
name the argument.

>>> d = Driver(players=2, options=Options(), dealer=0, seed=5)
>>> d.to_act, int(d.mask().sum()) == len(d.actions())
(1, True)
>>> rng = random.Random(1)
>>> while not d.over:
...     _ = d.apply(rng.choice(d.actions()))
>>> sum(d.returns())
0.0
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES, cards_of
from diloti.core.errors import DilotiError
from diloti.core.moves import Move
from diloti.core.options import Options
from diloti.core.phase import Phase
from diloti.core.state import State
from diloti.core.view import View
from diloti.envs.actions import NUM_ACTIONS, Decision, InvalidActionError, describe
from diloti.envs.observation import observe

_NO_ACTIONS = bytes(NUM_ACTIONS)


class EnvArgumentError(DilotiError, ValueError):
    """An environment was given a bad argument (the message names it)."""


def check_players(players: object) -> int:
    if isinstance(players, bool) or players not in (2, 4):
        raise EnvArgumentError(f"invalid players={players!r}: expected 2 or 4")
    return int(players)


def check_options(options: object) -> Options:
    """``None`` (the standard rules), an :class:`Options`, a mapping of option names, or options text."""
    if options is None:
        return Options()
    if isinstance(options, Options):
        return options
    try:
        if isinstance(options, Mapping):
            return Options.from_dict(options)
        if isinstance(options, str):
            return Options.from_text(options)
    except DilotiError as exc:
        raise EnvArgumentError(f"invalid options={options!r}: {exc}") from None
    raise EnvArgumentError(f"invalid options={options!r}: expected Options, a dict of options or options text")


def check_seat(name: str, seat: object, players: int) -> int | None:
    """A seat argument (``dealer``, ``seat``): None (drawn each round) or 0..players-1."""
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise EnvArgumentError(f"invalid {name}={seat!r}: expected None (drawn each round) or 0..{players - 1}")
    return seat


def check_render_mode(render_mode: object, modes: list[str]) -> str | None:
    if render_mode is not None and render_mode not in modes:
        raise EnvArgumentError(f"invalid render_mode={render_mode!r}: expected None or one of {', '.join(modes)}")
    return render_mode


def round_seed(rng: random.Random) -> int:
    """The seed of the next round drawn from an environment's generator."""
    return rng.getrandbits(62)


class Driver:
    """One round played by action ids, with per-step caches of the mask and the observations."""

    __slots__ = ("_decision", "_mask", "_obs", "_views", "state", "steps")

    def __init__(self, players: int, options: Options, dealer: int, seed: int) -> None:
        self.state = State.new(players, options, dealer, seed=seed)
        self.steps = 0
        self._decision: Decision | None = None
        self._mask: npt.NDArray[np.int8] | None = None
        self._obs: dict[int, npt.NDArray[np.float32]] = {}
        self._views: dict[int, View] = {}  # kept while the state does not change (the steps of one move)

    @property
    def over(self) -> bool:
        return self.state.phase == Phase.OVER

    @property
    def to_act(self) -> int:
        """The seat whose action is awaited (the seat after the dealer once the round is over)."""
        return self.state.turn

    def same_side(self, a: int, b: int) -> bool:
        """Whether seats ``a`` and ``b`` are partners (or the same seat)."""
        return (a - b) % 2 == 0

    @property
    def decision(self) -> Decision:
        d = self._decision
        if d is None:
            d = self._decision = Decision.of(self.state)
        return d

    def actions(self) -> list[int]:
        """The actions allowed now, ascending (empty once the round is over)."""
        return self.decision.legal_actions()

    def mask(self) -> npt.NDArray[np.int8]:
        """The action mask of the seat to act (all zeros once the round is over). Do not change it."""
        m = self._mask
        if m is None:
            b = bytearray(_NO_ACTIONS)
            for a in self.decision.actions:
                b[a] = 1
            m = self._mask = np.frombuffer(b, dtype=np.int8)
        return m

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` now (a new array each step). Do not change it."""
        o = self._obs.get(seat)
        if o is None:
            d = self._decision
            head, chosen = (d.head, d.chosen) if d is not None else (-1, 0)
            v = self._views.get(seat)
            if v is None:
                v = self._views[seat] = self.state.view(seat)
            o = self._obs[seat] = observe(v, head, chosen)
        return o

    def apply(self, action: int) -> Move | None:
        """Take ``action`` for the seat to act; the move, once it is chosen and played, else None."""
        if self.over:
            raise InvalidActionError(f"illegal action {action}: the round is over")
        move = self.decision.apply(action)
        self.steps += 1
        self._mask = None
        if self._obs:
            self._obs = {}
        if move is not None:
            self.state.push(move)
            self._decision = None
            self._views = {}
        return move

    def play(self, move: Move) -> None:
        """Play a whole move for the seat to act: the same as applying each action of its sequence
        (``decision.encode(move)``, which raises if it is not legal), without the steps in between."""
        if self.over:
            raise InvalidActionError(f"illegal move {move}: the round is over")
        d = self.decision
        if d.head >= 0:
            raise InvalidActionError(f"illegal move {move}: a move is being chosen ({describe(d.head)})")
        self.steps += len(d.encode(move))
        self._mask = None
        self._obs = {}
        self.state.push(move)
        self._decision = None
        self._views = {}

    def returns(self) -> list[float]:
        """Each seat's reward for the round: its side's points minus the other side's (0 before the end)."""
        if not self.over:
            return [0.0] * self.state.players
        a, b = self.state.points()
        return [float(a - b) if s % 2 == 0 else float(b - a) for s in range(self.state.players)]

    def render(self) -> str:
        """The whole round as text (every hand shown), for ``render_mode="ansi"``."""
        s = self.state
        lines = [f"Diloti, {s.players} players, dealer {s.dealer}, deal {s.deal_no}, "
                 f"{Phase(s.phase).label}, stock {s.stock_size}"]
        for seat, hand in enumerate(s.hands):
            mark = ">" if seat == s.turn and not self.over else " "
            lines.append(f"{mark} player_{seat}: {' '.join(NAMES[c] for c in hand) or '-'}")
        table = [NAMES[c] for c in s.table] + [str(d) for d in s.declarations]
        lines.append(f"  table: {' '.join(table) or '-'}")
        lines.append(f"  captured: side 0 {s.captured[0].bit_count()}, side 1 {s.captured[1].bit_count()}; "
                     f"xeri {s.xeri[0]}/{s.xeri[1]}")
        d = self._decision
        if d is not None and d.head >= 0:
            items = " ".join(NAMES[c] for c in cards_of(d.chosen))
            lines.append(f"  choosing: {describe(d.head)}{' ' + items if items else ''}")
        if s.history:
            seat, move = s.history[-1]
            lines.append(f"  last: player_{seat} {move}")
        if self.over:
            a, b = s.points()
            lines.append(f"  round over: side 0 {a}, side 1 {b}")
        return "\n".join(lines)

