"""Versioned environment ids: one for each game, player count and episode kind, and the evaluation seeds.

An id names an environment whose episodes mean the same numbers wherever it is cited: ``Diloti-2p-round-v0``
is Diloti with 2 players, an episode one round, version 0 of its actions, observations and rewards. The
options are not part of an id: an id's environment plays the standard rules unless options are given (a
figure cites them beside the id). Every registered game with an envs part has an id for each player count
and each episode kind it offers; a game whose registry entry says ``small`` has one more for its small deal, made
for exact algorithms (OpenSpiel only, 2 players, one round): mini Diloti, ``MiniDiloti-2p-round-v0``, the default
deal. The three libraries take an id:

- Gymnasium: ``gymnasium.make("diloti/Diloti-2p-round-v0", opponent="expert")`` (importing :mod:`diloti.envs`
  registers each id with the ``diloti/`` prefix);
- PettingZoo: ``pettingzoo_env.env(env_id="Diloti-2p-round-v0")``;
- OpenSpiel: :func:`load_openspiel` (``pyspiel.load_game`` with the id's game and parameters).

**Versions.** An id's version changes whenever an episode of it could give other numbers: the rules engine's
legal moves or scores, the action encoding, the observation layout, the rewards (:data:`VERSIONS`, one per
game). tests/test_envs_ids.py pins a fingerprint of each id (:mod:`diloti.envs.fingerprint`: the spaces, and
the observations, masks and rewards of an episode from :data:`EVALUATION_SEEDS`' first seed): a change that
moves one fails there until the version (and docs/RESEARCH.md's table) moves too.

**Evaluation seeds.** :data:`EVALUATION_SEEDS` are the ``reset(seed=...)`` seeds of an evaluation of a policy
on an id: its first N, in order (N stated with the figure); matches between players (``diloti tournament``,
``bench/reference_table.py``) use :data:`MATCH_SEED` (duplicate deals).

>>> parse("Diloti-4p-game-v0")
EnvId(game='diloti', players=4, episode='game', version=0)
>>> parse("Diloti-4p-game-v0").kwargs, parse("Xeri-2p-round-v0").gym_id
({'game': 'diloti', 'players': 4, 'episode': 'game'}, 'diloti/Xeri-2p-round-v0')
>>> parse("Diloti-3p-round-v0")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
diloti.envs.driver.EnvArgumentError: invalid env_id='Diloti-3p-round-v0': expected one of Diloti-2p-round-v0, ...
>>> EVALUATION_SEEDS[:3], len(EVALUATION_SEEDS), MATCH_SEED
((1000, 1001, 1002), 1000, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diloti.core.registry import GAMES, GameInfo
from diloti.envs.driver import EnvArgumentError

#: Each game's environment version (0 for a game not listed).
VERSIONS: dict[str, int] = {"diloti": 0, "xeri": 0, "kontsina": 0, "mini": 0}
#: The reset seeds of an evaluation episode by episode (the first N of them).
EVALUATION_SEEDS: tuple[int, ...] = tuple(range(1000, 2000))
#: The seed of matches between players (duplicate deals): the reference table's.
MATCH_SEED = 1
#: The ``game`` of the default game's small deal (mini Diloti: not a registered game, OpenSpiel only); another
#: game's small deal is ``mini_<game>``.
MINI = "mini"


def _small_name(info: GameInfo) -> str:
    """The ``game`` of the id of ``info``'s small deal."""
    return MINI if info.default else f"{MINI}_{info.name}"


def _small_of(game: str) -> GameInfo | None:
    """The registered game whose small deal ``game`` names (None: ``game`` names no small deal)."""
    return next((info for info in GAMES.values() if info.small and _small_name(info) == game), None)


@dataclass(frozen=True)
class EnvId:
    """One versioned environment: a game, its player count, its episode kind and the version."""

    game: str
    players: int
    episode: str
    version: int

    @property
    def id(self) -> str:
        small = _small_of(self.game)
        name = f"Mini{small.title}" if small is not None else self.game.capitalize()
        return f"{name}-{self.players}p-{self.episode}-v{self.version}"

    @property
    def gym_id(self) -> str:
        """The id as registered with Gymnasium (``diloti/`` before it)."""
        return f"diloti/{self.id}"

    @property
    def kwargs(self) -> dict[str, Any]:
        """The environments' arguments the id fixes (PettingZoo's ``env``, Gymnasium's ``make``)."""
        return {"game": self.game, "players": self.players, "episode": self.episode}

    @property
    def libraries(self) -> tuple[str, ...]:
        return ("openspiel",) if _small_of(self.game) is not None else ("pettingzoo", "gymnasium", "openspiel")


def env_ids() -> dict[str, EnvId]:
    """Every id, by its text: each registered game with an envs part, each player count, each episode kind, and
    each small deal."""
    out: dict[str, EnvId] = {}
    smalls: list[EnvId] = []
    for name, info in GAMES.items():  # from the registry alone: no envs part is imported (they import this floor)
        if not info.has_part("envs"):
            continue
        for players in info.players:
            for episode in info.episodes:
                e = EnvId(name, players, episode, VERSIONS.get(name, 0))
                out[e.id] = e
        if info.small:
            small = _small_name(info)
            smalls.append(EnvId(small, 2, "round", VERSIONS.get(small, 0)))
    out.update((e.id, e) for e in smalls)
    return out


def parse(env_id: object) -> EnvId:
    """The environment of ``env_id``; an :class:`EnvArgumentError` naming it and the known ids if none."""
    known = env_ids()
    if not isinstance(env_id, str) or env_id not in known:
        raise EnvArgumentError(f"invalid env_id={env_id!r}: expected one of {', '.join(known)}")
    return known[env_id]


def with_id(env_id: object, kwargs: dict[str, Any], library: str) -> dict[str, Any]:
    """``kwargs`` with what ``env_id`` fixes; an :class:`EnvArgumentError` if they say otherwise or the id's
    environment is not offered by ``library``."""
    e = parse(env_id)
    if library not in e.libraries:
        raise EnvArgumentError(f"invalid env_id={env_id!r} for {library}: offered by {', '.join(e.libraries)}")
    for key, value in e.kwargs.items():
        if key in kwargs and kwargs[key] != value:
            raise EnvArgumentError(f"invalid {key}={kwargs[key]!r} with env_id={env_id!r}: the id fixes {value!r}")
    return {**kwargs, **e.kwargs}


def load_openspiel(env_id: str, params: dict[str, Any] | None = None) -> Any:
    """The OpenSpiel game of ``env_id`` (``params`` adds ``options``, ``dealer``; mini Diloti's ``deck``,
    ``hand`` and ``table`` make another deal, which a figure must then state)."""
    import pyspiel

    e = parse(env_id)
    small = _small_of(e.game)
    if small is not None:  # the game's envs part registers its small deal (the registry said it has one)
        from diloti.envs.games import find_env_game

        register = getattr(find_env_game(small.name).part, "small_openspiel", None)
        if register is None:
            raise EnvArgumentError(f"invalid env_id={env_id!r}: {small.name}'s envs part offers no small deal "
                                   "(its registry entry says small=True)")
        return pyspiel.load_game(register(), dict(params or {}))
    from diloti.envs.openspiel_game import register_openspiel

    short = register_openspiel(e.game)
    fixed: dict[str, Any] = {"players": e.players}
    if e.episode != "round":
        fixed["episode"] = e.episode
    return pyspiel.load_game(short, {**dict(params or {}), **fixed})


__all__ = ["EVALUATION_SEEDS", "MATCH_SEED", "VERSIONS", "EnvId", "env_ids", "load_openspiel", "parse", "with_id"]
