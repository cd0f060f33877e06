"""The fingerprint of a versioned environment id (:mod:`diloti.envs.ids`): what one episode of it gives.

>>> fingerprint("Xeri-2p-round-v0")
'ac09f7a6c6023cfc'
"""

from __future__ import annotations

import hashlib
import random

import numpy as np

from diloti.envs.ids import EVALUATION_SEEDS, load_openspiel, parse


def fingerprint(env_id: str) -> str:
    """What an episode of ``env_id`` gives, as a SHA-256 (its first 16 hex digits): its spaces, and every
    observation, mask and reward of one episode from the first evaluation seed in which each seat takes its
    lowest legal action (PettingZoo; OpenSpiel for an id only it offers, chance drawn from the seed). Equal
    fingerprints: the environment gives the same numbers; tests/test_envs_ids.py pins each id's.
    """
    e, h = parse(env_id), hashlib.sha256()
    seed = EVALUATION_SEEDS[0]
    if "pettingzoo" in e.libraries:
        from diloti.envs import pettingzoo_env  # its own import of this floor: only when asked

        env = pettingzoo_env.env(env_id=env_id)
        env.reset(seed=seed)
        first = env.possible_agents[0]
        h.update(f"{env.action_space(first)} {env.observation_space(first)}".encode())
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            h.update(np.asarray(obs["observation"]).tobytes() + np.asarray(obs["action_mask"]).tobytes())
            h.update(f"{agent} {reward} {term} {trunc}".encode())
            env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        return h.hexdigest()[:16]
    game = load_openspiel(env_id)
    rng = random.Random(seed)
    state = game.new_initial_state()
    h.update(f"{game.num_distinct_actions()} {game.observation_tensor_size()}".encode())
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        player = state.current_player()
        h.update(np.asarray(state.observation_tensor(player), np.float32).tobytes())
        h.update(str(state.legal_actions()).encode())
        state.apply_action(state.legal_actions()[0])
    h.update(str(state.returns()).encode())
    return h.hexdigest()[:16]



__all__ = ["fingerprint"]
