"""``random.Random.shuffle`` and ``choice``, compiled: the same draws from the same generator, faster.

The deals and the samplers of hidden cards shuffle in every round and every sampled world; Python's
``Random.shuffle`` is written in Python (a call to ``_randbelow`` per card). These functions make the
same calls to ``getrandbits`` in the same order, so a seed gives the same cards as it always has
(tests/test_core_build.py checks them against ``random.Random`` on many seeds). Any other generator
(a subclass may draw differently) gets its own methods.

>>> import random
>>> a, b = list(range(10)), list(range(10))
>>> random.Random(5).shuffle(a); shuffle(random.Random(5), b)
>>> a == b
True
>>> choice(random.Random(2), "abc") == random.Random(2).choice("abc")
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def _randbelow(getrandbits: Any, n: int) -> int:
    # Random._randbelow_with_getrandbits: the bits of n, redrawn while too large.
    k = n.bit_length()
    r: int = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` would."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        j = _randbelow(getrandbits, i + 1)
        x[i], x[j] = x[j], x[i]


def choice(rng: random.Random, seq: Sequence[T]) -> T:
    """``rng.choice(seq)``, the same draw."""
    if type(rng) is not random.Random or not seq:
        return rng.choice(seq)
    return seq[_randbelow(rng.getrandbits, len(seq))]


__all__ = ["choice", "shuffle"]
