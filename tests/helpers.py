"""Build positions from short text, for rules tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from hypothesis import strategies as st

from diloti.core.cards import CARDS, mask_of, parse_cards
from diloti.core.moves import GROUP, PLAIN, Declaration, Move
from diloti.games.diloti.options import Options
from diloti.games.diloti.state import State


def pile(cards: str, value: int, kind: str, owner: int) -> Declaration:
    return Declaration(mask_of(parse_cards(cards)), value, GROUP if kind == "group" else PLAIN, owner)


def make(hands: list[str], table: str = "", declarations: tuple[Declaration, ...] = (), *, turn: int = 0,
         players: int | None = None, dealer: int | None = None, options: Options | None = None,
         rest: str = "stock", plays: int = 5, last_capturer: int | None = None, **opts: object) -> State:
    """A position; every card not named goes to the stock (or to side 0's captures)."""
    players = players or len(hands)
    if dealer is None:
        dealer = (turn - 1) % players
    options = options or Options(**opts)  # type: ignore[arg-type]
    used = 0
    hs = [parse_cards(h) for h in hands]
    tb = parse_cards(table)
    for c in [c for h in hs for c in h] + tb:
        used |= 1 << c
    for p in declarations:
        used |= p.mask
    others = [c for c in CARDS if not used >> c & 1]
    stock, captured = (others, []) if rest == "stock" else ([], others)
    return State.from_parts(players=players, options=options, dealer=dealer, turn=turn, hands=hs, table=tb,
                            declarations=declarations, stock=stock, captured=(captured, []), plays=plays,
                            last_capturer=last_capturer)


def moves(state: State, card: str | None = None) -> set[str]:
    """The legal moves (of one card, if given) in canonical notation."""
    out = set()
    for m in state.legal_moves():
        if card is None or (m.card is not None and str(m.card) == card):
            out.add(str(m))
    return out


def mv(text: str) -> Move:
    return Move.parse(text)


# Every option mix, for hypothesis tests.
options_st = st.builds(
    Options,
    dealer_sees_bottom=st.booleans(), face_card_redeal=st.sampled_from(["off", "first_deal", "any_deal"]),
    three_faces_stay=st.booleans(), any_rank_redeal=st.booleans(), forced_capture=st.booleans(),
    liberal_groups=st.booleans(), liberal_raise=st.booleans(), liberal_capture=st.booleans(), soy=st.booleans(),
    self_raise=st.booleans(), no_xeri_last_card=st.booleans(), xeri_first_card=st.booleans(),
)


def hand_of(game: str, hands: list[str], table: str = "", *, turn: int = 0, dealer: int | None = None,
            deals: int = 0, players: int | None = None, last_capturer: int | None = None,
            captured: Sequence[str | Iterable[str]] | None = None, **opts: object) -> Any:
    """A hand of Xeri or Kontsina: ``deals`` whole deals in the stock; every other card not named goes to
    side 0's captures (Xeri's ``table`` is the pile, bottom first)."""
    from diloti.games import find_game

    info = find_game(game)
    players = players or len(hands)
    if dealer is None:
        dealer = (turn - 1) % players
    options = info.options(**opts)
    sides = info.state.check_players(players, options)
    hs = [parse_cards(h) for h in hands]
    tb = parse_cards(table)
    caps = [parse_cards(c) for c in captured] if captured else [[] for _ in range(sides)]
    used = {c for h in hs for c in h} | set(tb) | {c for side in caps for c in side}
    others = [c for c in CARDS if c not in used]
    size = info.state.HAND_SIZE * players * deals
    stock, rest = others[:size], others[size:]
    caps[0] = [*caps[0], *rest]
    return info.state.from_parts(players=players, options=options, dealer=dealer, turn=turn, hands=hs, table=tb,
                                 stock=stock, captured=caps, last_capturer=last_capturer)
