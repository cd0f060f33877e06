"""The one-card games' batched kernel: many hands stepped in C, for :class:`diloti.envs.batch.SelfPlayBatch`.

The C extension :mod:`diloti.games.onecard.envs._cbatch` (``_cbatch.c`` and ``cbatch_rules.c``, built by
``scripts/build-core`` with the mypyc core, optional) holds N hands in C structs and applies one action of each in
one call: the same legal moves, action steps, observation bytes, rewards and dones as the Python drivers
(:mod:`diloti.games.onecard.envs.driver`), written into the batch's numpy buffers.

What it plays (:func:`kernel_for` says None for anything else, and the batch plays that through the Python
drivers), one-hand episodes only (the one-card games' only episodes):

- **Xeri**, 2 players, or 4 in partnerships, with any of its options (``xeri_jack_double``,
  ``no_xeri_last_card`` and ``pile_any_pair_redeal`` change a hand; ``game_by_points``, ``target`` and ``hands``
  only a whole game);
- **Kontsina**, 2, 3 or 4 players, each alone or (4) in partnerships, with ``forced_capture`` or not (``target``
  changes only a whole game).

A game's envs part names the rules its kernel plays (:attr:`~diloti.games.onecard.envs.HandEnv.kernel`); an
option this module does not know (a new one) sends the batch to the Python drivers. The deal stays in Python:
:meth:`CKernel.start` deals the hand with the game's ``State.new`` (the seeded shuffle, Xeri's redeal of the
first pile) and hands its cards to C, so a seed deals what it deals in the Python batch. No hand is handed back
to Python (``step`` returns no such game): a hand's legal moves are few, however large its table grows
(Kontsina's sums are listed in memory that grows as needed).

>>> from diloti.envs.batch import SelfPlayBatch
>>> SelfPlayBatch(4, game="kontsina", players=3).backend == ("c" if available() else "python")
True
>>> SelfPlayBatch(4, game="xeri", backend="python").backend
'python'
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from diloti.envs.cbatch_base import CBatchKernel
from diloti.games.onecard.envs.driver import HandDriver

if TYPE_CHECKING:
    from diloti.games.onecard.envs import HandEnv

_cbatch: ModuleType | None
try:
    import diloti.games.onecard.envs._cbatch as _cbatch
except ImportError:  # not built (no C compiler, or a pure install): the batch plays in Python
    _cbatch = None

#: The options each kernel's rules know, by the name a game's envs part gives (``HandEnv.kernel``): those that
#: change a hand (the C flags, in the order Batch takes them) and those that change only a whole game.
_FLAGS = ("xeri_jack_double", "no_xeri_last_card", "pile_any_pair_redeal", "forced_capture", "partnerships")
_KNOWN = {
    "xeri": {"xeri_jack_double", "no_xeri_last_card", "pile_any_pair_redeal", "partnerships", "game_by_points",
             "target", "hands"},
    "kontsina": {"forced_capture", "partnerships", "target"},
}


def available() -> bool:
    """Whether the C extension is built and importable here."""
    return _cbatch is not None


def layout_matches(env: HandEnv) -> bool:
    """Whether the C kernel writes ``env``'s observation layout (its size, planes and every number's offset):
    a layout changed in Python and not in C sends the batch to the Python drivers, never to wrong bytes."""
    if _cbatch is None or env.kernel not in _cbatch.LAYOUTS:
        return False
    mine = _cbatch.LAYOUTS[env.kernel]
    layout = env.layout
    return bool(mine["size"] == layout.size and mine["planes"] == layout.planes and mine["at"] == layout.at)


class CKernel(CBatchKernel):
    """N hands of one one-card game in C over the batch's buffers (see the module's description)."""

    def __init__(self, env: HandEnv, num_envs: int, players: int, options: Any, buffers: Any, illegal_reward: float,
                 max_steps: int | None) -> None:
        assert _cbatch is not None
        self.env = env
        self.players = players
        self.options = options
        self.state = env.info.state
        sides = self.state.check_players(players, options)
        game = _cbatch.XERI if env.kernel == "xeri" else _cbatch.KONTSINA
        flags = tuple(bool(getattr(options, name, False)) for name in _FLAGS)
        b = buffers
        self._batch = _cbatch.Batch(num_envs, game, players, sides, flags, b.observations, b.action_masks, b.to_act,
                                    b.rewards, b.terminated.view("u1"), b.truncated.view("u1"), b.illegal.view("u1"),
                                    b.final_observations, illegal_reward, -1 if max_steps is None else max_steps)

    def start(self, i: int, dealer: int, seed: int) -> None:
        """Deal game ``i``'s hand from ``seed`` (as the Python driver does) and write its first row; None: C plays
        it (always)."""
        s = self.state.new(self.players, self.options, dealer, seed=seed)
        self._batch.start(i, s.dealer, s.turn, s.hands, s.table, s.stock[s.stock_pos:])
        return None

    def export(self, i: int) -> HandDriver:
        """Game ``i``'s hand as a Python driver at the same step (a move being chosen included), which plays it
        from now until it ends (then :meth:`start`)."""
        p = self._batch.export(i)
        tallies = {name: p[name] for name in self.state.TALLIES}
        s = self.state.from_parts(players=p["players"], options=self.options, dealer=p["dealer"], turn=p["turn"],
                                  hands=p["hands"], table=p["table"], stock=p["stock"], captured=p["captured"],
                                  sweeps=p["sweeps"], tallies=tallies, last_capturer=p["last_capturer"], check=False)
        s.plays, s.deal_no = p["plays"], p["deal_no"]
        env = self.env
        d = HandDriver.__new__(HandDriver)
        d.encoding, d.layout, d.game, d.num_actions = env.encoding, env.layout, env.game, env.num_actions
        d._start(s)
        if p["head"] >= 0:  # the steps of the move being chosen, again (those taken without a step are taken)
            decision = d.decision
            decision.apply(p["head"])
            chosen = p["chosen"]
            for card in range(52):
                if chosen >> card & 1 and not decision.chosen >> card & 1:
                    decision.apply(env.encoding.heads + card)
        d.applied = d.steps = p["applied"]
        return d




def kernel_for(env: HandEnv, num_envs: int, players: int, options: Any, episode: str, buffers: Any,
               illegal_reward: float, max_steps: int | None) -> CKernel | None:
    """The C kernel of ``env``'s game for these arguments, or None where it does not play them (not built; a game
    without a kernel; an option it does not know; an episode other than a hand; a layout it does not write)."""
    known = _KNOWN.get(env.kernel or "")
    if known is None or episode != "round" or not layout_matches(env):
        return None
    changed = options.changed() if hasattr(options, "changed") else None
    if changed is None or not set(changed) <= known:
        return None
    return CKernel(env, num_envs, players, options, buffers, illegal_reward, max_steps)


__all__ = ["CKernel", "available", "kernel_for", "layout_matches"]
