"""OpenSpiel's exact algorithms on a game small enough for them (mini Diloti, ``python_mini_diloti``): its
information states, the built-in levels as tabular policies, and the exploitability of any policy.

A level's policy is asked of the player itself at every information state: the move it chooses from the
seat's view, given as the action that is the next step of that move (the view, so the choice, is the same at
every state of an information state; a player with a seed chooses the same move every time). ``random``
is its exact distribution, uniform over the legal moves. A state reached only by a move other than the
player's own choice (its head taken already, another item named) has no such step: there the policy is
uniform over the legal actions, which no best response can profit from (the player never goes there).

OpenSpiel's C++ algorithms run on the game as a cached tree (``pyspiel.convert_to_cached_tree``: every
state, its actions and strings asked of the Python game once), hundreds of times faster than walking the
Python game each iteration.

>>> from diloti.envs.ids import load_openspiel
>>> game = load_openspiel("MiniDiloti-2p-round-v0", {"deck": "AC 2C 3C 2D", "hand": 1, "table": 1})
>>> infos = information_states(game)
>>> len(infos), sorted({s.current_player() for s in infos.values()})
(62, [0, 1])
>>> exploitability(game, level_policy(game, "greedy", infos)) >= 0
True
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pyspiel

from diloti.ai import make_player
from diloti.core.moves import Move


def information_states(game: Any) -> dict[str, Any]:
    """Every information state of ``game`` (its string, from the player to act) with one state of it.

    Every history is walked (states are told apart by their histories: two may look alike otherwise).
    """
    from open_spiel.python.algorithms import get_all_states

    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=False,
                                           include_chance_states=False, to_string=lambda s: s.history_str())
    out: dict[str, Any] = {}
    for state in states.values():
        out.setdefault(state.information_state_string(), state)
    return out


def _steps(state: Any, moves: list[Move]) -> Counter[int]:
    """How many of ``moves`` (legal from the move's start) go on with each action from the steps taken so far."""
    taken = tuple(state.taken)
    out: Counter[int] = Counter()
    for move in moves:
        seq = state.encode(move)
        if tuple(seq[:len(taken)]) == taken:
            out[seq[len(taken)]] += 1
    return out


def level_policy(game: Any, spec: str, infos: dict[str, Any] | None = None, seed: int = 1) -> Any:
    """The level of ``spec`` (``random``, ``greedy``, ``expert:iterations=100,seconds=none`` ...) as a
    ``pyspiel.TabularPolicy`` of ``game``, each seat's player made with ``seed``: its action at every
    information state (see the module's description). A search must be bounded by playouts, not seconds,
    for the policy to be the same on every run."""
    infos = information_states(game) if infos is None else infos
    players = [make_player(spec, seed=seed) for _ in range(game.num_players())]
    chosen: dict[tuple[int, str], Move] = {}  # a move's steps share its view: the player is asked once a move
    table: dict[str, list[tuple[int, float]]] = {}
    for info, state in infos.items():
        seat = state.current_player()
        legal = state.legal_actions()
        view = state.round.view(seat)
        if spec == "random":
            counts = _steps(state, list(view.legal))
        else:
            key = (seat, state.information_state_string(seat).rsplit("; choosing", 1)[0])
            move = chosen.get(key)
            if move is None:
                move = chosen[key] = players[seat].choose(view)
            counts = _steps(state, [move])
        total = sum(counts.values())
        if total:
            table[info] = [(a, counts[a] / total) for a in legal]
        else:  # off the player's own path
            table[info] = [(a, 1.0 / len(legal)) for a in legal]
    return pyspiel.TabularPolicy(table)


def cached(game: Any) -> Any:
    """``game`` as OpenSpiel's cached tree: its states asked of the Python game once, for the C++ algorithms."""
    return pyspiel.convert_to_cached_tree(game)


def exploitability(game: Any, policy: Any) -> float:
    """What a best response gains against ``policy`` playing every seat, averaged over the seats (NashConv / 2
    for two players: 0 at a Nash equilibrium), in the game's points; on the cached tree."""
    return float(pyspiel.exploitability(cached(game), policy))


__all__ = ["cached", "exploitability", "information_states", "level_policy"]
