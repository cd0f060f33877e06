"""Seeds derived from other seeds: the one recipe, the same in every process.

A game's rounds, a match's games and players, and a server table's computer
players and hints each get their own seed from a parent seed and a few
parts that name them. Each caller passes its own first part, so the numbers
it gets are those it has always got and saved records replay as they did:

- a round: ``derive_seed("diloti-round", game_seed, round_no)`` (:mod:`diloti.games.diloti.game`);
- a match's game and players: ``derive_seed("game", seed, pair)`` and
  ``derive_seed("bot", seed, index, seat)`` (:mod:`diloti.match.tournament`);
- a server table's player and hint: ``derive_seed("diloti-bot", seed, seat, ply)``
  and ``derive_seed("diloti-hint", seed, ply)`` (:mod:`diloti.match.workers`).

>>> derive_seed("diloti-round", 4, 1)
866986074232564672
>>> derive_seed("game", 3, 0) != derive_seed("game", 3, 1)
True
"""

from __future__ import annotations

import hashlib


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts``: the first 8 bytes of SHA-256 of ``str(part)`` joined by ``/``, halved.

    >>> 0 <= derive_seed("anything", 1, 2) < 2**63
    True
    """
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


__all__ = ["derive_seed"]
