"""A game registered at test time plays in the three environments through its envs part alone.

The toy game is Kontsina's rules under another name, for two players, with an envs part defined in this module
(its own smaller observation layout, Kontsina's action encoding): nothing of it is known to the environments
before it is registered. PettingZoo's api_test and seed_test, Gymnasium's check_env and OpenSpiel's
random_sim_test (with serialisation) pass on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import ClassVar

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is not installed")
pyspiel = pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")

import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import diloti.envs  # noqa: E402
from diloti.envs import pettingzoo_env  # noqa: E402
from diloti.envs.driver import EnvArgumentError  # noqa: E402
from diloti.envs.games import find_env_game  # noqa: E402
from diloti.envs.gym_env import CardGameEnv  # noqa: E402
from diloti.envs.openspiel_game import register_openspiel  # noqa: E402
from diloti.envs.part import EnvPart  # noqa: E402
from diloti.games import GameInfo, registered  # noqa: E402
from diloti.games.kontsina import envs as kontsina_envs  # noqa: E402
from diloti.games.kontsina.rules import KontsinaGame, KontsinaOptions, KontsinaState  # noqa: E402
from diloti.games.onecard.envs import HandEnv  # noqa: E402
from diloti.games.onecard.envs.actions import HandEncoding  # noqa: E402
from diloti.games.onecard.envs.observation import COMMON_TAIL, Board, HandLayout, Seen  # noqa: E402

NAME = "toykontsina"


class ToyState(KontsinaState):
    GAME: ClassVar[str] = NAME
    __slots__ = ()


PARTS = (
    ("hand", 52, "own hand"),
    ("table", 52, "the table"),
    ("captured", 2 * 52, "each side's captures, own first"),
    ("unseen", 52, "cards not seen"),
    ("hand_sizes", 4, "cards in each hand / 4"),
    ("stock", 1, "undealt cards / 52"),
    ("captured_counts", 2, "cards captured by each side / 52"),
    *COMMON_TAIL,
    ("deal", 6, "the deal, one-hot"),
    ("plays", 1, "cards played / 48"),
)


def fill(view: Board, head: int, chosen: int, seen: Seen, tail: list[float], at: dict[str, int]) -> Sequence[int]:
    return [seen.hand, seen.table, seen.caps[0], seen.caps[1], seen.unseen]


ENCODING = HandEncoding(NAME, kontsina_envs.HEADS, kontsina_envs.head, kontsina_envs.describe_head, items=True)
ENV = HandEnv(NAME, ENCODING, HandLayout(PARTS, planes=5, hand_size=4, fill=fill), kontsina_envs.MAX_POINTS,
              kontsina_envs.MAX_STEPS)
_CONTRACT: EnvPart = ENV


@pytest.fixture
def toy() -> Iterator[GameInfo]:
    info = GameInfo(NAME, ToyState, KontsinaGame, KontsinaOptions, (2,), "docs/RULES-KONTSINA.md", "hand",
                    {"envs": __name__})
    with registered(info):
        yield info


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_pettingzoo_plays_a_game_registered_later(toy: GameInfo) -> None:
    env = pettingzoo_env.env(game=NAME)
    assert env.unwrapped.metadata["name"] == "toykontsina_v0"
    assert env.observation_space("player_0")["observation"].shape == (ENV.size,) == (291,)
    api_test(env, num_cycles=100)
    seed_test(lambda: pettingzoo_env.env(game=NAME), num_cycles=50)
    with pytest.raises(EnvArgumentError, match="invalid players=3 for game='toykontsina': expected 2"):
        pettingzoo_env.env(game=NAME, players=3)
    with pytest.raises(EnvArgumentError, match="whole-game episodes: diloti"):
        pettingzoo_env.env(game=NAME, episode="game")


@pytest.mark.filterwarnings("ignore::UserWarning")  # check_env's remarks on a Dict observation space
def test_gymnasium_plays_a_game_registered_later(toy: GameInfo) -> None:
    env = CardGameEnv(game=NAME, opponent="random")
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == (291,) and obs["action_mask"].shape == (156,)
    env_id = diloti.envs.register_gymnasium(NAME)
    assert env_id == "diloti/Toykontsina-v0"
    made = gymnasium.make(env_id, opponent="random")
    made.reset(seed=2)
    made.close()


def test_openspiel_plays_a_game_registered_later(toy: GameInfo) -> None:
    assert register_openspiel(NAME) == "python_toykontsina"
    assert register_openspiel(NAME) == "python_toykontsina"  # once
    game = pyspiel.load_game("python_toykontsina")
    assert game.num_distinct_actions() == 156 and game.observation_tensor_shape() == [291]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.round.game == NAME and np.asarray(state.observation_tensor()).sum() > 0


def test_a_game_without_an_envs_part_is_refused_naming_the_games() -> None:
    info = GameInfo("bare", ToyState, KontsinaGame, KontsinaOptions, (2,), "docs/RULES-KONTSINA.md", "hand")
    with registered(info), pytest.raises(EnvArgumentError, match="invalid game='bare': expected one of diloti, "):
        find_env_game("bare")



class _WithSmallDeal:
    """The toy's envs part that also offers a small deal (the toy's own OpenSpiel game stands for it)."""

    def __getattr__(self, name: str) -> object:
        return getattr(ENV, name)

    def small_openspiel(self) -> str:
        return register_openspiel(NAME)


def test_a_game_that_says_it_has_a_small_deal_gets_its_id_and_its_envs_part_loads_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The ids ask the registry, and OpenSpiel the game's envs part, for a small deal: never a game's name."""
    import dataclasses
    import sys
    import types

    from diloti.envs.ids import env_ids, load_openspiel

    plain = GameInfo(NAME, ToyState, KontsinaGame, KontsinaOptions, (2,), "docs/RULES-KONTSINA.md", "hand",
                     {"envs": __name__}, small=True)
    with registered(plain):
        ids = env_ids()
        small = ids["MiniToykontsina-2p-round-v0"]
        assert (small.game, small.libraries) == ("mini_toykontsina", ("openspiel",))
        assert ids["MiniDiloti-2p-round-v0"].game == "mini"  # the default game's, as it was
        with pytest.raises(EnvArgumentError, match="toykontsina's envs part offers no small deal"):
            load_openspiel("MiniToykontsina-2p-round-v0")
    module = types.ModuleType("toy_small_envs")
    module.ENV = _WithSmallDeal()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_small_envs", module)
    with registered(dataclasses.replace(plain, parts={"envs": "toy_small_envs"})):
        assert load_openspiel("MiniToykontsina-2p-round-v0").num_distinct_actions() == 156
    assert "MiniToykontsina-2p-round-v0" not in env_ids()
