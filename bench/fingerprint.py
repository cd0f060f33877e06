"""Fingerprints of the rules core's answers, to compare the compiled core with the pure one.

Prints one JSON object: which core ran, and a SHA-256 per kind of answer: the legal moves and scores of
random rounds (every option mix the table analysis has a path for, 2 and 4 players, large tables),
perft counts, the computer players' moves for a seed (heuristic, expert, master with playout budgets,
so reproducible), and, when the research extra is installed, PettingZoo and OpenSpiel trajectories.
tests/test_core_build.py runs it twice, with ``DILOTI_PURE=0`` and ``DILOTI_PURE=1``, and compares.

    DILOTI_PURE=1 .venv/bin/python bench/fingerprint.py --rounds 20
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

from diloti._core import CORE
from diloti.core.perft import perft
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State

OPTION_MIXES: list[dict[str, Any]] = [
    {}, {"liberal_groups": True}, {"liberal_capture": True, "liberal_raise": True}, {"forced_capture": True},
    {"soy": True, "self_raise": True}, {"three_faces_stay": True, "xeri_first_card": True},
]


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def random_rounds(rounds: int) -> str:
    """Every legal move list, the move chosen and the score of random rounds."""
    out: list[str] = []
    rng = random.Random(1)
    for i in range(rounds):
        for mix in OPTION_MIXES:
            players = 4 if i % 3 == 2 else 2
            s = State.new(players, Options(**mix), dealer=i % players, seed=rng.randrange(2**63))
            while not s.is_over:
                moves = s.legal_moves()
                out.append(" ".join(map(str, moves)))
                if rng.random() < 0.1 and s.history:  # push and pop, as a search does
                    undone = s.pop()
                    out.append(f"pop {undone}")
                    continue
                s.push(rng.choice(moves))
            out.append(f"score {s.points()} {s.score()}")
    return _digest(out)


def large_tables(rounds: int) -> str:
    """Move lists of positions with large tables (the lazy generator and the sorted shape-cache path)."""
    out: list[str] = []
    rng = random.Random(2)
    for _ in range(rounds):
        deck = list(range(52))
        rng.shuffle(deck)
        n = rng.randrange(10, 17)
        s = State.from_parts(hands=[deck[:6], deck[6:12]], table=deck[12:12 + n], stock=deck[12 + n:12 + n + 24],
                             check=False)
        out.append(" ".join(map(str, s.legal_moves())))
        out.append(" ".join(map(str, s.generate_legal_moves())))
    return _digest(out)


def perft_counts() -> str:
    return _digest([f"{seed} {perft(State.new(seed=seed), 3)} {perft(State.new(4, seed=seed), 2)}"
                    for seed in range(6)])


def players(moves: int) -> str:
    """The moves the computer players choose in rounds played by them, from fixed seeds."""
    from diloti.ai import make_player

    out: list[str] = []
    specs = ["heuristic", "expert:iterations=40,seconds=none", "master:iterations=40,seconds=none"]
    for k, spec in enumerate(specs):
        s = State.new(seed=100 + k)
        bots = [make_player(spec, seed=7 + seat) for seat in range(2)]
        for _ in range(moves):
            if s.is_over:
                break
            move = bots[s.turn].choose(s.view(s.turn))
            out.append(f"{spec} {s.turn} {move}")
            s.play(move)
    return _digest(out)


def pettingzoo(steps: int) -> str | None:
    try:
        from diloti.envs.pettingzoo_env import env
    except ImportError:
        return None
    out: list[str] = []
    e = env()
    e.reset(seed=3)
    rng = random.Random(3)
    for _ in range(steps):
        agent = e.agent_selection
        obs, reward, term, trunc, _ = e.last()
        out.append(f"{agent} {reward} {term} {trunc} " + hashlib.sha256(
            b"".join(v.tobytes() for _, v in sorted(obs.items()))).hexdigest())
        if term or trunc:
            e.step(None)
            if not e.agents:
                e.reset(seed=rng.randrange(2**31))
            continue
        legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        e.step(rng.choice(legal))
    return _digest(out)


def openspiel(steps: int) -> str | None:
    try:
        import pyspiel

        import diloti.envs.openspiel_game  # noqa: F401 - registers python_diloti
    except ImportError:
        return None
    game = pyspiel.load_game("python_diloti")
    rng = random.Random(4)
    out: list[str] = []
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            out.append(f"returns {state.returns()}")
            state = game.new_initial_state()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        out.append(str(state))
        out.append(str(state.information_state_tensor(state.current_player())[:300]))
        state.apply_action(rng.choice(state.legal_actions()))
        if rng.random() < 0.05:
            state = state.clone()
    return _digest(out)


def fingerprints(rounds: int) -> dict[str, Any]:
    parts: dict[str, Callable[[], str | None]] = {
        "random_rounds": lambda: random_rounds(rounds), "large_tables": lambda: large_tables(rounds * 5),
        "perft": perft_counts, "players": lambda: players(rounds), "pettingzoo": lambda: pettingzoo(rounds * 50),
        "openspiel": lambda: openspiel(rounds * 30),
    }
    return {"core": CORE, **{name: f() for name, f in parts.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=10, help="random rounds per option mix (default 10)")
    args = parser.parse_args()
    print(json.dumps(fingerprints(args.rounds), sort_keys=True))


if __name__ == "__main__":
    main()
