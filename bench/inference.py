"""Benchmark: how much better than uniform sampling the inference from play predicts an opponent's hand.

Usage: .venv/bin/python bench/inference.py [--positions 1000] [--worlds 200] [--players 2] [--player SPEC]
                                 [--temperature 1.0 ...] [--mix 0.1] [--learned] [--seed 1]

Plays whole rounds between two ``--player`` bots (default ``expert:iterations=100,seconds=none``),
and at every decision takes the mover's view. For the next seat (an opponent) it
samples ``--worlds`` worlds from the view (:class:`diloti.games.diloti.players.sampler.Worlds`) and
estimates, for every unseen card, the chance the opponent holds it: once with
every world counted alike (uniform sampling, what the expert does) and once with
each world weighted by the likelihood of the opponent's moves this deal
(:class:`diloti.games.diloti.players.inference.Evidence`, what the master does). The same worlds
serve both. With ``--learned`` a third weighting joins them: the learned policy as the model of play
(:class:`diloti.games.diloti.players.opponent.ModelEvidence`, the master's ``model=learned``; 2 players), at each
``--temperature``. It prints, over the positions:

- log-likelihood per card: the mean over unseen cards of ``log p`` if the
  opponent holds the card, ``log(1 - p)`` if not (higher is better);
- log-likelihood per held card: the mean of ``log p`` over the opponent's cards;
- hit rate: the share of the opponent's hand among the cards rated most likely
  (as many as it holds).

Each figure is given for all positions and for those where the opponent has
already played in this deal (elsewhere there is no evidence and the two agree).
Probabilities are smoothed toward the counting prior (hand size / unseen) by
one world's worth, so no card gets probability 0 or 1.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Set as AbstractSet
from math import exp, isfinite, log

from diloti.ai import make_player
from diloti.core.phase import Phase
from diloti.games.diloti.players.inference import Evidence
from diloti.games.diloti.players.knowledge import decide_redeal
from diloti.games.diloti.players.opponent import ModelEvidence
from diloti.games.diloti.players.sampler import Worlds
from diloti.games.diloti.state import State
from diloti.games.diloti.view import View


def positions(n: int, players: int, spec: str, seed: int) -> list[tuple[View, State]]:
    """Views of the mover, with the true state, from whole rounds (the first ``n`` with hidden cards)."""
    out: list[tuple[View, State]] = []
    r = 0
    while len(out) < n:
        s = State.new(players, seed=seed * 100_003 + r)
        bots = [make_player(spec, seed * 1000 + r * 10 + i, measurement=True) for i in range(players)]
        while not s.is_over and len(out) < n:
            v = s.view(s.turn)
            if v.phase == Phase.DECIDE:
                s.push(decide_redeal(v))
                continue
            if s.hands[(s.turn + 1) % players]:
                out.append((v, s.copy()))
            s.push(bots[s.turn].choose(v))
        r += 1
    return out


def marginals(view: View, seat: int, worlds: list[State], weights: list[float]) -> dict[int, float]:
    """P(``seat`` holds each unseen card), from weighted worlds smoothed by one world of the prior."""
    unseen = view.unseen
    h = view.hand_sizes[seat]
    prior = h / len(unseen)
    total = sum(weights)
    mass = {c: 0.0 for c in unseen}
    for w, wt in zip(worlds, weights, strict=True):
        if wt > 0:
            for c in w.hands[seat]:
                mass[c] += wt / total
    k = 1.0 / len(worlds)  # one world's worth of the prior
    return {c: (mass[c] + k * prior) / (1.0 + k) for c in unseen}


def score(p: dict[int, float], hand: AbstractSet[int]) -> tuple[float, float, float]:
    """(log-likelihood per unseen card, per held card, hit rate) of the true ``hand`` under ``p``."""
    ll = sum(log(q) if c in hand else log(1.0 - q) for c, q in p.items()) / len(p)
    held = sum(log(p[c]) for c in hand) / len(hand)
    top = sorted(p, key=lambda c: -p[c])[: len(hand)]
    return ll, held, sum(c in hand for c in top) / len(hand)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--worlds", type=int, default=200)
    ap.add_argument("--players", type=int, default=2, choices=(2, 4))
    ap.add_argument("--player", default="expert:iterations=100,seconds=none")
    ap.add_argument("--temperature", type=float, nargs="+", default=[1.0])
    ap.add_argument("--mix", type=float, default=0.1)
    ap.add_argument("--learned", action="store_true", help="also weigh the worlds by the learned policy")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    model = None
    if args.learned:
        from diloti.ai.master import learned_model

        model = learned_model("diloti", args.players)
        if model is None:
            ap.error(f"--learned: the learned policy does not play diloti with {args.players} players")
    pos = positions(args.positions, args.players, args.player, args.seed)
    names = ["uniform"] + [f"T={t:g}" for t in args.temperature]
    if model is not None:
        names += [f"learned T={t:g}" for t in args.temperature]
    sums = {name: [[0.0, 0.0, 0.0, 0], [0.0, 0.0, 0.0, 0]] for name in names}  # all, with evidence
    ess_sum = {name: 0.0 for name in names[1:]}
    for i, (view, truth) in enumerate(pos):
        seat = (view.seat + 1) % view.players
        rng = random.Random(f"{args.seed}/{i}")
        sampler = Worlds(view)
        worlds = [sampler.sample(rng) for _ in range(args.worlds)]
        hand = set(truth.hands[seat])
        rows = [("uniform", [1.0] * len(worlds), False)]
        for t in args.temperature:
            ev = Evidence(view, temperature=t, mix=args.mix)
            ev.observed = [o for o in ev.observed if o.seat == seat]
            lws = [ev.log_weight(w) for w in worlds]
            top = max(lws)
            wts = [exp(x - top) if isfinite(x) else 0.0 for x in lws]
            rows.append((f"T={t:g}", wts, bool(ev.observed)))
            ess_sum[f"T={t:g}"] += sum(wts) ** 2 / sum(x * x for x in wts) / len(wts)
        for t in args.temperature if model is not None else []:
            assert model is not None
            learned = ModelEvidence(view, model, temperature=t, mix=args.mix)
            lws = [learned.seat_log_weight(seat, w.hands[seat]) if seat in learned.seats else 0.0 for w in worlds]
            top = max(lws)
            wts = [exp(x - top) if isfinite(x) else 0.0 for x in lws]
            rows.append((f"learned T={t:g}", wts, seat in learned.seats))
            ess_sum[f"learned T={t:g}"] += sum(wts) ** 2 / sum(x * x for x in wts) / len(wts)
        evidence = any(e for _, _, e in rows)
        for name, wts, _ in rows:
            figures = score(marginals(view, seat, worlds, wts), hand)
            for bucket in ([0, 1] if evidence else [0]):
                acc = sums[name][bucket]
                for j in range(3):
                    acc[j] += figures[j]
                acc[3] += 1
    print(f"{len(pos)} positions ({args.players} players, {args.player}), {args.worlds} worlds each, "
          f"mix {args.mix}")
    for bucket, label in ((0, "all positions"), (1, "positions where the opponent has played this deal")):
        n = sums["uniform"][bucket][3]
        print(f"\n{label}: {n}")
        print(f"{'worlds':>12} {'loglik/card':>12} {'loglik/held':>12} {'hit rate':>9}")
        for name in names:
            a = sums[name][bucket]
            print(f"{name:>12} {a[0] / max(n, 1):12.4f} {a[1] / max(n, 1):12.4f} {a[2] / max(n, 1):9.3f}")
    for name, total in ess_sum.items():
        print(f"effective share of worlds ({name}): {total / len(pos):.3f}")


if __name__ == "__main__":
    main()
