"""Xeri's envs part: its action ids (the card played), its observation layout and its bounds.

- **Actions** (:data:`ENCODING`, 52): action ``c`` plays card ``c`` (card index
  0..51, as :mod:`diloti.core.cards` numbers them: ``AC AD AH AS 2C ...``).
  What it does follows from the rules: it takes the pile when it matches the
  top card or is a jack, else it goes on top. Every legal move is one action.
- **Observation** (:data:`PARTS`, 404 floats; :data:`LAYOUT`): the generic
  parts of :mod:`diloti.games.onecard.envs.observation` and Xeri's own: the pile's top
  card and the order of its cards, the xeris and jack-on-jack xeris of each
  side, each side's points so far and the options that change play.
- **Rewards** lie within +-:data:`MAX_POINTS`; four players play in partnerships.

>>> ENV.num_actions, ENV.size, ENV.describe(0)
(52, 404, 'play AC')
>>> from diloti.games.xeri.rules import XeriState
>>> ENV.describe_view(XeriState.new(seed=3).view(0))[:42]
'xeri seat 0/2; phase play; turn +1; dealer'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from diloti.core.cards import NAMES
from diloti.core.moves import Move
from diloti.games.onecard.envs import HandEnv
from diloti.games.onecard.envs.actions import HandEncoding
from diloti.games.onecard.envs.observation import COMMON_TAIL, HandLayout
from diloti.games.xeri.envs.planes import MAX_POINTS, fill

if TYPE_CHECKING:
    from diloti.envs.part import EnvPart

#: The most decision steps in a hand: one a card played.
MAX_STEPS = 48

#: Xeri's parts in order: (name, length, what it holds).
PARTS: tuple[tuple[str, int, str], ...] = (
    ("hand", 52, "own hand"),
    ("pile", 52, "the cards in the pile"),
    ("top", 52, "the pile's top card (the card a play must match)"),
    ("captured", 2 * 52, "cards captured by each side, own side first"),
    ("unseen", 52, "cards the seat has not seen: other hands and the stock"),
    ("hand_sizes", 4, "cards in each hand / 6, by relative seat"),
    ("pile_size", 1, "cards in the pile / 52"),
    ("pile_order", 52, "each pile card's place from the bottom, (place + 1) / 52 (the bottom card 1/52); 0 if off it"),
    ("stock", 1, "undealt cards / 52"),
    ("captured_counts", 2, "cards captured by each side / 52"),
    ("xeri", 2, "xeris of each side / 24"),
    ("jack_xeri", 2, "of those, xeris made by a jack on a lone jack / 24"),
    ("points", 2, f"each side's points for the hand so far / {MAX_POINTS}"),
    *COMMON_TAIL,
    ("four_players", 1, "1 with 4 players (partnerships)"),
    ("deal", 4, "the deal of the hand, one-hot 1..4"),
    ("plays", 1, "cards played this hand / 48"),
    ("options", 3, "xeri_jack_double, no_xeri_last_card, pile_any_pair_redeal"),
)

def head(move: Move) -> int:
    """The action of ``move``: its card."""
    card = move[0]
    assert card is not None
    return int(card)


def describe_head(action: int) -> str:
    return f"play {NAMES[action]}"


def partnerships(options: Any, players: int) -> Any:
    """Four players of Xeri always play in partnerships (the option is set for them)."""
    return options.replace(partnerships=True) if players == 4 else options


ENCODING = HandEncoding("xeri", 52, head, describe_head)
LAYOUT = HandLayout(PARTS, planes=6, hand_size=6, fill=fill, table_word="pile",
                    tallies=(("xeri", "sweeps"), ("jack_xeri", "jack_xeri")))
ENV = HandEnv("xeri", ENCODING, LAYOUT, MAX_POINTS, MAX_STEPS, adjust=partnerships, kernel="xeri")
_CONTRACT: EnvPart = ENV  # mypy checks the part against the contract

__all__ = ["ENCODING", "ENV", "LAYOUT", "MAX_POINTS", "MAX_STEPS", "PARTS", "describe_head", "fill", "head",
           "partnerships"]
