"""What a one-card game looks like in the terminal (``diloti play``, ``diloti replay``): :class:`HandsTerminal`.

Its few differences between the games are said by the round state's class (``PILE``, ``MOVE_HELP``) and the
whole game's (``hands_header``, ``summary``), never by a game's name.

>>> from diloti.games.xeri.rules import XeriGame
>>> g = XeriGame(seed=1)
>>> v = g.view(g.state.turn)
>>> TERMINAL.describe(v, v.legal[0])
'lays 2D on the pile'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from diloti.core.cards import NAMES, cards_of
from diloti.core.moves import CAPTURE, Move
from diloti.core.registry import find_game
from diloti.formats.terminal import COMMANDS, Seats
from diloti.games.onecard.formats.record import format_hand_score


class HandsTerminal:
    """The one-card games' look.

    A state class with ``PILE`` true keeps its table as a pile (Xeri): the table is shown as one, a
    card is laid on it, and a lone card taken is a xeri, counted beside the cards taken.
    """

    def _pile(self, s: Seats) -> bool:
        return bool(type(s.game.state).PILE)

    def sheet(self, s: Seats) -> str:
        g = s.game
        hands = [r.points for r in g.rounds if r.score is not None]
        text = "score " + "-".join(map(str, g.scores))
        if type(g).hands_header(g.options):  # a game won by hands: the hands won so far
            text += f", hands won {type(g).summary(g.options, hands) or '0-0'} (of {g.options.hands})"
        else:
            text += f" (target {g.options.target})"
        return text

    def show_table(self, s: Seats, view: Any) -> None:
        g = s.game
        s.say(f"--- hand {g.round_no}, deal {view.deal_no}; dealer: seat {view.dealer} "
              f"({s.names[view.dealer]}); {self.sheet(s)}")
        pile = self._pile(s)
        label = "pile (top last):" if pile else "table:"
        s.say(f"{label:<17}" + (" ".join(NAMES[c] for c in view.table) or "(empty)"))
        sizes = ", ".join(f"{s.names[i]} {n}" for i, n in enumerate(view.hand_sizes))
        s.say(f"{'hand sizes:':<17}{sizes}; stock {view.stock_size}")
        caps = "; ".join(f"{s.side_name(i)} {len(view.captured[i])} cards"
                         + (f", {view.sweeps[i]} xeri" if pile else "") for i in range(view.sides))
        s.say(f"{'captured:':<17}{caps}")
        s.say(f"{'your hand:':<17}" + " ".join(NAMES[c] for c in view.hand))

    def show_moves(self, s: Seats, view: Any) -> None:
        for i, m in enumerate(view.legal, 1):
            s.say(f"  {i:2}. {m!s:<22} {self.describe(view, m)}")
        if not view.lists_all():
            s.say("  (the table is so large that its moves number in the hundreds or more: these are a sample, one or "
                  "two of every kind each card can make; type any other move in notation)")

    def show_history(self, s: Seats) -> None:
        for i, (seat, move) in enumerate(s.game.current.moves, 1):
            s.say(f"  {i:2}. {s.who(seat)}: {move}")

    def show_scores(self, s: Seats) -> None:
        s.say(self.sheet(s))

    def round_summary(self, s: Seats, rec: Any) -> None:
        assert rec.score is not None
        s.say(f"=== hand {rec.number} over ===")
        if rec.swept:
            s.say(f"the last capturer took the rest: {' '.join(NAMES[c] for c in cards_of(rec.swept))}")
        for i, score in enumerate(rec.score):
            s.say(f"  {s.side_name(i)}: {score.line()}")
        s.say("  " + self.sheet(s))

    def help_text(self, s: Seats, view: Any) -> str:
        return f"{type(s.game.state).MOVE_HELP}\n{COMMANDS}"

    def read_move(self, s: Seats, view: Any, text: str) -> Move:
        move: Move = s.game.state.read_move(text)
        return move

    def describe(self, view: Any, move: Move) -> str:
        """A move in words for the table as ``view`` shows it."""
        pile = bool(find_game(view.game).state.PILE)
        card, kind, _, mask = move
        assert card is not None
        if kind != CAPTURE:
            return f"lays {NAMES[card]}" + (" on the pile" if pile else "")
        taken = " ".join(NAMES[c] for c in cards_of(mask))
        lone = pile and len(view.table) == 1 and view.table[0] >> 2 == card >> 2
        return f"takes {taken} with {NAMES[card]}" + (" (xeri!)" if lone else "")

    def game_over_line(self, s: Seats) -> str:
        winner = s.game.winner if s.game.winner is not None else 0
        return f"=== game over: {s.side_name(winner)} wins; {self.sheet(s)} ==="

    def replay_end(self, rnd: Any, totals: list[int], moved: bool) -> list[str]:
        if rnd.score is None:
            return ["(hand unfinished)"]
        return [format_hand_score(rnd.score)]  # the record's own score line

    def hint_search(self, master: bool) -> dict[str, Any]:
        return {"iterations": 400, "seconds": 2.0}  # the expert's search, at most two seconds

    def hint_text(self, view: Any, ranked: Sequence[tuple[Move, float]], wins: Sequence[float] | None,
                  search: dict[str, Any]) -> str:
        lines = ["hint (best first; the estimate is the expected hand points difference):"]
        for i, (move, estimate) in enumerate(ranked, 1):
            number = view.legal.index(move) + 1
            lines.append(f"  {i}. move {number:2}: {move!s:<22} {self.describe(view, move):<30} {estimate:+.2f}")
        return "\n".join(lines)


TERMINAL = HandsTerminal()  # how these games look in the terminal

if TYPE_CHECKING:
    from diloti.formats.terminal import Terminal

    _checked: Terminal = TERMINAL

__all__ = ["TERMINAL", "HandsTerminal"]
