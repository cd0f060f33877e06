"""What a game provides the research environments: the contract of a game's envs part.

A game's envs part is the module its registry entry names for this floor (``parts["envs"]``: Diloti's
:mod:`diloti.games.diloti.envs`, a one-card game's ``diloti.games.<game>.envs`` on
:mod:`diloti.games.onecard.envs`), whose ``ENV`` meets :class:`EnvPart`. :mod:`diloti.envs.games` imports it by
that name; a part imports this module and the environments' shared modules (actions, drivers, OpenSpiel's
base), never :mod:`diloti.envs.games`. mypy checks each part against the contract (each assigns its ``ENV`` to
an ``EnvPart`` under ``TYPE_CHECKING``).

>>> layout_of((("hand", 52, "own hand"), ("stock", 1, "undealt cards / 52")))
{'hand': slice(0, 52, None), 'stock': slice(52, 53, None)}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from diloti.core.errors import DilotiError
from diloti.core.registry import GameInfo
from diloti.envs.actions import StepDecision
from diloti.envs.driver import EnvArgumentError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from diloti.envs.driver_base import DriverBase

#: A layout's parts in order: (name, length, what it holds).
Parts = tuple[tuple[str, int, str], ...]


def layout_of(parts: Parts) -> dict[str, slice]:
    """Each part's slice of the observation, from the parts in order."""
    out: dict[str, slice] = {}
    at = 0
    for name, size, _ in parts:
        out[name] = slice(at, at + size)
        at += size
    return out


class EnvPart(Protocol):
    """What a game's envs part (``diloti.games.<game>.envs``, its ``ENV``) gives the environments.

    This is the contract a game meets to be played by PettingZoo, Gymnasium and OpenSpiel:

    - ``num_actions``: the size of its fixed ``Discrete`` action space (ids mean the same in every position);
    - ``size``: the length of its ``float32`` observation (every entry in ``[0, 1]``);
    - ``max_points``: the most a side can win by in one round: rewards lie within ``+-max_points``;
    - ``episodes``: the episodes it offers, ``("round",)`` or ``("round", "game")`` (whole games);
    - ``check_players`` / ``check_options``: the player count and the options object (from ``None``, an
      options object, a mapping or options text), :class:`~diloti.envs.driver.EnvArgumentError` naming
      the input otherwise;
    - ``decision(view)``: the move of the seat to act as a :class:`~diloti.envs.actions.StepDecision`;
    - ``observe(view, head, chosen)``: the observation of the view's seat, the move being chosen given
      by its head action (-1 before it) and the 52-bit set of item cards chosen since;
    - ``describe(action)``: what an action id means, in words;
    - ``driver(players, options, dealer, seed, episode)``: one episode played by action ids;
    - ``openspiel()``: its OpenSpiel game ``python_<game>``, as ``(pyspiel.GameType, creator)`` for
      ``pyspiel.register_game`` (it imports pyspiel: called only to register, :mod:`diloti.envs.openspiel_game`);
    - optional, for a game whose registry entry says ``small``: ``small_openspiel()``, which registers a small deal
      of the game for OpenSpiel's exact algorithms and returns its short name (:func:`diloti.envs.ids.load_openspiel`).
    """

    @property
    def num_actions(self) -> int: ...
    @property
    def size(self) -> int: ...
    @property
    def max_points(self) -> int: ...
    @property
    def episodes(self) -> tuple[str, ...]: ...
    def check_players(self, players: object) -> int: ...
    def check_options(self, options: object, players: int) -> Any: ...
    def decision(self, view: Any) -> StepDecision: ...
    def observe(self, view: Any, head: int = -1, chosen: int = 0) -> npt.NDArray[np.float32]: ...
    def describe(self, action: int) -> str: ...
    def driver(self, players: int, options: Any, dealer: int, seed: int,
               episode: str = "round") -> DriverBase[Any, Any, Any]: ...
    def openspiel(self) -> tuple[Any, Callable[..., Any]]: ...


def check_players(info: GameInfo, players: object) -> int:
    """``players`` if ``info``'s game seats that many, else an error naming the game and its counts."""
    if isinstance(players, bool) or players not in info.players:
        counts = list(map(str, info.players))
        known = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + f" or {counts[-1]}"
        raise EnvArgumentError(f"invalid players={players!r} for game={info.name!r}: expected {known}")
    return info.players[info.players.index(players)]


def check_options(info: GameInfo, options: object, players: int,
                  adjust: Callable[[Any, int], Any] | None = None) -> Any:
    """``None`` (the standard rules), the game's options object, a mapping of option names, or options text,
    as the game's options object checked for ``players`` (``adjust`` sets what the player count implies)."""
    cls: Any = info.options
    try:
        if options is None:
            opts = cls()
        elif isinstance(options, cls):
            opts = options
        elif isinstance(options, Mapping):
            opts = cls.from_dict(options)
        elif isinstance(options, str):
            opts = cls.from_text(options)
        else:
            raise EnvArgumentError(f"invalid options={options!r}: expected {cls.__name__}, a dict of "
                                   f"{info.name} options or options text")
        if adjust is not None:
            opts = adjust(opts, players)
        info.state.check_players(players, opts)
    except EnvArgumentError:
        raise
    except DilotiError as exc:
        raise EnvArgumentError(f"invalid options={options!r}: {exc}") from None
    return opts


__all__ = ["EnvPart", "Parts", "check_options", "check_players", "layout_of"]
