"""The chance to win the game after a move: from the game's scores, the target, and the move's expected
round points (the search's estimate), for hints and ``diloti analyse``.

How a round's points fall between two equal sides is measured once per game, and is the game's own data
(Diloti's: ``bench/round_points.py``, thousands of rounds between two ``heuristic`` players, in
``games/diloti/players/data/round_points.json``); ``source`` names the package whose ``data`` folder holds
it. From it, :func:`game_chance`
works out by dynamic programming the chance that a side with ``a`` points beats one with ``b`` points to the
target, playing on round by round (a tie at or over the target plays another round, as RULES.md says). A move
of this round is worth its expected points difference ``d``: the round ends with the measured spread around
that difference, narrowed by how much of the round is already played (the spread of what is left of it).

This is a model, not a search of the whole game: it takes the two sides as equal from the next round on.

>>> src = "diloti.games.diloti.players"
>>> round(game_chance(src, 0, 0, 61), 3), game_chance(src, 60, 0, 61) > 0.95, game_chance(src, 0, 60, 61) < 0.05
(0.5, True, True)
>>> a, b = move_chance(src, 40, 40, 61, -5.0, 0.5), move_chance(src, 40, 40, 61, 5.0, 0.5)
>>> a < 0.5 < b
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from importlib import resources
from math import erf, sqrt
from typing import Any

from diloti.core.moves import Move

MAX_EXACT_TARGET = 201  # above it the chance comes from a normal approximation (the table would be too big)


@functools.cache
def _splits(source: str, players: int) -> tuple[tuple[int, int, float], ...]:
    """The measured splits of a round's points ``(one side, the other, probability)``, from the package
    ``source``'s ``data/round_points.json``."""
    key = "4p" if players == 4 else "2p"
    data = json.loads((resources.files(source) / "data" / "round_points.json").read_text())
    rows = data[key]
    total = sum(n for _, _, n in rows)
    return tuple((x, y, n / total) for x, y, n in rows)


@functools.cache
def _moments(source: str, players: int) -> tuple[float, float, float]:
    """Mean points of a side, mean round total, and the standard deviation of the difference."""
    splits = _splits(source, players)
    mean = sum(x * p for x, _, p in splits)
    total = sum((x + y) * p for x, y, p in splits)
    var = sum((x - y) ** 2 * p for x, y, p in splits)  # the difference's mean is 0: the sides are equal
    return mean, total, sqrt(var)


@functools.cache
def _table(source: str, players: int, target: int) -> dict[tuple[int, int], float]:
    """The chance that the side with ``a`` wins against ``b`` (both under ``target``), every ``(a, b)``."""
    splits = _splits(source, players)
    win: dict[tuple[int, int], float] = {}
    # Every round gives out at least a few points, so (a, b) leads only to positions of larger a + b:
    # fill them from the largest sum down.
    for s in range(2 * target - 2, -1, -1):
        for a in range(max(0, s - target + 1), min(s, target - 1) + 1):
            b = s - a
            total = 0.0
            for x, y, p in splits:
                total += p * _after(win, a + x, b + y, target)
            win[a, b] = total
    return win


def _after(win: dict[tuple[int, int], float], a: int, b: int, target: int) -> float:
    if a >= target or b >= target:
        if a != b:
            return 1.0 if a > b else 0.0
        return 0.5  # level at or over the target: the next rounds decide, and the sides are equal
    return win[a, b]


def game_chance(source: str, a: int, b: int, target: int, players: int = 2) -> float:
    """The chance that a side with ``a`` points beats one with ``b`` to ``target``, equal sides from now on,
    by the splits of ``source`` (a game's players package)."""
    if a >= target or b >= target:
        return 1.0 if a > b else 0.0 if b > a else 0.5
    if target <= MAX_EXACT_TARGET:
        return _table(source, players, target)[a, b]
    mean, _, sd = _moments(source, players)
    rounds = max(1.0, (target - max(a, b)) / max(mean, 1.0))
    return 0.5 * (1.0 + erf((a - b) / (sd * sqrt(2.0 * rounds))))


def move_chance(source: str, a: int, b: int, target: int, expected: float, left: float, players: int = 2) -> float:
    """The chance to win after a move expected to end this round ``expected`` points ahead (the mover's side
    less the other), with ``a`` and ``b`` points before the round and a share ``left`` (0..1) of the round's
    cards still to be played."""
    mean, total, _ = _moments(source, players)
    spread = sqrt(max(0.0, min(1.0, left)))
    mine, theirs = (total + expected) / 2, (total - expected) / 2
    chance = 0.0
    for x, y, p in _splits(source, players):
        chance += p * _between(source, a + mine + (x - mean) * spread, b + theirs + (y - mean) * spread, target,
                               players)
    return chance


def _between(source: str, fa: float, fb: float, target: int, players: int) -> float:
    """:func:`game_chance` at points that are not whole (an expectation): weighed between the four whole
    neighbours, so that a tenth of a point more expected is a little more chance, not a step."""
    ia, ib = int(fa // 1), int(fb // 1)
    wa, wb = fa - ia, fb - ib
    return ((1 - wa) * (1 - wb) * game_chance(source, max(ia, 0), max(ib, 0), target, players)
            + wa * (1 - wb) * game_chance(source, max(ia + 1, 0), max(ib, 0), target, players)
            + (1 - wa) * wb * game_chance(source, max(ia, 0), max(ib + 1, 0), target, players)
            + wa * wb * game_chance(source, max(ia + 1, 0), max(ib + 1, 0), target, players))


def round_chances(view: Any, ranked: Sequence[tuple[Move, float]], cards: int, source: str) -> list[float]:
    """This module's model for a game of two sides alternating seats with the game's points in ``view.scores``
    and a target in ``view.options.target``, ``cards`` cards played in a round (Diloti's 48), and its
    measured round splits in the package ``source``'s ``data/round_points.json``."""
    side = view.seat & 1
    a, b = view.scores[side], view.scores[1 - side]
    left = (sum(view.hand_sizes) + view.stock_size) / cards  # the share of the round's cards still to play
    return [move_chance(source, a, b, view.options.target, est, left, view.players) for _, est in ranked]


__all__ = ["MAX_EXACT_TARGET", "game_chance", "move_chance", "round_chances"]
