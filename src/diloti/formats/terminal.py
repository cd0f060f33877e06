"""What a game shows in the terminal (``diloti play``): its table, moves, score sheet, round ends and help.

The command line's one terminal game (:mod:`diloti.cli.session`) reads moves, runs the computer
players and saves the record for any registered game; what the game looks like there is the
game's own, and comes with its formats part as ``TERMINAL`` (a :class:`Terminal`): Diloti's is
:mod:`diloti.games.diloti.formats.terminal`, the one-card games' :mod:`diloti.games.onecard.formats.terminal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from diloti.core.moves import Move


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


__all__ = ["COMMANDS", "Seats", "Terminal"]
