"""Diloti in the terminal (``diloti play``): its table with declarations, moves, score sheet and round ends.

Diloti's :class:`~diloti.formats.terminal.Terminal`, ``TERMINAL`` of its formats part.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from diloti.core.cards import NAMES, cards_of
from diloti.core.moves import GROUP, Move
from diloti.formats.terminal import Seats
from diloti.games.diloti.formats.notation import describe_move, parse_move
from diloti.games.diloti.formats.record import format_score

HELP = """\
Enter a move by its number in the list, or in notation (any order, any case, T or 10, suits C D H S or symbols):
  9D            lay the 9D (or its only legal move)      9D x 4H 5C    capture (one card of a declaration takes it all)
  9D x          the capture with 9D, if there is one      5S + 3C = 8   plain declaration (or raise) of 8
  4D + 4C = 4G  group of 4s                                keep / redeal face-card redeal decision
Commands: moves (list legal moves), table (show the table), history (this round's moves), score (score sheet),
          hint (the computer's advice, when available), help, quit (saves the record if --record was given)."""


class DilotiTerminal:
    """Diloti's look: the table with its declarations and their owners, the captured cards and xeri, the
    bottom card the dealer saw, and the score sheet round by round."""

    def show_table(self, s: Seats, view: Any) -> None:
        g = s.game
        s.say(f"--- round {g.round_no}, deal {view.deal_no}; dealer: {s.who(view.dealer)}; "
              f"score {g.scores[0]}-{g.scores[1]} (target {g.options.target})")
        s.say("table:        " + (" ".join(NAMES[c] for c in view.table) or "(no loose cards)"))
        for p in view.declarations:
            kind = f"group of {p.value}s" if p.kind == GROUP else f"plain {p.value}"
            rel = "yours" if p.owner == s.seat else (
                "partner's" if (p.owner - s.seat) % 2 == 0 else "opponent's")
            s.say(f"declaration:  [{' '.join(NAMES[c] for c in p.cards)}] {kind}, owner {s.who(p.owner)}, {rel}")
        sizes = ", ".join(f"{s.names[i]} {n}" for i, n in enumerate(view.hand_sizes))
        s.say(f"hand sizes:   {sizes}; stock {view.stock_size}")
        caps = "; ".join(f"{s.side_name(i)} {len(view.captured[i])} cards, {view.sweeps[i]} xeri" for i in (0, 1))
        s.say(f"captured:     {caps}")
        if view.bottom is not None:
            s.say(f"bottom card:  {NAMES[view.bottom]} (you dealt and saw it)")
        s.say("your hand:    " + " ".join(NAMES[c] for c in view.hand))

    def show_moves(self, s: Seats, view: Any) -> None:
        for i, m in enumerate(view.legal, 1):
            s.say(f"  {i:2}. {m!s:<26} {describe_move(view, m)}")

    def show_history(self, s: Seats) -> None:
        rec = s.game.current
        if not rec.moves:
            s.say("no moves yet this round")
        for i, (seat, move) in enumerate(rec.moves, 1):
            s.say(f"  {i:2}. {s.who(seat)}: {move}")

    def show_scores(self, s: Seats) -> None:
        s.say(f"score sheet ({s.side_name(0)} - {s.side_name(1)}):")
        total = [0, 0]
        for r in s.game.rounds:
            if r.score is None:
                continue
            a, b = r.points
            total[0] += a
            total[1] += b
            s.say(f"  round {r.number}: {a:3} - {b:3}   total {total[0]:3} - {total[1]:3}")
        s.say(f"  target {s.game.options.target}")

    def round_summary(self, s: Seats, rec: Any) -> None:
        assert rec.score is not None
        s.say(f"=== round {rec.number} over ===")
        if rec.swept:
            s.say(f"the last capturer's side took the rest: {' '.join(NAMES[c] for c in cards_of(rec.swept))}")
        s.say(f"{'':28} cards  most  aces  10D  2C  xeri  total")
        for i, sc in enumerate(rec.score):
            s.say(f"{s.side_name(i):28} {sc.cards:5} {sc.cards_points:5} {sc.aces:5} {sc.ten_of_diamonds:4} "
                  f"{sc.two_of_clubs:3} {sc.xeri:5} {sc.total:6}")
        self.show_scores(s)

    def help_text(self, s: Seats, view: Any) -> str:
        return HELP

    def read_move(self, s: Seats, view: Any, text: str) -> Move:
        return parse_move(view, text)

    def describe(self, view: Any, move: Move) -> str:
        return describe_move(view, move)

    def game_over_line(self, s: Seats) -> str:
        a, b = s.game.scores
        winner = s.game.winner if s.game.winner is not None else 0
        return f"=== game over: {s.side_name(winner)} wins {max(a, b)}-{min(a, b)} ==="

    def replay_end(self, rnd: Any, totals: list[int], moved: bool) -> list[str]:
        if rnd.score is None:
            return ["(round unfinished)"] if moved else []
        totals[0] += rnd.points[0]
        totals[1] += rnd.points[1]
        return [format_score(rnd.score), f"total {totals[0]}-{totals[1]}"]

    def hint_search(self, master: bool) -> dict[str, Any]:
        # Against a master, the master's search advises (as at the browser's tables); else the expert's.
        return {"level": "master" if master else "expert"}

    def hint_text(self, view: Any, ranked: Sequence[tuple[Move, float]], wins: Sequence[float] | None,
                  search: dict[str, Any]) -> str:
        lines = [f"hint ({'the master' if search['level'] == 'master' else 'the expert'}; best first; the estimate "
                 "is the expected round points difference, then the chance to win the game after the move):"]
        for i, ((move, estimate), win) in enumerate(zip(ranked, wins or (), strict=True), 1):
            number = view.legal.index(move) + 1
            lines.append(f"  {i}. move {number:2}: {move!s:<24} {describe_move(view, move):<36} {estimate:+.2f}  "
                         f"{100 * win:.0f}% to win")
        return "\n".join(lines)


TERMINAL = DilotiTerminal()

if TYPE_CHECKING:
    from diloti.formats.terminal import Terminal

    _checked: Terminal = TERMINAL

__all__ = ["HELP", "TERMINAL", "DilotiTerminal"]
