"""What a round or hand driven by action ids is in every game: the base of the environments' drivers.

:class:`DriverBase` holds one game's state and the decision of the seat to
act, applies action ids, plays whole moves, and keeps each step's action mask
and observations, so that asking twice costs nothing. Each game's driver
(Diloti's :class:`~diloti.games.diloti.envs.driver.Driver`, the one-card
games' :class:`~diloti.games.onecard.envs.driver.HandDriver`) says only what its game
does differently: how a decision and an observation are made, the rewards,
the seats that share a side, and the lines of ``render`` that show the table,
the captures and the result.

The driver also counts an episode's decision steps, the actions taken one at a
time (:attr:`DriverBase.applied`), against the optional step limit of the
environments (``max_steps``, checked by :func:`check_max_steps`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES, Card, cards_of
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.envs.actions import InvalidActionError, StepDecision
from diloti.envs.driver import EnvArgumentError

V = TypeVar("V")
_OVER = Phase.OVER  # read at every step: a module constant, not the enum class's attribute
V_co = TypeVar("V_co", covariant=True)


class Round(Protocol[V_co]):
    """What a driver reads and does of its game's state (Diloti's ``State``, the one-card games' ``HandState``)."""

    phase: Phase
    turn: int
    players: int
    dealer: int
    deal_no: int
    hands: list[list[Card]]
    history: list[tuple[int, Move]]

    @property
    def stock_size(self) -> int: ...
    def push(self, move: Move) -> None: ...
    def view(self, seat: int) -> V_co: ...


S = TypeVar("S", bound="Round[Any]")
D = TypeVar("D", bound=StepDecision)


class DriverBase(Generic[S, D, V]):
    """One round or hand played by action ids, with per-step caches of the mask, the views and the observations."""

    __slots__ = ("_base", "_decision", "_mask", "_obs", "_views", "applied", "match", "state", "steps")

    #: What one episode is called in messages: ``"round"`` or ``"hand"``.
    EPISODE: ClassVar[str]

    state: S
    #: Every action of the episode, whole moves played at once (:meth:`play`) counted by their actions.
    steps: int
    #: The decision steps of the episode: the actions taken one at a time (:meth:`apply`), the steps an
    #: environment's caller takes (in PettingZoo every agent's; in Gymnasium the agent's, the computer's moves
    #: being played whole). What a step limit counts (:meth:`at_limit`).
    applied: int
    _decision: D | None
    _mask: npt.NDArray[np.int8] | None
    _obs: dict[int, npt.NDArray[np.float32]]
    _views: dict[int, V]
    _base: dict[int, Any]  # each seat's observation before the move's head, in the form its game keeps it

    if TYPE_CHECKING:  # each game's driver writes these; declared here for the methods below
        def _new_decision(self) -> D: ...
        def _observe(self, view: V, head: int, chosen: int) -> npt.NDArray[np.float32]: ...
        def _title(self) -> str: ...
        def _render_piles(self) -> list[str]: ...
        def _render_result(self) -> str: ...
        def returns(self) -> list[float]: ...
        def same_side(self, a: int, b: int) -> bool: ...

    #: The whole game when an episode is a game (rounds to the target), else None: then ``state`` is its
    #: round in play, and its scores reach the views.
    match: Any

    def _start(self, state: S, match: Any = None) -> None:
        self.match = match
        self.state = state
        self.steps = 0
        self.applied = 0
        self._decision = None
        self._mask = None
        self._obs = {}
        self._views = {}  # kept while the state does not change (the steps of one move)
        self._base = {}  # each seat's observation before the move's head, kept as the views are

    @property
    def over(self) -> bool:
        """The episode is over: the round (or, in a whole-game episode, the game)."""
        if self.match is not None:
            return bool(self.match.is_over)
        return self.state.phase == _OVER

    def _push(self, move: Move) -> None:
        if self.match is None:
            self.state.push(move)
        else:
            self.match.push(move)  # scores a round that ends, and deals the next
            self.state = self.match.state

    @property
    def to_act(self) -> int:
        """The seat whose action is awaited (the seat after the dealer once the round or hand is over)."""
        return self.state.turn

    @property
    def decision(self) -> D:
        d = self._decision
        if d is None:
            d = self._decision = self._new_decision()
        return d

    def actions(self) -> list[int]:
        """The actions allowed now, ascending (empty once the round or hand is over)."""
        return self.decision.legal_actions()

    def mask(self) -> npt.NDArray[np.int8]:
        """The action mask of the seat to act (all zeros once the round or hand is over), read-only."""
        m = self._mask
        if m is None:
            m = np.frombuffer(self.decision.mask_bytes(), dtype=np.int8)
            m.flags.writeable = False  # shared by every reader of this step: nobody may change it
            self._mask = m
        return m

    def mask_copy(self) -> npt.NDArray[np.int8]:
        """The action mask as an array of the caller's own (writable): :meth:`mask` then ``copy()``, without
        keeping the step's array."""
        m = self._mask
        if m is None:
            return np.frombuffer(self.decision.mask_bytes(), dtype=np.int8)  # over a new bytearray: writable
        return m.copy()

    def view(self, seat: int) -> V:
        """The view of ``seat`` now (the same object until a move is played). Do not change it."""
        v = self._views.get(seat)
        if v is None:
            v = self._views[seat] = self.state.view(seat) if self.match is None else self.match.view(seat)
        return v

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` now (a new array each step), read-only."""
        o = self._obs.get(seat)
        if o is None:
            d = self._decision
            o = self._observe_step(seat, -1, 0) if d is None else self._observe_step(seat, d.head, d.chosen)
            o.flags.writeable = False  # shared by every reader of this step: nobody may change it
            self._obs[seat] = o
        return o

    def observation_copy(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` now as an array of the caller's own (writable, kept by nobody else): what
        :meth:`observation` then ``copy()`` give, without keeping the step's array (Gymnasium's one reader)."""
        o = self._obs.get(seat)
        if o is None:
            d = self._decision
            o = self._observe_step(seat, -1, 0) if d is None else self._observe_step(seat, d.head, d.chosen)
            if o.flags.writeable:
                return o
        return o.copy()

    def observation_data(self, seat: int) -> bytes | bytearray | memoryview:
        """The observation of ``seat`` now as the bytes of its ``float32`` vector (little-endian), to be copied at
        once (the batched environments write them into their buffers without a numpy call a game). Read it
        before the next action; do not change it. A game may give its kernel's bytes (Diloti's driver)."""
        return self.observation(seat).data.cast("B")

    def _observe_step(self, seat: int, head: int, chosen: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` at this step of the move (``head`` and ``chosen``: its part chosen so far),
        a new array whose buffer the driver keeps no reference to (a reader may turn it writable). By default a
        copy of the seat's observation before the move's head, kept for the move's steps, or built whole from
        the view at a later step; a game may build its later steps from what it keeps (Diloti's driver)."""
        if head >= 0:
            return self._observe(self.view(seat), head, chosen)
        base = self._base.get(seat)
        if base is None:
            base = self._base[seat] = self._observe_seat(seat)
        return base.copy()

    def _observe_seat(self, seat: int) -> npt.NDArray[np.float32]:
        """The observation of ``seat`` before the move's head."""
        return self._observe(self.view(seat), -1, 0)

    def apply(self, action: int) -> Move | None:
        """Take ``action`` for the seat to act; the move, once it is chosen and played, else None."""
        if self.over:
            raise InvalidActionError(f"illegal action {action}: the {self.EPISODE} is over")
        move = self.decision.apply(action)
        self.steps += 1
        self.applied += 1
        self._mask = None
        if self._obs:
            self._obs = {}
        if move is not None:
            self._push(move)
            self._decision = None
            self._moved()
        return move

    def at_limit(self, max_steps: int | None) -> bool:
        """The episode has taken ``max_steps`` decision steps (:attr:`applied`); never with None (no limit)."""
        return max_steps is not None and self.applied >= max_steps

    def play(self, move: Move) -> None:
        """Play a whole move for the seat to act: the same as applying each action of its sequence
        (``decision.encode(move)``, which raises if it is not legal), without the steps in between."""
        if self.over:
            raise InvalidActionError(f"illegal move {move}: the {self.EPISODE} is over")
        d = self.decision
        if d.head >= 0:
            raise InvalidActionError(f"illegal move {move}: a move is being chosen ({d.describe(d.head)})")
        self.steps += len(d.encode(move))
        self._mask = None
        self._push(move)
        self._decision = None
        self._moved()

    def play_legal(self, move: Move) -> None:
        """:meth:`play` for a move taken from the state's legal moves now (not checked again)."""
        if self._decision is not None:  # asked for already: its encoding is at hand
            self.play(move)
            return
        self.steps += self._steps_of(move)
        self._mask = None
        self._push(move)
        self._decision = None  # a game's _steps_of may have made it
        self._moved()

    def _moved(self) -> None:
        """Forget the caches of the position before a move. A cache in use is replaced, not cleared: a copy of
        this driver (``copy.copy``) may share it, and keeps what it read of the position they shared."""
        if self._obs:
            self._obs = {}
        if self._views:
            self._views = {}
        if self._base:
            self._base = {}

    def _steps_of(self, move: Move) -> int:
        """The number of actions that choose the legal ``move`` now (a game may count them without the decision)."""
        return len(self.decision.encode(move))

    def render(self) -> str:
        """The whole round or hand as text (every hand shown), for ``render_mode="ansi"``."""
        s = self.state
        lines = [f"{self._title()}, {s.players} players, dealer {s.dealer}, deal {s.deal_no}, "
                 f"{Phase(s.phase).label}, stock {s.stock_size}"]
        for seat, hand in enumerate(s.hands):
            mark = ">" if seat == s.turn and not self.over else " "
            lines.append(f"{mark} player_{seat}: {' '.join(NAMES[c] for c in hand) or '-'}")
        lines.extend(self._render_piles())
        d = self._decision
        if d is not None and d.head >= 0:
            items = " ".join(NAMES[c] for c in cards_of(d.chosen))
            lines.append(f"  choosing: {d.describe(d.head)}{' ' + items if items else ''}")
        if s.history:
            seat, move = s.history[-1]
            lines.append(f"  last: player_{seat} {move}")
        if self.over:
            lines.append(self._render_result())
        return "\n".join(lines)


def check_max_steps(max_steps: object) -> int | None:
    """An environment's ``max_steps``: None (no limit) or the positive number of decision steps after which an
    episode that has not ended is truncated.

    >>> check_max_steps(None), check_max_steps(200)
    (None, 200)
    >>> check_max_steps(0)
    Traceback (most recent call last):
    ...
    diloti.envs.driver.EnvArgumentError: invalid max_steps=0: expected None (no limit) or a positive int
    """
    if max_steps is None:
        return None
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise EnvArgumentError(f"invalid max_steps={max_steps!r:.40}: expected None (no limit) or a positive int")
    return max_steps


__all__ = ["DriverBase", "Round", "check_max_steps"]
