"""What a game shows in the terminal (``diloti play``): its table, moves, score sheet, round ends and help.

The command line's one terminal game (:mod:`diloti.cli.session`) reads moves, runs the computer
players and saves the record for any registered game; what the game looks like there is the
game's own, and comes with its formats part as ``TERMINAL`` (a :class:`Terminal`). Diloti's is
:mod:`diloti.games.diloti.formats.terminal`; the one-card games share :class:`HandsTerminal`,
whose few differences are said by the round state's class (``PILE``, ``MOVE_HELP``) and the whole
game's (``hands_header``, ``summary``), never by a game's name.

>>> from diloti.games import find_game
>>> g = find_game("xeri").new_game(seed=1)
>>> v = g.view(g.state.turn)
>>> HandsTerminal().describe(v, v.legal[0])
'lays 2D on the pile'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from diloti.core.cards import NAMES, cards_of
from diloti.core.moves import CAPTURE, Move
from diloti.games import find_game


class Seats(Protocol):
    """The terminal game as a display sees it: the game, the human's seat, the seats' names, and output."""

    game: Any
    seat: int
    names: list[str]

    def say(self, text: str = "") -> None: ...

    def who(self, seat: int) -> str: ...

    def side_name(self, side: int) -> str: ...


class Terminal(Protocol):
    """A game's look in the terminal; ``hint_search`` is how the hint's search is run (``rank_moves``'s keywords,
    ``master`` true when a master plays at the table), ``hint_text`` how its ranking reads."""

    def show_table(self, s: Seats, view: Any) -> None: ...

    def show_moves(self, s: Seats, view: Any) -> None: ...

    def show_history(self, s: Seats) -> None: ...

    def show_scores(self, s: Seats) -> None: ...

    def round_summary(self, s: Seats, rec: Any) -> None: ...

    def help_text(self, s: Seats, view: Any) -> str: ...

    def read_move(self, s: Seats, view: Any, text: str) -> Move: ...

    def describe(self, view: Any, move: Move) -> str: ...

    def game_over_line(self, s: Seats) -> str: ...

    def hint_search(self, master: bool) -> dict[str, Any]: ...

    def hint_text(self, view: Any, ranked: Sequence[tuple[Move, float]], wins: Sequence[float] | None,
                  search: dict[str, Any]) -> str: ...

    def replay_end(self, rnd: Any, totals: list[int], moved: bool) -> list[str]:
        """The lines ``diloti replay`` prints after a round of a record (``moved``: any move of it was replayed;
        ``totals``: the game's points so far, kept here if the look shows them)."""


COMMANDS = ("Commands: moves, table, history, score, hint (the computer's advice), help, quit (saves the record if "
            "--record was given).")


class HandsTerminal:
    """The one-card games' look (Xeri, Kontsina, any game on the core's ``HandState``).

    A state class with ``PILE`` true keeps its table as a pile (Xeri): the table is shown as one, a
    card is laid on it, and a lone card taken is a xeri, counted beside the cards taken.
    """

    def _pile(self, s: Seats) -> bool:
        return bool(getattr(find_game(s.game.state.game).state, "PILE", False))

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
                         + (f", {view.xeri[i]} xeri" if pile else "") for i in range(view.sides))
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
        pile = bool(getattr(find_game(view.game).state, "PILE", False))
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
        # The record's own score line (formats.hands.format_hand_score, which imports this module).
        return ["score " + " | ".join(f"{i}: {side.line()}" for i, side in enumerate(rnd.score))]

    def hint_search(self, master: bool) -> dict[str, Any]:
        return {"iterations": 400, "seconds": 2.0}  # the expert's search, at most two seconds

    def hint_text(self, view: Any, ranked: Sequence[tuple[Move, float]], wins: Sequence[float] | None,
                  search: dict[str, Any]) -> str:
        lines = ["hint (best first; the estimate is the expected hand points difference):"]
        for i, (move, estimate) in enumerate(ranked, 1):
            number = view.legal.index(move) + 1
            lines.append(f"  {i}. move {number:2}: {move!s:<22} {self.describe(view, move):<30} {estimate:+.2f}")
        return "\n".join(lines)


if TYPE_CHECKING:
    _checked: Terminal = HandsTerminal()

__all__ = ["COMMANDS", "HandsTerminal", "Seats", "Terminal"]
