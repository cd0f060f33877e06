"""Kontsina's envs part: its action ids (card and kind, then table cards), its observation layout and its bounds.

- **Actions** (:data:`ENCODING`, 156): a **head** ``2 * c`` lays card ``c``,
  ``2 * c + 1`` captures with it; while several captures share the head,
  **item** actions ``ITEM + t`` name the table cards taken, in increasing card
  order, until one capture is left (:mod:`diloti.games.onecard.envs.actions`). No stop
  action is needed: no capture's cards are a part of another's with the same
  card (the numerals of a sum add up to the card's value, a match is one card of
  its rank). A lay, a capture with one way and most others take one step.
- **Observation** (:data:`PARTS`, 517 floats; :data:`LAYOUT`): the generic
  parts of :mod:`diloti.games.onecard.envs.observation` and Kontsina's own: captured
  cards of up to four sides, the move being chosen, clubs and points of each
  side, the player count and the options that change play.
- **Rewards** lie within +-:data:`MAX_POINTS` (zero-sum with three or four sides).

>>> ENV.num_actions, ENV.size, ENV.describe(1), ENV.describe(ITEM + 37)
(156, 517, 'AC capture', 'item 10D')
>>> head(Move.parse("7S x 7D"))
55
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diloti.core.cards import NAMES
from diloti.core.moves import CAPTURE, Move
from diloti.games.kontsina.envs.planes import MAX_POINTS, fill
from diloti.games.onecard.envs import HandEnv
from diloti.games.onecard.envs.actions import HandEncoding
from diloti.games.onecard.envs.observation import COMMON_TAIL, HandLayout

if TYPE_CHECKING:
    from diloti.envs.part import EnvPart

#: The most decision steps in a hand: a head a card played and at most one item step for each table card
#: (a card named is taken).
MAX_STEPS = 48 + 52
#: Heads ``2 * card`` (lay) and ``2 * card + 1`` (capture), then ``ITEM + card`` (a table card).
HEADS = 104
ITEM = HEADS

#: Kontsina's parts in order: (name, length, what it holds). Sides: 2 with partnerships, else one per seat.
PARTS: tuple[tuple[str, int, str], ...] = (
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
    ("points", 4, f"each side's points for the hand so far / {MAX_POINTS}, by relative side"),
    *COMMON_TAIL,
    ("players", 3, "2, 3 or 4 players, one-hot"),
    ("partnerships", 1, "1 with partnerships (4 players, 2 sides)"),
    ("forced_capture", 1, "1 with the forced_capture option"),
    ("deal", 6, "the deal of the hand, one-hot 1..6"),
    ("plays", 1, "cards played this hand / 48"),
    ("prefix_kind", 2, "the move being chosen: its head is a lay, a capture"),
    ("prefix_stage", 1, "1 once the head is chosen (table cards are being chosen)"),
)

def head(move: Move) -> int:
    """The head action of ``move``: its card and kind."""
    card = move[0]
    assert card is not None
    return 2 * card + (1 if move[1] == CAPTURE else 0)


def describe_head(action: int) -> str:
    return f"{NAMES[action >> 1]} {'capture' if action & 1 else 'lay'}"


ENCODING = HandEncoding("kontsina", HEADS, head, describe_head, items=True)
LAYOUT = HandLayout(PARTS, planes=9, hand_size=4, fill=fill)
ENV = HandEnv("kontsina", ENCODING, LAYOUT, MAX_POINTS, MAX_STEPS, kernel="kontsina")
_CONTRACT: EnvPart = ENV  # mypy checks the part against the contract

__all__ = ["ENCODING", "ENV", "HEADS", "ITEM", "LAYOUT", "MAX_POINTS", "MAX_STEPS", "PARTS", "describe_head", "fill",
           "head"]
