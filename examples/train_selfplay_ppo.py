"""Self-play masked PPO in plain PyTorch on Diloti's C batch, then played against the built-in levels.

    .venv/bin/python examples/train_selfplay_ppo.py --steps 3000000 --games 512 --rollout 32 --matches 40 --jobs 2
    .venv/bin/python examples/train_selfplay_ppo.py --evaluate /tmp/ppo_selfplay.pt --against random greedy

A single file in CleanRL's manner: an actor-critic MLP plays every seat of ``--games`` Diloti rounds of
:class:`diloti.envs.batch.SelfPlayBatch` (2 players, stepped by Diloti's C kernel), collecting ``--rollout``
steps of every game, then runs PPO's clipped objective with GAE for ``--epochs`` passes, until ``--steps``
environment steps. It is the documented equivalent of sb3-contrib's ``MaskablePPO``: illegal actions' logits
are set to -inf before the softmax, in sampling and in the loss alike.

**Self-play and credit per seat.** Each step of the batch is one decision of one game's seat to act
(``to_act``), and a seat may act several times in a row (the steps of a move). Rewards come when the round ends,
to every seat (its side's points minus the other's). Each seat's decisions in a game are its own trajectory: the
transition of a decision leads to that seat's *next* decision in the same round (the other seat's decisions in
between are the environment, to it), and the seat's reward at the round's end goes to its last decision. GAE
runs backwards along each (game, seat) sequence. A seat's last decision in a rollout whose next decision has not
come yet (the other seat acts at the rollout's end, or the seat's turn is later) is neither bootstrapped with a
guess nor dropped: it is kept and trained in the next update, when that next decision (or the round's end) has
come; PPO's ratio against the probability it was sampled with makes the one update of age exact.

It prints the training's environment steps a second (the whole loop with the updates, and the batch alone) on
the CPU clock, then plays the network, its most likely legal action, in duplicate-deal matches against each
``--against`` level with the reference table's harness (``play_match``: games to 61, seed 1, as
docs/RESEARCH.md's table and ``train_batched_ppo.py``), with win rates and points a round with 95% intervals.

Needs torch (the ``baselines`` or ``research`` extra; torch's CPU build: docs/RESEARCH.md) and Diloti's C batch
(``scripts/build-core``); without the C batch the Python drivers step the games, much slower. The figures of one
run are in examples/README.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from diloti.envs.policies import PolicyPlayer

_NETS: dict[str, Any] = {}


def make_net(size: int, actions: int, hidden: int) -> Any:
    """The actor-critic: a shared two-layer trunk, a policy head of ``actions`` logits and a value head."""
    import torch
    from torch import nn

    class ActorCritic(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.trunk = nn.Sequential(nn.Linear(size, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
            self.pi = nn.Linear(hidden, actions)
            self.v = nn.Linear(hidden, 1)
            # CleanRL's initialisation: a nearly uniform first policy (small logits) among the legal actions.
            nn.init.orthogonal_(self.pi.weight, 0.01)
            nn.init.zeros_(self.pi.bias)

        def forward(self, x: torch.Tensor, legal: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            """(log-probabilities with illegal actions at -inf, value) of observations ``x`` and bool masks."""
            h = self.trunk(x)
            logits = self.pi(h).masked_fill(~legal, float("-inf"))
            return torch.log_softmax(logits, dim=-1), self.v(h).squeeze(-1)

    return ActorCritic()


def load_net(path: Path) -> Any:
    import torch

    saved = torch.load(path, map_location="cpu", weights_only=True)
    net = make_net(int(saved["size"]), int(saved["actions"]), int(saved["hidden"]))
    net.load_state_dict(saved["state"])
    net.eval()
    return net


def SelfPlayPPOPlayer(seed: int | None = None, model: str = "") -> PolicyPlayer:
    """A saved network (``model=PATH``) as a computer player: its most likely legal action at each step."""
    import torch

    if not model or not Path(model).exists():
        raise ValueError(f"invalid model={model!r}: expected the path of a network saved by train_selfplay_ppo.py")
    if model not in _NETS:
        torch.set_num_threads(1)
        _NETS[model] = load_net(Path(model))
    net = _NETS[model]

    def policy(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        with torch.no_grad():
            logp, _ = net(torch.from_numpy(np.array(observation))[None], torch.from_numpy(mask != 0)[None])
        return int(logp[0].argmax())

    return PolicyPlayer(policy)


class Config(NamedTuple):
    """The training's settings (the command line's flags, with their defaults)."""

    steps: int = 3_000_000
    games: int = 512
    rollout: int = 32
    epochs: int = 2
    minibatches: int = 8
    hidden: int = 128
    lr: float = 3e-4
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    ent: float = 0.01
    vf: float = 0.5
    reward_scale: float = 0.1
    threads: int = 1
    seed: int = 0


def train(cfg: Config, out: Path) -> dict[str, float]:
    """Train and save the network; the figures: steps, CPU and wall seconds, and the batch's own CPU seconds."""
    import torch

    from diloti.envs.batch import SelfPlayBatch

    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    rng = np.random.default_rng(cfg.seed)
    batch = SelfPlayBatch(cfg.games, players=2)
    n, t_len, p, size, a_n = cfg.games, cfg.rollout, batch.players, batch.size, batch.num_actions
    net = make_net(size, a_n, cfg.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    rows = np.arange(n)

    obs = torch.zeros(t_len, n, size)
    legal = torch.zeros(t_len, n, a_n, dtype=torch.bool)
    acts = torch.zeros(t_len, n, dtype=torch.long)
    logps = torch.zeros(t_len, n)
    vals = np.zeros((t_len, n), np.float32)
    seats = np.zeros((t_len, n), np.int64)
    rews = np.zeros((t_len, n, p), np.float32)
    dones = np.zeros((t_len, n), np.bool_)
    # Each (game, seat)'s last decision still waiting for its next one (see the module's description).
    pend = np.zeros((n, p), np.bool_)
    p_obs = torch.zeros(n, p, size)
    p_legal = torch.zeros(n, p, a_n, dtype=torch.bool)
    p_act = torch.zeros(n, p, dtype=torch.long)
    p_logp = torch.zeros(n, p)
    p_val = np.zeros((n, p), np.float32)

    step = batch.reset(seed=cfg.seed)
    done_steps, env_cpu, illegal, updates = 0, 0.0, 0, max(1, cfg.steps // (n * t_len))
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    for update in range(updates):
        for g in opt.param_groups:  # the learning rate falls linearly to zero, as CleanRL's
            g["lr"] = cfg.lr * (1.0 - update / updates)
        with torch.no_grad():
            for t in range(t_len):
                obs[t] = torch.from_numpy(step.observations)
                legal[t] = torch.from_numpy(step.action_masks.view(np.bool_))
                seats[t] = step.to_act
                logp, v = net(obs[t], legal[t])
                # Gumbel-max: a draw from the masked softmax (illegal actions stay at -inf), cheaper than multinomial.
                act = (logp - torch.empty_like(logp).exponential_().log()).argmax(1)
                acts[t], logps[t], vals[t] = act, logp.gather(1, act[:, None]).squeeze(1), v.numpy()
                e = time.process_time()
                step = batch.step(act.numpy())
                env_cpu += time.process_time() - e
                rews[t] = step.rewards * cfg.reward_scale
                dones[t] = step.terminated | step.truncated
                illegal += int(step.illegal.sum())  # the mask keeps it 0: the smoke test checks
        done_steps += n * t_len

        # GAE backwards along each (game, seat)'s own decisions: next_v, next_adv and reward are what follows
        # the seat's decision at t in its trajectory; known is False until that is in this rollout.
        next_v = np.zeros((n, p), np.float32)
        next_adv = np.zeros((n, p), np.float32)
        reward = np.zeros((n, p), np.float32)
        known = np.zeros((n, p), np.bool_)
        adv = np.zeros((t_len, n), np.float32)
        valid = np.zeros((t_len, n), np.bool_)
        for t in reversed(range(t_len)):
            d = dones[t]
            # The round ended: each seat's reward is its last decision's, nothing of that round follows it. (The
            # batch gives rewards only then, so nothing is added between a seat's decisions otherwise.)
            next_v[d], next_adv[d], known[d] = 0.0, 0.0, True
            reward[d] = rews[t][d]
            s = seats[t]
            k = known[rows, s]
            delta = reward[rows, s] + cfg.gamma * next_v[rows, s] - vals[t]
            a_t = np.where(k, delta + cfg.gamma * cfg.lam * next_adv[rows, s], 0.0)
            adv[t], valid[t] = a_t, k
            next_v[rows, s], next_adv[rows, s], reward[rows, s], known[rows, s] = vals[t], a_t, 0.0, True
        # The decisions kept from the last update whose next decision (or the round's end) came in this one.
        ready = pend & known
        p_adv = reward + cfg.gamma * next_v - p_val + cfg.gamma * cfg.lam * next_adv
        gi, gs = np.nonzero(ready)
        ti, tn = np.nonzero(valid)
        b_obs = torch.cat([obs[ti, tn], p_obs[gi, gs]])
        b_legal = torch.cat([legal[ti, tn], p_legal[gi, gs]])
        b_act = torch.cat([acts[ti, tn], p_act[gi, gs]])
        b_logp = torch.cat([logps[ti, tn], p_logp[gi, gs]])
        b_adv = torch.from_numpy(np.concatenate([adv[ti, tn], p_adv[gi, gs]]).astype(np.float32))
        b_ret = b_adv + torch.from_numpy(np.concatenate([vals[ti, tn], p_val[gi, gs]]))
        # This rollout's decisions still waiting (at most one a game and seat: its last) replace those resolved.
        pend &= ~ready
        wi, wn = np.nonzero(~valid)
        ws = seats[wi, wn]
        pend[wn, ws] = True
        p_obs[wn, ws], p_legal[wn, ws], p_act[wn, ws] = obs[wi, wn], legal[wi, wn], acts[wi, wn]
        p_logp[wn, ws] = logps[wi, wn]
        p_val[wn, ws] = vals[wi, wn]

        total = len(b_act)
        size_mb = max(1, total // cfg.minibatches)
        for _ in range(cfg.epochs):
            order = torch.from_numpy(rng.permutation(total))
            for lo in range(0, total - size_mb + 1, size_mb):
                mb = order[lo:lo + size_mb]
                logp_all, v = net(b_obs[mb], b_legal[mb])
                new_logp = logp_all.gather(1, b_act[mb][:, None]).squeeze(1)
                ratio = (new_logp - b_logp[mb]).exp()
                mb_adv = b_adv[mb]
                mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg = torch.max(-mb_adv * ratio, -mb_adv * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
                # -inf * 0 is nan: the illegal actions' terms are zero in the entropy, not computed.
                entropy = -(logp_all.exp() * logp_all.masked_fill(~b_legal[mb], 0.0)).sum(-1).mean()
                v_loss = 0.5 * (v - b_ret[mb]).square().mean()
                loss = pg - cfg.ent * entropy + cfg.vf * v_loss
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        if update % max(1, updates // 10) == 0 or update == updates - 1:
            print(f"update {update + 1}/{updates}: {done_steps:,} steps, {time.perf_counter() - start_wall:.0f} s, "
                  f"value loss {v_loss.item():.4f}, entropy {entropy.item():.3f}, {int(dones.sum())} rounds ended",
                  flush=True)
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"size": size, "actions": a_n, "hidden": cfg.hidden, "state": net.state_dict()}, out)
    return {"steps": float(done_steps), "cpu": cpu, "wall": wall, "env_cpu": env_cpu, "illegal": float(illegal)}


def evaluate(model: Path, games: int, levels: list[str], jobs: int) -> None:
    from diloti.match.tournament import play_match

    sys.path.insert(0, str(Path(__file__).resolve().parent))  # "train_selfplay_ppo:..." imports this file
    spec = f"train_selfplay_ppo:SelfPlayPPOPlayer:model={model}"
    for level in levels:
        start = time.perf_counter()
        r = play_match(spec, level, games=games, seed=1, jobs=jobs)
        print(f"PPO vs {level}: {r.games} games, win rate {r.win_rate.mean:.1%} ({r.win_rate.low:.1%} .. "
              f"{r.win_rate.high:.1%}), points a round {r.points_per_round} [{time.perf_counter() - start:.0f} s]",
              flush=True)


def main(argv: list[str] | None = None) -> int:
    d = Config()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=d.steps, help=f"environment steps of training (default {d.steps})")
    ap.add_argument("--games", type=int, default=d.games, help=f"games in the batch (default {d.games})")
    ap.add_argument("--rollout", type=int, default=d.rollout,
                    help=f"steps of each game an update (default {d.rollout})")
    ap.add_argument("--epochs", type=int, default=d.epochs, help=f"passes over a rollout (default {d.epochs})")
    ap.add_argument("--minibatches", type=int, default=d.minibatches,
                    help=f"a pass's batches (default {d.minibatches})")
    ap.add_argument("--hidden", type=int, default=d.hidden, help=f"units of the trunk's layers (default {d.hidden})")
    ap.add_argument("--lr", type=float, default=d.lr, help=f"Adam's first learning rate (default {d.lr})")
    ap.add_argument("--threads", type=int, default=d.threads, help=f"torch's threads (default {d.threads})")
    ap.add_argument("--seed", type=int, default=d.seed)
    ap.add_argument("--out", type=Path, default=Path("/tmp/ppo_selfplay.pt"), help="where the network is saved")
    ap.add_argument("--evaluate", type=Path, metavar="MODEL", help="evaluate a saved network instead of training")
    ap.add_argument("--matches", type=int, default=40, help="games against each level (default 40)")
    ap.add_argument("--against", nargs="*", default=["random", "greedy", "heuristic"],
                    help="the levels to play (default random greedy heuristic)")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing the matches (default 1)")
    args = ap.parse_args(argv)
    for name in ("steps", "games", "rollout", "epochs", "minibatches", "hidden", "threads", "jobs"):
        if getattr(args, name) < 1:
            ap.error(f"invalid --{name} {getattr(args, name)}: expected at least 1")
    if args.matches < 0:
        ap.error(f"invalid --matches {args.matches}: expected at least 0")
    if not args.lr > 0:
        ap.error(f"invalid --lr {args.lr}: expected a positive number")
    try:
        import torch  # noqa: F401
    except ImportError:
        print("examples/train_selfplay_ppo.py: needs torch: pip install -e '.[baselines]'", file=sys.stderr)
        return 2
    model = args.evaluate
    if model is None:
        cfg = Config(steps=args.steps, games=args.games, rollout=args.rollout, epochs=args.epochs,
                     minibatches=args.minibatches, hidden=args.hidden, lr=args.lr, threads=args.threads,
                     seed=args.seed)
        f = train(cfg, args.out)
        model = args.out
        print(f"trained self-play PPO for {f['steps']:,.0f} steps on {args.games} games: "
              f"{f['steps'] / f['cpu']:,.0f} steps/s with the updates, the batch alone "
              f"{f['steps'] / max(f['env_cpu'], 1e-9):,.0f} steps/s (CPU clock; {f['cpu']:.0f} s of CPU, "
              f"{f['wall']:.0f} s of wall clock), {f['illegal']:.0f} illegal actions; saved {model}", flush=True)
    if not model.exists():
        print(f"examples/train_selfplay_ppo.py: invalid --evaluate {model}: no such file", file=sys.stderr)
        return 2
    if args.matches:
        evaluate(model, args.matches, args.against, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
