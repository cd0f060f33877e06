"""``diloti play --game xeri|kontsina``: a game of Diloti's parent games in the terminal.

The same loop as Diloti's (:mod:`diloti.cli.session`): moves by number or in notation
(``7H``; in Kontsina ``9D x 4H 5C``), the commands ``moves``, ``table``, ``history``,
``score``, ``hint``, ``help`` and ``quit``; the human seat sees only its view.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from diloti.ai.analysis import rank_moves
from diloti.cli.session import TerminalSession, run_session, seats_for
from diloti.core.cards import NAMES, cards_of
from diloti.core.hand_state import HandView
from diloti.core.hands_game import HandRecord, HandsGame
from diloti.core.moves import CAPTURE, Move
from diloti.formats.games import HandsRecord
from diloti.games import find_game

HELP = {
    "xeri": "Play a card by its number in the list or by name (7H, jd, T♦). A card of the top card's rank, or a jack, "
            "takes the whole pile; taking a lone card of its rank is a xeri (10 points).",
    "kontsina": "Play by number, or in notation: 7S (lay), 7S x 7D (match), 9D x 4H 5C (a sum of two or more "
                "numerals). One capture takes one thing; capturing is optional unless --forced-capture.",
}
COMMANDS = ("Commands: moves, table, history, score, hint (the computer's advice), help, quit (saves the record if "
            "--record was given).")


def describe(view: HandView, move: Move) -> str:
    """A move in words for the table as ``view`` shows it.

    >>> from diloti.games.diloti.state import State
    >>> s = State.new(seed=1, game="xeri")
    >>> describe(s.view(s.turn), s.legal_moves()[0])
    'lays 2H on the pile'
    """
    card, kind, _, mask = move
    assert card is not None
    if kind != CAPTURE:
        return f"lays {NAMES[card]}" + (" on the pile" if view.game == "xeri" else "")
    taken = " ".join(NAMES[c] for c in cards_of(mask))
    lone = view.game == "xeri" and len(view.table) == 1 and view.table[0] >> 2 == card >> 2
    return f"takes {taken} with {NAMES[card]}" + (" (xeri!)" if lone else "")


class VariantSession(TerminalSession):
    """One terminal game of Xeri or Kontsina (:class:`~diloti.cli.session.TerminalSession` with their table,
    moves, hands and score)."""

    def sheet(self) -> str:
        g = self.game
        hands = [r.points for r in g.rounds if r.score is not None]
        text = "score " + "-".join(map(str, g.scores))
        if g.game == "xeri" and not g.options.game_by_points:
            text += f", hands won {type(g).summary(g.options, hands) or '0-0'} (of {g.options.hands})"
        elif g.game != "xeri" or g.options.game_by_points:
            text += f" (target {g.options.target})"
        return text

    def show_table(self, view: HandView) -> None:
        g = self.game
        self.say(f"--- hand {g.round_no}, deal {view.deal_no}; dealer: seat {view.dealer} "
                 f"({self.names[view.dealer]}); {self.sheet()}")
        label = "pile (top last):" if view.game == "xeri" else "table:"
        self.say(f"{label:<17}" + (" ".join(NAMES[c] for c in view.table) or "(empty)"))
        sizes = ", ".join(f"{self.names[s]} {n}" for s, n in enumerate(view.hand_sizes))
        self.say(f"{'hand sizes:':<17}{sizes}; stock {view.stock_size}")
        caps = "; ".join(f"{self.side_name(i)} {len(view.captured[i])} cards"
                         + (f", {view.xeri[i]} xeri" if view.game == "xeri" else "") for i in range(view.sides))
        self.say(f"{'captured:':<17}{caps}")
        self.say(f"{'your hand:':<17}" + " ".join(NAMES[c] for c in view.hand))

    def show_moves(self, view: HandView) -> None:
        for i, m in enumerate(view.legal, 1):
            self.say(f"  {i:2}. {m!s:<22} {describe(view, m)}")

    def hand_summary(self, rec: HandRecord) -> None:
        assert rec.score is not None
        self.say(f"=== hand {rec.number} over ===")
        if rec.swept:
            self.say(f"the last capturer took the rest: {' '.join(NAMES[c] for c in cards_of(rec.swept))}")
        for i, s in enumerate(rec.score):
            self.say(f"  {self.side_name(i)}: {s.line()}")
        self.say("  " + self.sheet())

    def show_history(self) -> None:
        for i, (seat, move) in enumerate(self.game.current.moves, 1):
            self.say(f"  {i:2}. {self.who(seat)}: {move}")

    def show_scores(self) -> None:
        self.say(self.sheet())

    def help_text(self, view: HandView) -> str:
        return HELP[view.game] + "\n" + COMMANDS

    def hint(self, view: HandView, arg: str) -> str:
        """The expert's ranking of the legal moves, best first (``arg``: how many, default 3)."""
        if not view.legal:
            return "hint: you have no move to make now"
        count = int(arg) if arg.isdigit() and int(arg) > 0 else 3
        ranked = rank_moves(view, seed=view.plays, iterations=400, seconds=2.0)
        lines = ["hint (best first; the estimate is the expected hand points difference):"]
        for i, (move, estimate) in enumerate(ranked[:count], 1):
            number = view.legal.index(move) + 1
            lines.append(f"  {i}. move {number:2}: {move!s:<22} {describe(view, move):<30} {estimate:+.2f}")
        return "\n".join(lines)

    def read_move(self, view: HandView, text: str) -> Move:
        move: Move = self.game.state.read_move(text)
        return move

    def describe(self, view: HandView, move: Move) -> str:
        return describe(view, move)

    def round_summary(self, rec: HandRecord) -> None:
        self.hand_summary(rec)

    def game_over_line(self) -> str:
        winner = self.game.winner if self.game.winner is not None else 0
        return f"=== game over: {self.side_name(winner)} wins; {self.sheet()} ==="

    def make_record(self) -> HandsRecord:
        return HandsRecord.from_game(self.game, names=self.names, site="diloti play")


def run(args: argparse.Namespace, options: Any, record_path: Callable[[str, int], str]) -> int:
    """``diloti play`` for Xeri or Kontsina (:func:`diloti.cli.play.run` passes its ``record_path``)."""
    game: HandsGame = find_game(args.game).game(args.players, options, seed=args.seed)
    bots, names = seats_for(args, game.seed)
    record = None if args.record is None else record_path(args.record, game.seed)
    session = VariantSession(game, args.seat, bots, names, sys.stdout, sys.stdin, record, args.quiet)
    return run_session(session, f"{args.game}: {args.players} players, you are seat {args.seat} "
                                f"({session.side_name(args.seat % game.sides)}), seed {game.seed}; "
                                "type 'help' for help", options)
