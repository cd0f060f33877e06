"""The OpenSpiel tensors kept from one step to the next are byte for byte those rebuilt whole from the view.

The observers keep each player's recall part (cards played, first table, move blocks) and extend it with the
moves played since the previous call, and Diloti's builds the observation from the state, keeping the bytes
before a move's head for its later steps (issue 52 item 3). These tests ask every player's tensor at every step
of random rounds (chance nodes too), for every game with an envs part and player count, from the observer
OpenSpiel's ``information_state_tensor`` uses and from observers made apart, and compare each with
:meth:`SpielObserver._rebuilt`, the whole rebuild from the view that ``set_from`` did before. Clones,
resampled states and whole games (a new round each) take the paths that start again.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the research extra (pip install 'diloti[research]') is missing")

import diloti.envs.openspiel_game  # noqa: E402, F401  (registers the games)
from diloti.envs.games import env_games  # noqa: E402

CASES = [(name, players) for name, g in env_games().items() for players in g.players]
KINDS = [(True, True), (False, True), (True, False), (False, False)]  # (perfect_recall, private)


def observers(game: Any) -> list[Any]:
    out = []
    for recall, private in KINDS:
        kind = pyspiel.IIGObservationType(
            perfect_recall=recall, public_info=True,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER if private else pyspiel.PrivateInfoType.NONE)
        out.append(game.make_py_observer(kind))
    return out


def check(state: Any, obs: list[Any], players: int) -> None:
    for o in obs:
        for p in range(players):
            o.set_from(state, p)
            assert o.tensor.tobytes() == o._rebuilt(state, p).tobytes(), (str(state), p, o.recall, o.private)


def step(state: Any, rng: random.Random) -> None:
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    else:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("name", "players"), CASES)
def test_tensors_at_every_step_equal_the_rebuild(name: str, players: int) -> None:
    game = pyspiel.load_game(f"python_{name}", {"players": players})
    obs = observers(game)
    rng = random.Random(players)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            check(state, obs, players)
            step(state, rng)
        check(state, obs, players)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_acting_player_asked_again_equals_the_rebuild(name: str, players: int) -> None:
    """The buffer already holding the same player's previous tensor (a move's item steps, a player asked twice),
    only what changed since is copied: asked for the player to act at every step, now and then for another
    player or for a clone (the buffer then holds another tensor), it is still the rebuild's, byte for byte."""
    game = pyspiel.load_game(f"python_{name}", {"players": players})
    obs = observers(game)
    rng = random.Random(13 + players)
    held = 0
    for _ in range(4):
        state = game.new_initial_state()
        last = -1
        while not state.is_terminal():
            if not state.is_chance_node():
                p = state.current_player()
                held += p == last
                last = p
                for o in obs:
                    o.set_from(state, p)
                    assert o.tensor.tobytes() == o._rebuilt(state, p).tobytes(), (str(state), p, o.recall, o.private)
                    if rng.random() < 0.1:  # the same again, nothing changed
                        o.set_from(state, p)
                        assert o.tensor.tobytes() == o._rebuilt(state, p).tobytes()
                if rng.random() < 0.1:  # another player's tensor, or a clone's, in between
                    other = state.clone() if rng.random() < 0.5 else state
                    q = rng.randrange(players)
                    for o in obs:
                        o.set_from(other, q)
                        assert o.tensor.tobytes() == o._rebuilt(other, q).tobytes()
                    last = -1
            step(state, rng)
        for o in obs:
            o.set_from(state, 0)
            assert o.tensor.tobytes() == o._rebuilt(state, 0).tobytes()
    if name != "xeri":  # a move of several steps: the same player asked in a row
        assert held > 0


@pytest.mark.parametrize(("name", "players"), CASES)
def test_pyspiel_information_state_tensor_equals_the_rebuild(name: str, players: int) -> None:
    """What pyspiel's own ``information_state_tensor`` and ``observation_tensor`` return (the game's one observer
    of each, shared by every state), step by step and for every player, two rounds played in turns."""
    game = pyspiel.load_game(f"python_{name}", {"players": players})
    info, plain = observers(game)[0], observers(game)[1]
    rng = random.Random(7)
    states = [game.new_initial_state(), game.new_initial_state()]
    while not all(s.is_terminal() for s in states):
        for state in states:
            if state.is_terminal():
                continue
            for p in range(players):
                got = np.asarray(state.information_state_tensor(p), np.float32)
                assert got.tobytes() == info._rebuilt(state, p).tobytes()
                got = np.asarray(state.observation_tensor(p), np.float32)
                assert got.tobytes() == plain._rebuilt(state, p).tobytes()
            step(state, rng)


def test_an_observers_tensor_is_read_only() -> None:
    """A write into the observer's tensor (or its dict's views) is refused: set_from rewrites only what changed, so
    a write from outside would survive into the next tensors of the same player."""
    game = pyspiel.load_game("python_diloti", {"players": 2})
    state = game.new_initial_state()
    for o in observers(game)[:2]:
        o.set_from(state, 0)
        with pytest.raises(ValueError, match="read-only"):
            o.tensor[0] = 1.0
        for view in o.dict.values():
            with pytest.raises(ValueError, match="read-only"):
                view.flat[0] = 1.0


@pytest.mark.parametrize(("name", "players"), CASES)
def test_clones_and_resampled_states_start_again(name: str, players: int) -> None:
    game = pyspiel.load_game(f"python_{name}", {"players": players})
    obs = observers(game)
    rng = random.Random(11)
    state = game.new_initial_state()
    while not state.is_terminal():
        check(state, obs, players)
        if rng.random() < 0.2:
            other = state.clone()
            step(other, rng)
            check(other, obs, players)
            if not other.is_chance_node() and not other.is_terminal():
                p = other.current_player()
                world = other.resample_from_infostate(p, rng.random)
                check(world, obs, players)
        check(state, obs, players)  # back to the first after the others
        step(state, rng)


def test_whole_games_start_again_each_round() -> None:
    game = pyspiel.load_game("python_diloti", {"players": 2, "episode": "game", "options": "target:21"})
    obs = observers(game)
    rng = random.Random(3)
    state = game.new_initial_state()
    rounds = [state.round]
    while not state.is_terminal():
        if state.round is not rounds[-1]:
            rounds.append(state.round)
        check(state, obs, 2)
        step(state, rng)
    assert len(rounds) > 1


#: Options that change what the tensors hold (the bottom card seen, redeal decisions, the games' own flags).
OPTIONS = [("diloti", 2, "dealer_sees_bottom face_card_redeal:any_deal liberal_groups soy"),
           ("diloti", 4, "dealer_sees_bottom face_card_redeal:first_deal self_raise"),
           ("xeri", 2, "xeri_jack_double no_xeri_last_card"),
           ("xeri", 4, "pile_any_pair_redeal"),
           ("kontsina", 3, "forced_capture"),
           ("kontsina", 4, "partnerships")]


@pytest.mark.parametrize(("name", "players", "options"), OPTIONS)
def test_tensors_with_options_equal_the_rebuild(name: str, players: int, options: str) -> None:
    game = pyspiel.load_game(f"python_{name}", {"players": players, "options": options})
    obs = observers(game)
    arrays = [o.tensor for o in obs]
    rng = random.Random(5)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            check(state, obs, players)
            step(state, rng)
        check(state, obs, players)
    assert all(o.tensor is a for o, a in zip(obs, arrays, strict=True))  # filled in place, as OpenSpiel reads it


def test_kept_tensor_writes_only_what_changed() -> None:
    """The kept tensor's writes reach the observer's array, and a float set back to zero is zero again."""
    from diloti.envs.kept import KeptTensor

    k = KeptTensor(size=2 * 52 + 3, total=2 * 52 + 3, planes=2)
    out = bytearray(4 * (2 * 52 + 3))
    floats = np.frombuffer(out, np.float32)
    k.observe([1 << 7, 1 << 51], [0.25, 0.0, 1.0])
    end = k.copy_into(out, 0)
    assert np.flatnonzero(floats).tolist() == [7, 52 + 51, 104, 106] and floats[104] == 0.25
    k.observe([1 << 8, 0], [0.0, 0.5, 1.0])
    k.copy_into(out, end)
    assert np.flatnonzero(floats).tolist() == [8, 105, 106] and floats[105] == 0.5


def test_mini_diloti_observed_from_its_view_equals_the_rebuild() -> None:
    """Mini Diloti's observation is made from its view (``observe_raw``), then kept as the others: the acting player
    asked twice in a row and another player between, each compared with the rebuild."""
    import diloti.games.diloti.envs.mini  # noqa: F401  (registers python_mini_diloti)

    game = pyspiel.load_game("python_mini_diloti", {"deck": "AC AD 2C 2D 3C 3D 4C 4D", "hand": 2, "table": 2})
    for recall in (True, False):
        o = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=recall))
        rng = random.Random(1)
        for _ in range(10):
            state = game.new_initial_state()
            while not state.is_terminal():
                if not state.is_chance_node():
                    for p in (state.current_player(), state.current_player(), rng.randrange(2)):
                        o.set_from(state, p)
                        assert o.tensor.tobytes() == o._rebuilt(state, p).tobytes(), (str(state), p, recall)
                step(state, rng)
