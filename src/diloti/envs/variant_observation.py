"""Observations of Xeri and Kontsina: one fixed-layout ``float32`` vector per seat, built only from its view.

As Diloti's (:mod:`diloti.envs.observation`): the
:class:`~diloti.core.hand_state.HandView` is the one door to hidden
information, seats are relative (0 = the observing seat, 1 = the next to
play, ...) and sides too (0 = the observer's side, then the next side to play),
every entry lies in ``[0, 1]``, and one layout serves every player count of a
game (unused seat and side slots stay zero). :data:`XERI_PARTS` and
:data:`KONTSINA_PARTS` name each part (docs/RESEARCH.md has the tables);
:data:`VARIANT_LAYOUT` gives each part's slice and :data:`VARIANT_SIZE` the length.

>>> from diloti.games.diloti.state import State
>>> s = State.new(seed=3, game="kontsina", players=3)
>>> obs = observe_variant(s.view(1))
>>> L = VARIANT_LAYOUT["kontsina"]
>>> obs.shape, int(obs[L["hand"]].sum()), int(obs[L["table"]].sum()), obs[L["players"]].tolist()
((517,), 4, 4, [0.0, 1.0, 0.0])
>>> VARIANT_SIZE["xeri"]
352
"""

from __future__ import annotations

import struct

import numpy as np
import numpy.typing as npt

from diloti.core.cards import NAMES, cards_of, mask_of
from diloti.core.hand_state import HandView
from diloti.core.phase import Phase
from diloti.envs.observation import layout_of
from diloti.envs.variant_actions import describe

#: The most points a side can score in a hand of Xeri: cards 3, honours 20, 10D and 2C 2, a xeri on
#: each of its 24 plays, and the jack-on-jack bonus twice (four jacks make at most two such xeris).
MAX_XERI_POINTS = 25 + 10 * 24 + 10 * 2
#: The most points a side can score in a hand of Kontsina: most cards 2, most clubs 1, 2C 1, 10D 1.
MAX_KONTSINA_POINTS = 5
MAX_VARIANT_POINTS = {"xeri": MAX_XERI_POINTS, "kontsina": MAX_KONTSINA_POINTS}

_COMMON_TAIL: tuple[tuple[str, int, str], ...] = (
    ("turn", 4, "seat to act, one-hot by relative seat (zero while cards are dealt or when over)"),
    ("dealer", 4, "dealer, one-hot by relative seat"),
    ("last_capturer", 5, "last seat to capture, one-hot by relative seat; the fifth: nobody yet"),
    ("phase", 4, "play, (unused), over, chance"),
)

#: Xeri's parts in order: (name, length, what it holds).
XERI_PARTS: tuple[tuple[str, int, str], ...] = (
    ("hand", 52, "own hand"),
    ("pile", 52, "the cards in the pile"),
    ("top", 52, "the pile's top card (the card a play must match)"),
    ("captured", 2 * 52, "cards captured by each side, own side first"),
    ("unseen", 52, "cards the seat has not seen: other hands and the stock"),
    ("hand_sizes", 4, "cards in each hand / 6, by relative seat"),
    ("pile_size", 1, "cards in the pile / 52"),
    ("stock", 1, "undealt cards / 52"),
    ("captured_counts", 2, "cards captured by each side / 52"),
    ("xeri", 2, "xeris of each side / 24"),
    ("jack_xeri", 2, "of those, xeris made by a jack on a lone jack / 24"),
    ("points", 2, f"each side's points for the hand so far / {MAX_XERI_POINTS}"),
    *_COMMON_TAIL,
    ("four_players", 1, "1 with 4 players (partnerships)"),
    ("deal", 4, "the deal of the hand, one-hot 1..4"),
    ("plays", 1, "cards played this hand / 48"),
    ("options", 3, "xeri_jack_double, no_xeri_last_card, pile_any_pair_redeal"),
)

#: Kontsina's parts in order: (name, length, what it holds). Sides: 2 with partnerships, else one per seat.
KONTSINA_PARTS: tuple[tuple[str, int, str], ...] = (
    ("hand", 52, "own hand"),
    ("table", 52, "the cards on the table"),
    ("captured", 4 * 52, "cards captured by each side, by relative side (own side first)"),
    ("unseen", 52, "cards the seat has not seen: other hands and the stock"),
    ("prefix_card", 52, "the move being chosen: the card of the head chosen"),
    ("prefix_items", 52, "... the table cards chosen so far"),
    ("hand_sizes", 4, "cards in each hand / 4, by relative seat"),
    ("stock", 1, "undealt cards / 52"),
    ("captured_counts", 4, "cards captured by each side / 52, by relative side"),
    ("clubs", 4, "clubs captured by each side / 13, by relative side"),
    ("points", 4, f"each side's points for the hand so far / {MAX_KONTSINA_POINTS}, by relative side"),
    *_COMMON_TAIL,
    ("players", 3, "2, 3 or 4 players, one-hot"),
    ("partnerships", 1, "1 with partnerships (4 players, 2 sides)"),
    ("forced_capture", 1, "1 with the forced_capture option"),
    ("deal", 6, "the deal of the hand, one-hot 1..6"),
    ("plays", 1, "cards played this hand / 48"),
    ("prefix_kind", 2, "the move being chosen: its head is a lay, a capture"),
    ("prefix_stage", 1, "1 once the head is chosen (table cards are being chosen)"),
)

VARIANT_PARTS = {"xeri": XERI_PARTS, "kontsina": KONTSINA_PARTS}


VARIANT_LAYOUT: dict[str, dict[str, slice]] = {game: layout_of(parts) for game, parts in VARIANT_PARTS.items()}
VARIANT_SIZE: dict[str, int] = {game: sum(p[1] for p in parts) for game, parts in VARIANT_PARTS.items()}
_FULL = (1 << 52) - 1
_PLANES = {"xeri": 6, "kontsina": 9}  # the 52-card planes at the start of each layout
_TAIL = {game: VARIANT_SIZE[game] - 52 * k for game, k in _PLANES.items()}
_PACK = {game: struct.Struct(f"<{n}f").pack for game, n in _TAIL.items()}
# Each number's offset among the numbers after the planes.
_AT = {game: {name: int(sl.start) - 52 * _PLANES[game] for name, sl in VARIANT_LAYOUT[game].items()
              if sl.start >= 52 * _PLANES[game]} for game in VARIANT_PARTS}
_HONOURS = 0xF | 0xFFFF << 36  # aces, tens, jacks, queens, kings
_CLUBS = sum(1 << (4 * r) for r in range(13))
_TEN_OF_DIAMONDS, _TWO_OF_CLUBS = 1 << 37, 1 << 4


def _strict_most(counts: list[int]) -> int:
    top = max(counts)
    return counts.index(top) if counts.count(top) == 1 else -1


def observe_variant(view: HandView, head: int = -1, chosen: int = 0,
                    out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
    """The observation of ``view``'s seat in its game; ``head`` and ``chosen`` are the Kontsina move
    being chosen (the head action, -1 before it, and the 52-bit set of table cards chosen since).

    The points parts follow the scoring of :func:`diloti.games.xeri.rules.score_xeri` and
    :func:`diloti.games.kontsina.rules.score_kontsina`, worked out inline (they are most of the cost otherwise).
    """
    game = view.game
    seat, n, sides = view.seat, view.players, view.sides
    me = seat % sides
    order = [(me + i) % sides for i in range(sides)]  # relative side -> side
    caps = [mask_of(view.captured[s]) for s in order]
    counts = [m.bit_count() for m in caps]
    hand, table = mask_of(view.hand), mask_of(view.table)
    seen = hand | table
    for m in caps:
        seen |= m
    at = _AT[game]
    tail = [0.0] * _TAIL[game]
    if view.phase == Phase.PLAY:
        tail[at["turn"] + (view.turn - seat) % n] = 1.0
    tail[at["dealer"] + (view.dealer - seat) % n] = 1.0
    lc = view.last_capturer
    tail[at["last_capturer"] + (4 if lc is None else (lc - seat) % n)] = 1.0
    tail[at["phase"] + int(view.phase)] = 1.0
    size = 6.0 if game == "xeri" else 4.0
    for s, k in enumerate(view.hand_sizes):
        tail[at["hand_sizes"] + (s - seat) % n] = k / size
    tail[at["stock"]] = view.stock_size / 52.0
    tail[at["plays"]] = min(view.plays, 48) / 48.0
    for i, k in enumerate(counts):
        tail[at["captured_counts"] + i] = k / 52.0
    opts = view.options
    if game == "xeri":
        planes = [hand, table, 1 << view.table[-1] if view.table else 0, caps[0], caps[1], _FULL & ~seen]
        tail[at["pile_size"]] = len(view.table) / 52.0
        jack = view.jack_xeri or (0, 0)
        for i, s in enumerate(order):
            m = caps[i]
            x, j = view.xeri[s], jack[s]
            points = ((3 if counts[i] > counts[1 - i] else 0) + (m & _HONOURS).bit_count()
                      + (1 if m & _TEN_OF_DIAMONDS else 0) + (1 if m & _TWO_OF_CLUBS else 0)
                      + 10 * x + (10 * j if opts.xeri_jack_double else 0))
            tail[at["xeri"] + i] = min(x, 24) / 24.0
            tail[at["jack_xeri"] + i] = min(j, 24) / 24.0
            tail[at["points"] + i] = min(points, MAX_XERI_POINTS) / MAX_XERI_POINTS
        if n == 4:
            tail[at["four_players"]] = 1.0
        tail[at["deal"] + min(max(view.deal_no, 1), 4) - 1] = 1.0
        k = at["options"]
        tail[k:k + 3] = [float(opts.xeri_jack_double), float(opts.no_xeri_last_card),
                         float(opts.pile_any_pair_redeal)]
    else:
        planes = [hand, table, *caps, *[0] * (4 - sides), _FULL & ~seen,
                  1 << (head >> 1) if head >= 0 else 0, chosen]
        clubs = [(m & _CLUBS).bit_count() for m in caps]
        most_cards, most_clubs = _strict_most(counts), _strict_most(clubs)
        for i, m in enumerate(caps):
            points = ((2 if most_cards == i else 0) + (1 if most_clubs == i else 0)
                      + (1 if m & _TWO_OF_CLUBS else 0) + (1 if m & _TEN_OF_DIAMONDS else 0))
            tail[at["clubs"] + i] = clubs[i] / 13.0
            tail[at["points"] + i] = points / MAX_KONTSINA_POINTS
        tail[at["players"] + n - 2] = 1.0
        tail[at["partnerships"]] = float(opts.partnerships)
        tail[at["forced_capture"]] = float(opts.forced_capture)
        tail[at["deal"] + min(max(view.deal_no, 1), 6) - 1] = 1.0
        if head >= 0:
            tail[at["prefix_kind"] + (head & 1)] = 1.0
            tail[at["prefix_stage"]] = 1.0
    # The planes side by side as one int, unpacked at once; the numbers packed as float32.
    whole = 0
    for i, m in enumerate(planes):
        whole |= m << (52 * i)
    bits = 52 * len(planes)
    o = np.empty(VARIANT_SIZE[game], dtype=np.float32) if out is None else out
    raw = np.frombuffer(whole.to_bytes((bits + 7) // 8, "little"), dtype=np.uint8)
    o[:bits] = np.unpackbits(raw, count=bits, bitorder="little")
    o[bits:] = np.frombuffer(_PACK[game](*tail), dtype=np.float32)
    return o


def describe_variant_view(view: HandView, head: int = -1, chosen: int = 0) -> str:
    """The observation as one line of text, from the same view (for OpenSpiel's observation string).

    >>> from diloti.games.diloti.state import State
    >>> describe_variant_view(State.new(seed=3, game="xeri").view(0))[:42]
    'xeri seat 0/2; phase play; turn +1; dealer'
    """
    seat, n, me = view.seat, view.players, view.side
    sides = range(view.sides)
    parts = [
        f"{view.game} seat {seat}/{n}", f"phase {Phase(view.phase).label}", f"turn +{(view.turn - seat) % n}",
        f"dealer +{(view.dealer - seat) % n}", "hand " + (" ".join(NAMES[c] for c in view.hand) or "-"),
        ("pile " if view.game == "xeri" else "table ") + (" ".join(NAMES[c] for c in view.table) or "-"),
        "sizes " + " ".join(str(view.hand_sizes[(seat + i) % n]) for i in range(n)),
        f"stock {view.stock_size}", f"deal {view.deal_no}", f"plays {view.plays}",
        "captured " + "/".join(str(len(view.captured[(me + i) % view.sides])) for i in sides),
    ]
    if view.game == "xeri":
        parts.append("xeri " + "/".join(str(view.xeri[(me + i) % 2]) for i in sides))
    if view.last_capturer is not None:
        parts.append(f"last +{(view.last_capturer - seat) % n}")
    if head >= 0:
        items = " ".join(NAMES[c] for c in cards_of(chosen))
        parts.append("choosing " + describe(view.game, head) + (" " + items if items else ""))
    return "; ".join(parts)


__all__ = ["KONTSINA_PARTS", "MAX_KONTSINA_POINTS", "MAX_VARIANT_POINTS", "MAX_XERI_POINTS", "VARIANT_LAYOUT",
           "VARIANT_PARTS", "VARIANT_SIZE", "XERI_PARTS", "describe_variant_view", "observe_variant"]
