"""What every OpenSpiel game of the package shares: the state and observer sides of the ``python_*`` games.

:class:`SpielState` plays an engine state with explicit chance (each card dealt
a chance outcome) by the game's action ids, one step at a time;
:class:`SpielObserver` fills the observation or information-state tensor and
string of one player from its view. Each game's subclasses (Diloti's
:mod:`diloti.games.diloti.envs.openspiel`, the one-card games'
:mod:`diloti.games.onecard.envs.openspiel`) say only what differs: the engine state and
decision they make, the returns, how the unseen cards are dealt again, and how
an observation is laid out and made public.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt
import pyspiel

from diloti.core.cards import NAMES
from diloti.core.moves import Move
from diloti.core.phase import Phase
from diloti.envs.actions import InvalidActionError, StepDecision
from diloti.envs.driver import EnvArgumentError
from diloti.envs.kept import HISTORY_PLIES, PLY_SIZE, RECALL_SIZE, KeptTensor


class Seen(Protocol):
    """What the information state reads of a view (any game's)."""

    @property
    def players(self) -> int: ...
    @property
    def history(self) -> tuple[tuple[int, Move], ...]: ...


_OVER, _CHANCE = Phase.OVER, Phase.CHANCE  # a round's phase is always a member: compared by identity
_TERMINAL, _CHANCE_PLAYER = int(pyspiel.PlayerId.TERMINAL), int(pyspiel.PlayerId.CHANCE)

T = TypeVar("T", bound="SpielState")
St = TypeVar("St", bound="SpielState")
V = TypeVar("V", bound=Seen)


def game_type(short_name: str, long_name: str, min_players: int, max_players: int, episodes: bool = False,
              extra: dict[str, Any] | None = None) -> Any:
    """The ``pyspiel.GameType`` of a game of the package: sequential, explicit chance, imperfect information,
    zero sum, rewards at the end, every observation kind but the factored string, and the parameters
    ``players``, ``options``, ``dealer``, with ``episodes`` ``episode`` (whole games or rounds), and ``extra``'s
    (a game's own, with their defaults)."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"players": 2, "options": "", "dealer": 0,
                                 **({"episode": "round"} if episodes else {}), **(extra or {})},
    )


#: How many worlds :meth:`SpielState.resample_from_infostate` draws, at most, for one in which the move
#: being chosen can go on (the mover must hold the card it plays); then the state itself is returned.
RESAMPLE_TRIES = 1000


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A round or hand in play: the engine's explicit-chance state and the move being chosen."""

    #: The game's round with explicit chance (``chance_outcomes``, ``deal``, ``first_table``, ``push``, ``describe``).
    round: Any
    decision: StepDecision | None
    #: The actions of the move being chosen, so far (empty between moves).
    taken: tuple[int, ...] = ()

    if TYPE_CHECKING:  # each game's state writes these; declared here for the methods below
        def _new_decision(self) -> StepDecision: ...
        def _describe(self, action: int) -> str: ...
        def _draw(self, player_id: int, rng: random.Random) -> Any: ...

    # -------------------------------------------------------------- the API
    # OpenSpiel asks for the player several times a step (legal_actions, apply_action, is_chance_node ...):
    # the enum members and player ids are module constants, read without an attribute lookup.
    def current_player(self) -> int:
        r = self.round
        phase = r.phase
        if phase is _OVER:
            return _TERMINAL
        if phase is _CHANCE:
            return _CHANCE_PLAYER
        turn: int = r.turn
        return turn

    # Asked from Python, pyspiel's is_chance_node and legal_actions are C++ that calls back into Python through
    # pybind11 (about 0.7 us a call): current_player once for is_chance_node; current_player three times,
    # is_terminal and _legal_actions for legal_actions. These answer the same from Python at once (the
    # C++ side, OpenSpiel's own algorithms, still goes through pyspiel's, to the same methods).
    def is_chance_node(self) -> bool:
        return self.round.phase is _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of the player to act (or of ``player``): pyspiel's ``legal_actions``, answered
        without its calls back into Python at a player's turn (a new list, as pyspiel's)."""
        r = self.round
        phase = r.phase
        if phase is not _OVER and phase is not _CHANCE and (player is None or player == r.turn):
            d = self.decision
            if d is None:
                d = self.decision = self._new_decision()
            return list(d.actions)  # what pyspiel's asks _legal_actions for, copied
        # Chance and terminal states, another player's turn, pseudo-players: pyspiel's own answers and errors.
        return super().legal_actions() if player is None else super().legal_actions(player)  # type: ignore[no-any-return]

    def _decision(self) -> StepDecision:
        d = self.decision
        if d is None:
            d = self.decision = self._new_decision()
        return d

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        # The decision's own list: OpenSpiel copies it into a vector of its own (this is called from C++ only).
        return self._decision().actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.round.chance_outcome_ids()  # type: ignore[no-any-return]  # plain ints, built compiled

    # The state's own step, without a call to each game's override: what a round's end leads to is the only
    # part that differs (:meth:`_round_over`).
    def _apply_action(self, action: int) -> None:
        r = self.round
        if r.phase is _CHANCE:
            r.deal(action)  # pybind11 passes a plain int
        else:
            d = self.decision
            if d is None:
                d = self.decision = self._new_decision()
            move = d.apply(action)
            if move is None:
                self.taken = (*self.taken, action)
                return
            r.push(move)
            self.decision = None
            if self.taken:  # back to the class's (): OpenSpiel's clone() deep-copies what a state holds itself
                del self.taken
        if r.phase is _OVER:
            self._round_over()

    def _round_over(self) -> None:
        """What the end of the round in play leads to (in a whole-game episode, the next round): nothing here."""

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            event = self.round.chance
            to = "" if event is None else f" to {event.to if isinstance(event.to, str) else f'player {event.to}'}"
            return f"deal {NAMES[action]}{to}"
        return self._describe(action)

    def is_terminal(self) -> bool:
        return self.round.phase is _OVER

    def __str__(self) -> str:
        text: str = self.round.describe()
        d = self.decision
        if d is not None and d.head >= 0:
            text += f" choosing {d.describe(d.head)}" + "".join(f" {NAMES[c]}" for c in range(52) if d.chosen >> c & 1)
        return text

    def encode(self, move: Move) -> list[int]:
        """The action ids that play ``move`` from the current decision's start (for players that choose moves)."""
        return self._decision().encode(move)

    def prefix(self) -> tuple[int, int]:
        """The move being chosen: its head action (-1 before it) and the item cards chosen (a 52-bit set)."""
        d = self.decision
        return (d.head, d.chosen) if d is not None else (-1, 0)

    def resample_from_infostate(self: T, player_id: int, probability_sampler: Any) -> T:
        """A state the player cannot tell from this one: the cards it cannot see dealt again at random.

        While a move is being chosen, everyone has seen its card and the items named so far, so only
        worlds in which the mover can go on with it count (drawn again until one does; after
        :data:`RESAMPLE_TRIES` draws, this state itself, which always can).
        """
        rng = random.Random(int(probability_sampler() * 2**52))
        for _ in range(RESAMPLE_TRIES if self.taken else 1):
            try:
                return self._resampled(self._draw(player_id, rng))
            except InvalidActionError:
                continue
        return self.clone()  # type: ignore[no-any-return]

    def _resampled(self: T, round: Any) -> T:
        """A clone of this state playing ``round`` (the same round with other hidden cards), at the same step.

        The decision is made again from ``round``'s own legal moves (another hand has other moves) and
        the actions taken so far applied to it; :class:`InvalidActionError` if they cannot be.
        """
        clone: T = self.clone()
        clone.round = round
        clone.decision = None
        if self.taken:
            d = clone._decision()
            for action in self.taken:
                d.apply(action)
        return clone


class SpielObserver(Generic[St, V]):
    """Tensors and strings for one player, from its view (OpenSpiel's PyObserver interface).

    ``perfect_recall`` chooses the information state (the observation, then the cards each relative
    seat has played, the first table, and every move of the round in order, one block of
    :data:`PLY_SIZE` a move) over the observation; with ``private_info`` NONE what only the seat knows
    is left out (public observation). The move blocks make the tensor as fine as the information-state
    string: two histories that differ in order or in what a move took give different tensors.

    :attr:`tensor` is a numpy array over a buffer of this observer's: each call writes the new tensor into it
    (the same array, filled in place, as OpenSpiel's observers do).
    """

    if TYPE_CHECKING:  # each game's observer writes these; declared here for the methods below
        def _view(self, state: St, player: int) -> V: ...
        def _observe(self, view: V, head: int, chosen: int, out: npt.NDArray[np.float32]) -> None: ...
        def _describe_view(self, view: V, head: int, chosen: int) -> str: ...

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None, size: int, planes: int) -> None:
        if params:
            raise EnvArgumentError(f"invalid observer params={params!r}: none are taken")
        if not iig_obs_type.public_info:
            raise EnvArgumentError("invalid iig_obs_type: only observations with the public information are offered")
        self.size = size
        self.planes = planes
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.total = size + RECALL_SIZE if self.recall else size
        # The tensor's bytes: the kept tensors are copied into them, and numpy reads them in place.
        self._data = bytearray(4 * self.total)
        self._end = 0  # the bytes of _data that may be nonzero (KeptTensor.copy_into)
        self.tensor: npt.NDArray[np.float32] = np.frombuffer(self._data, np.float32)
        # Read-only to its users: set_from rewrites only what changed since the buffer last held the same player's
        # tensor, so a write from outside would survive into later tensors; it is refused instead.
        self.tensor.flags.writeable = False
        self.dict = {"observation": self.tensor[:size]}
        if self.recall:
            self.dict["played"] = self.tensor[size:size + 4 * 52].reshape(4, 52)
            self.dict["first_table"] = self.tensor[size + 4 * 52:size + 5 * 52]
            self.dict["moves"] = self.tensor[size + 5 * 52:].reshape(HISTORY_PLIES, PLY_SIZE)
        self._kept: dict[int, KeptTensor] = {}  # each player's tensor, kept from one call to the next
        self._held: KeptTensor | None = None  # the kept tensor whose copy the buffer holds

    def set_from(self, state: St, player: int) -> None:
        """Fill :attr:`tensor` for ``player`` at ``state``.

        Each player's tensor is kept (:class:`~diloti.envs.kept.KeptTensor`) and brought up to date: the
        observation made again as card planes and numbers (:meth:`_parts`, from the state) and only the floats
        that changed written, the moves played since the previous call on the same round added to the recall
        part; then one copy into :attr:`tensor`. A step costs what changed, not the whole tensor
        (tests/test_envs_infostate.py compares it with a whole rebuild at every step of random rounds).
        """
        k = self._kept.get(player)
        if k is None:
            k = self._kept[player] = KeptTensor(self.size, self.total, self.planes)
        parts = self._parts(state, player)
        if parts is None:
            head, chosen = state.prefix()
            out: npt.NDArray[np.float32] = np.zeros(self.size, np.float32)
            self._observe(self._view(state, player), head, chosen, out)
            k.observe_raw(out.tobytes())
        try:
            self._end = k.update(parts, state.round if self.recall else None, player, self._data, self._end,
                                 k is self._held)
        except ValueError as exc:  # a round longer than the tensor holds (KeptTensor.recall says so)
            self._held = None  # the buffer was not written
            raise EnvArgumentError(str(exc)) from None
        self._held = k

    def _parts(self, state: St, player: int) -> tuple[list[int], list[float]] | None:
        """The observation of ``player`` as its card planes (52-bit sets) and the numbers after them, read from
        ``state`` (with the move being chosen, :meth:`SpielState.prefix`) if the game can (equal to the view's);
        None to have it built from the view (the default)."""
        return None

    def _rebuilt(self, state: St, player: int) -> npt.NDArray[np.float32]:
        """The tensor as :meth:`set_from` fills it, rebuilt whole from the view (no state read, nothing kept):
        what tests compare the incremental tensor with."""
        out = np.zeros_like(self.tensor)
        view = self._view(state, player)
        head, chosen = state.prefix()
        self._observe(view, head, chosen, out[:self.size])
        if self.recall:
            size = self.size
            played = out[size:size + 4 * 52].reshape(4, 52)
            for seat, move in view.history:
                if move.card is not None:
                    played[(seat - player) % view.players, move.card] = 1.0
            out[size + 4 * 52:size + 5 * 52][list(state.round.first_table)] = 1.0
            moves = out[size + 5 * 52:].reshape(HISTORY_PLIES, PLY_SIZE)
            for block, (seat, move) in zip(moves, view.history, strict=False):
                card, kind, value, mask = move
                block[(seat - player) % view.players] = 1.0
                if card is not None:
                    block[4 + card] = 1.0
                block[56 + kind] = 1.0
                block[62 + value] = 1.0
                while mask:
                    low = mask & -mask
                    block[73 + low.bit_length() - 1] = 1.0
                    mask ^= low
        return out

    def string_from(self, state: St, player: int) -> str:
        view = self._view(state, player)
        head, chosen = state.prefix()
        text = self._describe_view(view, head, chosen)
        if self.recall:
            first = " ".join(NAMES[c] for c in state.round.first_table) or "-"
            moves = " ".join(f"{seat}:{str(move).replace(' ', '')}" for seat, move in view.history)
            text = f"first table {first}; moves {moves or '-'}; {text}"
        return text


__all__ = ["HISTORY_PLIES", "PLY_SIZE", "RESAMPLE_TRIES", "Seen", "SpielObserver", "SpielState", "game_type"]
