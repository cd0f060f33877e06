"""The environments' fast paths against a computation from scratch, at every step of random rounds of every game.

A driver keeps each seat's observation from the start of a move and writes the move being chosen into a
copy of it at the later steps, and Diloti's reads it from the state without building the view; a decision
is copied (not walked) when OpenSpiel clones a state. Each must give exactly what building everything
again from the seat's view gives.
"""

from __future__ import annotations

import copy
import functools
import pickle
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pip install 'diloti[research]') is missing")

from diloti.envs.games import find_env_game
from diloti.games.diloti.envs.observation import observe, observe_state, with_prefix
from diloti.games.diloti.state import State

CASES = [
    ("diloti", 2, None, "round"), ("diloti", 4, None, "round"),
    ("diloti", 2, {"liberal_groups": True, "liberal_raise": True, "soy": True, "dealer_sees_bottom": True}, "round"),
    ("diloti", 4, {"forced_capture": True, "self_raise": True, "face_card_redeal": "any_deal"}, "round"),
    ("diloti", 2, {"target": 21}, "game"),
    ("xeri", 2, None, "round"), ("xeri", 4, None, "round"), ("kontsina", 3, None, "round"),
]


def fresh_view(driver: Any, seat: int) -> Any:
    return driver.state.view(seat) if driver.match is None else driver.match.view(seat)


@pytest.mark.parametrize(("game", "players", "options", "episode"), CASES)
def test_observations_and_masks_equal_a_rebuild_from_the_view(game: str, players: int, options: Any,
                                                               episode: str) -> None:
    g = find_env_game(game)
    rng = random.Random(7)
    steps = prefixed = 0
    for r in range(3):
        d = g.driver(players, g.check_options(options, players), r % players, rng.randrange(2**32), episode)
        taken: list[int] = []  # the actions of the move being chosen, so far
        previous: list[Any] = []
        while not d.over:
            # Every seat, the acting one first or last (the caches must not depend on the order of asking).
            seats = list(range(players))
            rng.shuffle(seats)
            mover = d.to_act
            scratch = g.decision(fresh_view(d, mover))
            for a in taken:
                scratch.apply(a)
            want_mask = np.zeros(g.num_actions, np.int8)
            want_mask[scratch.legal_actions()] = 1
            assert d.mask().tobytes() == want_mask.tobytes()
            assert d.actions() == scratch.legal_actions()
            head, chosen = d.decision.head, d.decision.chosen
            prefixed += head >= 0
            got = []
            for seat in seats:
                o = d.observation(seat)
                want = g.observe(fresh_view(d, seat), head, chosen)
                assert o.dtype == want.dtype and o.tobytes() == want.tobytes(), (game, seat, head, chosen)
                assert not o.flags.writeable
                assert o is d.observation(seat)  # the same array for every reader of one step
                assert all(o is not p for p in previous)  # and a new one each step
                got.append(o)
            previous = got
            action = rng.choice(d.actions())
            move = d.apply(action)
            taken = [] if move is not None else [*taken, action]
            steps += 1
    assert steps > 100
    assert prefixed > 10 or game == "xeri"  # the later steps of moves were met (a Xeri move is one step)


def test_a_reader_that_writes_its_observation_does_not_change_the_next_steps() -> None:
    g = find_env_game("diloti")
    d = g.driver(2, g.check_options(None, 2), 0, 11)
    rng = random.Random(2)
    while not d.over:
        o = d.observation(d.to_act)
        o.flags.writeable = True  # numpy lets an owner do this: the driver's own copy must not see it
        o[:] = 0.5
        assert d.observation(d.to_act) is o
        d.apply(rng.choice(d.actions()))
        if not d.over:
            seat, dec = d.to_act, d.decision
            assert d.observation(seat).tobytes() == observe(fresh_view(d, seat), dec.head, dec.chosen).tobytes()


@pytest.mark.parametrize("players", [2, 4])
def test_observe_state_and_with_prefix_equal_observe_on_random_rounds(players: int) -> None:
    rng = random.Random(players)
    for r in range(6):
        s = State.new(players, dealer=r % players, seed=rng.randrange(2**32))
        while not s.is_over:
            scores = (rng.randrange(-20, 70), rng.randrange(-20, 70)) if r % 2 else (0, 0)
            for seat in range(players):
                base = observe_state(s, seat, scores)
                view = s.view(seat, scores)
                assert base.tobytes() == observe(view).tobytes()
                head, chosen = rng.randrange(506), rng.getrandbits(52) & rng.getrandbits(52)
                assert with_prefix(base, head, chosen).tobytes() == observe(view, head, chosen).tobytes()
            s.push(rng.choice(s.legal_moves()))


@pytest.mark.parametrize("game", ["diloti", "kontsina"])
def test_copies_of_a_driver_mid_move_go_on_like_it(game: str) -> None:
    g = find_env_game(game)
    d = g.driver(2, g.check_options(None, 2), 1, 5)
    rng = random.Random(3)
    while d.decision.head < 0:  # into a move of several steps, its observations cached
        for seat in range(2):
            d.observation(seat)
        d.apply(rng.choice(d.actions()))
    for seat in range(2):
        d.observation(seat)
    copies = [copy.deepcopy(d), pickle.loads(pickle.dumps(d)), copy.copy(d)]

    def play(x: Any) -> list[bytes]:
        r = random.Random(9)
        out = []
        while not x.over:
            out.append(x.observation(0).tobytes() + x.observation(1).tobytes() + x.mask().tobytes())
            x.apply(r.choice(x.actions()))
        return out
    original = play(d)
    for c in copies[:2]:
        assert play(c) == original


def test_an_openspiel_clone_mid_move_is_independent_of_its_original() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import diloti.envs.openspiel_game  # noqa: F401 - registers python_diloti

    game = pyspiel.load_game("python_diloti")
    rng = random.Random(4)
    found = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            if state.taken:  # mid-move, the decision made: clone, step the clone, the original is unchanged
                found += 1
                before = (str(state), legal, state.observation_tensor(), state.information_state_string())
                clone = state.clone()
                assert clone.legal_actions() == legal and str(clone) == str(state)
                clone.apply_action(rng.choice(legal))
                assert clone.decision is not state.decision
                assert (str(state), state.legal_actions(), state.observation_tensor(),
                        state.information_state_string()) == before
            state.apply_action(rng.choice(legal))
    assert found > 20


GYM_CASES = [("diloti", 2, None, "round"), ("diloti", 4, {"face_card_redeal": "any_deal"}, "round"),
             ("diloti", 2, {"target": 21}, "game"), ("xeri", 2, None, "round"), ("xeri", 4, None, "round"),
             ("kontsina", 3, None, "round"), ("kontsina", 4, {"partnerships": True}, "round")]


def gym_trajectory(game: str, players: int, options: Any, episode: str, seed: int) -> list[Any]:
    from diloti.envs.gym_env import CardGameEnv

    env = CardGameEnv(opponent="random", players=players, options=options, game=game, episode=episode)
    rng = random.Random(seed)
    out: list[Any] = []
    for episode_no in range(3):
        obs, info = env.reset(seed=seed * 10 + episode_no)
        done = False
        while not done:
            assert env.driver is not None
            out.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), info["seat"], env.driver.steps))
            obs, reward, done, _, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            out.append(reward)
    return out


@pytest.mark.parametrize(("game", "players", "options", "episode"), GYM_CASES)
def test_the_random_opponent_plays_as_it_does_from_its_view(game: str, players: int, options: Any, episode: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Gymnasium plays a random opponent's move from the state's legal moves, without its view or decision:
    the same trajectory (observations, masks, rewards, the driver's step count) as choosing from its view."""
    import diloti.envs.gym_env as gym_env

    fast = gym_trajectory(game, players, options, episode, 5)
    monkeypatch.setattr(gym_env, "RandomPlayer", type("NotRandom", (), {}))  # every opponent through its view
    assert gym_trajectory(game, players, options, episode, 5) == fast
    assert len(fast) > 60


@pytest.mark.parametrize(("game", "players", "options", "episode"), CASES)
def test_a_moves_actions_counted_without_the_decision_equal_its_encoding(game: str, players: int, options: Any,
                                                                         episode: str) -> None:
    g = find_env_game(game)
    rng = random.Random(11)
    moves = 0
    for r in range(3):
        d = g.driver(players, g.check_options(options, players), r % players, rng.randrange(2**32), episode)
        while not d.over:
            for m in d.state.legal_moves():
                assert d._steps_of(m) == len(d.decision.encode(m))
                moves += 1
            fresh = g.driver(players, g.check_options(options, players), 0, 0, episode)
            fresh.state, fresh.match, fresh.steps = d.state.copy(), copy.deepcopy(d.match), d.steps
            if fresh.match is not None:
                fresh.state = fresh.match.state
            m = rng.choice(d.state.legal_moves())
            d.play(m)
            fresh.play_legal(m)  # without the decision: the same state and the same count
            assert fresh.steps == d.steps and fresh.state == d.state and fresh.over == d.over
    assert moves > 200


@pytest.mark.parametrize("game", ["python_diloti", "python_xeri", "python_kontsina"])
def test_openspiel_chance_outcomes_and_legal_actions_equal_the_engines(game: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import diloti.envs.openspiel_game  # noqa: F401 - registers the games

    g = pyspiel.load_game(game)
    rng = random.Random(6)
    nodes = 0
    for _ in range(3):
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                want = [(int(c), p) for c, p in state.round.chance_outcomes()]
                assert outcomes == want and all(type(a) is int for a, _ in outcomes)
                assert state.legal_actions() == [a for a, _ in want]
                state.apply_action(rng.choice(want)[0])
            else:
                legal = state.legal_actions()
                assert legal == state.decision.legal_actions()
                assert state.legal_actions(state.current_player()) == legal
                assert all(state.legal_actions(p) == [] for p in range(g.num_players()) if p != state.current_player())
                state.apply_action(rng.choice(legal))
            nodes += 1
    assert nodes > 100


@pytest.mark.parametrize("game", ["diloti", "xeri", "kontsina"])
def test_every_games_decision_defines_the_steps_interface(game: str) -> None:
    # StepDecision declares num_actions, actions, apply, encode and describe natively (compiled, a subclass's
    # override is found through its vtable), raising NotImplementedError; each game's decision defines them all.
    from diloti.envs.actions import StepDecision

    g = find_env_game(game)
    d = g.driver(2, g.check_options(None, 2), 1, 5)
    cls = type(d.decision)
    assert issubclass(cls, StepDecision) and cls is not StepDecision
    missing = [name for name in ("num_actions", "actions", "apply", "encode", "describe")
               if not any(name in vars(k) for k in cls.__mro__[:cls.__mro__.index(StepDecision)])]
    assert missing == [], f"{cls.__name__} leaves {missing} to StepDecision"
    a = d.decision.actions[0]
    assert d.decision.describe(a) and 0 <= a < d.decision.num_actions


@pytest.mark.parametrize(("game", "params"), [("python_diloti", {}), ("python_diloti", {"players": 4}),
                                              ("python_diloti", {"episode": "game", "options": "target:21"}),
                                              ("python_xeri", {}), ("python_kontsina", {"players": 3})])
def test_openspiel_answers_from_python_equal_pyspiels_own(game: str, params: dict[str, Any]) -> None:
    """A state answers ``is_chance_node`` and ``legal_actions`` from Python (without pyspiel's calls back into
    it): the same as pyspiel's C++ methods, at every node of random rounds, for every player, on clones and on
    deserialized states too."""
    pyspiel = pytest.importorskip("pyspiel")
    import diloti.envs.openspiel_game  # noqa: F401 - registers the games

    g = pyspiel.load_game(game, params)
    base = pyspiel.State
    rng = random.Random(8)
    nodes = 0

    def same(state: Any) -> None:
        assert state.is_chance_node() is base.is_chance_node(state)
        got = state.legal_actions()
        assert got == base.legal_actions(state) and all(type(a) is int for a in got)
        assert got is not state.legal_actions()  # a new list each time, as pyspiel's
        for p in range(g.num_players()):
            assert state.legal_actions(p) == base.legal_actions(state, p)

    for _ in range(2):
        state = g.new_initial_state()
        while not state.is_terminal():
            same(state)
            if rng.random() < 0.1:
                same(state.clone())
                same(g.deserialize_state(state.serialize()))
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            nodes += 1
        same(state)
    assert nodes > 100


def pettingzoo_trajectory(env: Any, seed: int, rounds: int = 3) -> list[Any]:
    """Random rounds through ``env``, with now and then an illegal action, an action out of range, a numpy
    integer, or ``last(observe=False)``: what each step gives and what the environment holds after it."""
    rng = random.Random(seed)
    out: list[Any] = []
    for r in range(rounds):
        env.reset(seed=seed * 10 + r)
        for agent in env.agent_iter(max_iter=400):
            if rng.random() < 0.1:
                out.append(env.last(observe=False))
            obs, reward, termination, truncation, info = env.last()
            out.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, termination,
                        truncation, info, dict(env.rewards), dict(env._cumulative_rewards), env.agents[:]))
            if termination or truncation:
                action: Any = None
            else:
                legal = np.flatnonzero(obs["action_mask"]).tolist()
                draw = rng.random()
                if draw < 0.004:
                    action = rng.choice([a for a in range(len(obs["action_mask"])) if a not in legal])  # illegal
                elif draw < 0.01:
                    action = len(obs["action_mask"])  # out of range
                else:
                    action = rng.choice(legal)
                    if draw < 0.1:
                        action = np.int64(action)
            try:
                env.step(action)
                out.append(("stepped", action))
            except AssertionError as exc:  # out of range: refused, the same agent acts again
                out.append(("refused", action, str(exc)))
    return out


@pytest.mark.parametrize(("game", "players", "options", "episode"), CASES)
def test_pettingzoo_wrapper_short_paths_equal_pettingzoos_wrappers(game: str, players: int, options: Any,
                                                                   episode: str) -> None:
    """env()'s wrappers take short paths for the common step (a legal int action of a live agent): the same
    trajectories, rewards and refusals as PettingZoo's own three wrappers around the same bare environment."""
    from pettingzoo.utils import wrappers

    from diloti.envs import pettingzoo_env

    kwargs = {"game": game, "players": players, "options": options, "episode": episode}
    ours = pettingzoo_env.env(**kwargs)
    raw = pettingzoo_env.raw_env(**kwargs)
    illegal = -float(find_env_game(game).max_points)
    theirs = wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        wrappers.TerminateIllegalWrapper(raw, illegal_reward=illegal)))
    for seed in (1, 2):
        want = pettingzoo_trajectory(theirs, seed)
        assert pettingzoo_trajectory(ours, seed) == want
        assert len(want) > 50


def test_the_kernels_numbers_equal_each_parts_formula() -> None:
    """The kernel packs each number's four bytes once and looks them up (planes._ratio): the numbers, computed
    here from the view in float32, as the layout's table gives them, on random rounds with game scores."""
    from diloti.games.diloti.envs.observation import LAYOUT
    from diloti.games.diloti.options import Options

    def numbers(o: Any, name: str) -> list[float]:
        return o[LAYOUT[name]].tolist()  # type: ignore[no-any-return]

    rng = random.Random(12)
    checked = 0
    for r in range(8):
        players = 2 if r % 2 else 4
        options = Options(target=rng.choice([21, 61, 151]), dealer_sees_bottom=bool(r % 3))
        s = State.new(players, options, dealer=r % players, seed=rng.randrange(2**32))
        while not s.is_over:
            for seat in range(players):
                scores = (rng.randrange(-10, 200), rng.randrange(-10, 200))
                v = s.view(seat, scores)
                o = observe(v)
                own, other = seat % 2, 1 - seat % 2
                part = functools.partial(numbers, o)
                f32 = np.float32
                assert part("hand_sizes")[:players] == [f32(v.hand_sizes[(seat + i) % players] / 6)
                                                        for i in range(players)]
                assert part("stock") == [f32(v.stock_size / 52)]
                assert part("captured_counts") == [f32(len(v.captured[own]) / 52), f32(len(v.captured[other]) / 52)]
                assert part("xeri") == [f32(min(v.sweeps[own], 24) / 24), f32(min(v.sweeps[other], 24) / 24)]
                t = options.target
                assert part("scores") == [f32(min(max(scores[own], 0), t) / t), f32(min(max(scores[other], 0), t) / t)]
                assert part("plays") == [f32(min(v.plays, 48) / 48)]
                checked += 1
            s.push(rng.choice(s.legal_moves()))
    assert checked > 300
