"""The evaluation harness: policies as players in matches, levels as PettingZoo policies and OpenSpiel bots."""

from __future__ import annotations

import random
import re
import sys
import types
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")

import diloti.envs.openspiel_game  # noqa: E402, F401  (registers the games)
from diloti.envs import pettingzoo_env  # noqa: E402
from diloti.envs.actions import InvalidActionError  # noqa: E402
from diloti.envs.policies import LevelBot, LevelPolicy, PolicyPlayer, RestartableISMCTSBot  # noqa: E402
from diloti.games.diloti.envs import openspiel as openspiel_game  # noqa: E402
from diloti.games.diloti.state import State  # noqa: E402
from diloti.match.tournament import play_match  # noqa: E402


def lowest(observation: np.ndarray, mask: np.ndarray) -> int:
    assert not observation.flags.writeable and not mask.flags.writeable
    return int(mask.nonzero()[0][0])


@pytest.mark.parametrize(("game", "players"), [("diloti", 2), ("diloti", 4), ("xeri", 2), ("kontsina", 3)])
def test_a_policy_player_plays_legal_moves_from_its_view(game: str, players: int) -> None:
    rng = random.Random(1)
    s = State.new(game=game, players=players, seed=4) if game != "diloti" else State.new(players, seed=4)
    player = PolicyPlayer(lambda obs, mask: rng.choice(mask.nonzero()[0].tolist()))
    while not s.is_over:
        view = s.view(s.turn)
        move = player.choose(view)
        assert move in s.legal_moves()
        s.push(move)


def test_a_policy_that_ignores_the_mask_is_refused() -> None:
    s = State.new(seed=2)
    with pytest.raises(InvalidActionError, match="illegal action 10000"):
        PolicyPlayer(lambda obs, mask: 10000).choose(s.view(s.turn))


def test_a_policy_plays_in_tournament_by_import_path() -> None:
    module = types.ModuleType("harness_bots")
    module.Lowest = lambda seed=None, **settings: PolicyPlayer(lowest)  # type: ignore[attr-defined]
    sys.modules["harness_bots"] = module
    try:
        r = play_match("harness_bots:Lowest", "random", games=2, seed=1, rounds=1)
    finally:
        del sys.modules["harness_bots"]
    assert r.games == 2


def test_levels_as_pettingzoo_policies() -> None:
    env = pettingzoo_env.env(players=4)
    env.reset(seed=3)
    policies = {agent: LevelPolicy(env, "heuristic" if i % 2 else "greedy", seed=i)
                for i, agent in enumerate(env.possible_agents)}
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else policies[agent](agent))
    assert sum(env.unwrapped.rewards.values()) == 0


@pytest.mark.parametrize("name", [openspiel_game.SHORT_NAME, "python_kontsina"])
def test_levels_as_openspiel_bots_in_evaluate_bots(name: str) -> None:
    game = pyspiel.load_game(name)
    bots = [LevelBot(0, "heuristic", seed=1), LevelBot(1, "greedy", seed=2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 5)
    assert sum(returns) == 0


def test_ismcts_runs_in_evaluate_bots_with_restart_at() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(openspiel_game.SHORT_NAME)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    ismcts = RestartableISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8,
                                  random_state=np.random.RandomState(0))
    returns = pyspiel.evaluate_bots(game.new_initial_state(), [ismcts, LevelBot(1, "random", seed=0)], 3)
    assert sum(returns) == 0


def test_an_openspiel_bot_plays_a_round_from_its_view_alone() -> None:
    from diloti.envs.policies import ISMCTSPlayer
    from diloti.games.diloti.players.sampler import sample_state

    s = State.new(seed=5)
    player, twin = ISMCTSPlayer(seed=3, simulations=8), ISMCTSPlayer(seed=3, simulations=8)
    while not s.is_over:
        view = s.view(s.turn)
        if s.turn == 0:
            # Another truth behind the same view (other hidden cards) must give the same move: the bot sees
            # only the view, and the twin's seeded search is the same.
            other = sample_state(view, random.Random(len(s.history)))
            assert other.view(0) == view
            move = player.choose(view)
            assert twin.choose(other.view(0)) == move
        else:
            move = random.Random(len(s.history)).choice(s.legal_moves())
        assert move in s.legal_moves()
        s.push(move)


@pytest.mark.parametrize("game", ["xeri", "kontsina"])
def test_an_openspiel_bot_plays_any_registered_game(game: str) -> None:
    from diloti.envs.policies import ISMCTSPlayer
    from diloti.games import find_game

    s = find_game(game).new_state(seed=5)
    player = ISMCTSPlayer(seed=3, simulations=4)
    rng = random.Random(1)
    while not s.is_over:
        move = player.choose(s.view(s.turn)) if s.turn == 0 else rng.choice(s.legal_moves())
        assert move in s.legal_moves()
        s.push(move)


def test_ismcts_plays_in_tournament_by_import_path() -> None:
    r = play_match("diloti.envs.policies:ISMCTSPlayer:simulations=4", "random", games=2, seed=1, rounds=1)
    assert r.games == 2 and r.results[0].moves > 0


def test_the_reference_cross_table_reads_a_match_from_both_sides(tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    try:
        import reference_table as reference  # bench/reference_table.py (tests/reference.py is another module)
    finally:
        sys.path.pop(0)
    from diloti.match.sequential import append_result
    from diloti.match.tournament import GameResult

    # Two duplicate pairs: greedy wins 3 of 4 games, by 10 points a round in the first pair, 2 in the second.
    for index, (a, b, winner) in enumerate([(61, 1, "a"), (61, 1, "a"), (61, 49, "a"), (49, 61, "b")]):
        append_result(str(reference.path_of(tmp_path, "greedy", "random")),
                      GameResult(index, index % 2, a, b, 6, winner, 0.1, 100, 0))
    rows = {line.split(" | ")[0].strip("|* "): line.split(" | ")[1:] for line in
            reference.table(tmp_path).splitlines()[2:]}
    number = r"([+-]?\d+(?:\.\d+)?)"
    pattern = re.compile(rf"{number}% \({number}%–{number}%\); {number} \({number}\.\.{number}\) \[4\]")
    names = list(reference.PLAYERS)
    greedy = pattern.fullmatch(rows["greedy"][names.index("random")].strip())
    random_ = pattern.fullmatch(rows["random"][names.index("greedy")].strip())
    assert greedy and random_
    g, r = [float(x) for x in greedy.groups()], [float(x) for x in random_.groups()]
    assert g[0] == 75 and r[0] == 25 and g[1] + r[2] == 100 and g[2] + r[1] == 100
    assert g[3] == -r[3] > 0 and g[4] == -r[5] and g[5] == -r[4]
    assert rows["greedy"][names.index("expert")].strip() == "—"
