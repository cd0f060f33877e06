"""Finished games for download and for the replay viewer (everything is public once a game is over).

>>> from diloti.games.diloti.game import Game
>>> g = Game(seed=5)
>>> while not g.is_over:
...     g.push(g.state.legal_moves()[0])
>>> frames = round_frames(g, 0)
>>> frames[0]["move"], len(frames) == len(g.rounds[0].moves) + 1, sum(len(h) for h in frames[-1]["hands"])
(None, True, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from diloti.ai.review import AWAY_NOTE
from diloti.formats.games import formats_of
from diloti.games import find_game
from diloti.server.protocol import move_dict, side_dict

if TYPE_CHECKING:
    from diloti.server.tables import LiveTable


def seat_names(table: LiveTable) -> list[str]:
    return [(s.name or "") if s.kind == "human" else f"computer ({s.level})" for s in table.seats]


def termination(end_reason: str | None) -> str | None:
    """The record's ``Termination`` of a game that ended early (``resigned:1`` -> ``seat 1 resigned``).

    >>> termination("resigned:1"), termination(None)
    ('seat 1 resigned', None)
    """
    if end_reason is None:
        return None
    what, _, seat = end_reason.partition(":")
    return f"seat {seat} {what}" if seat else what


def record_text(table: LiveTable) -> str:
    """The game record (its game's record format, by its formats part) of a finished table.

    A resignation is its ``Termination`` header (and the ``Result`` says who won); each move the
    computer made for an away player carries a comment naming the computer, where the game's records carry
    comments (Diloti's; the one-card games' do not).
    """
    date = table.created.strftime("%Y.%m.%d")
    notes = {ply: f"computer ({level}) {AWAY_NOTE}" for ply, level in table.by.items()}
    rec = table.formats.record_from_game(table.game, names=seat_names(table), event="diloti serve", date=date,
                                         site=f"table {table.id}", notes=notes)
    if table.end_reason is not None:
        rec.termination = termination(table.end_reason)
        rec.winner = table.winner
    text: str = rec.dumps()
    return text


def round_frames(game: Any, index: int, first_ply: int = 0) -> list[dict[str, Any]]:
    """The position before round ``index`` and after each of its moves, every hand shown (any of the games)."""
    r = game.rounds[index]
    st = find_game(game.game).state.new(game.players, game.options, r.dealer, seed=r.seed, deck=r.deck)
    frame = formats_of(game.game).replay_frame
    frames = [frame(st, first_ply, None, None)]
    for i, (seat, move) in enumerate(r.moves):
        side = seat % game.sides
        before = st.sweeps[side]
        st.push(move)
        frames.append(frame(st, first_ply + i + 1, seat, {**move_dict(move), "xeri": st.sweeps[side] > before}))
    return frames


def replay_data(table: LiveTable) -> dict[str, Any]:
    """Every round of a finished table, frame by frame."""
    game = table.game
    rounds = []
    ply = 0
    totals = [0] * table.sides
    for i, r in enumerate(game.rounds):
        pts = r.points or (0,) * table.sides
        totals = [a + b for a, b in zip(totals, pts, strict=True)]
        rounds.append({"number": r.number, "dealer": r.dealer, "frames": round_frames(game, i, ply),
                       "score": None if r.score is None else [side_dict(s) for s in r.score],
                       "totals": list(pts), "scores": list(totals)})
        ply += len(r.moves)
    summary = table.summary()
    return {"id": table.id, "game": table.kind, "players": table.players, "sides": table.sides,
            "options": table.options.to_dict(),
            "seats": summary["seats"], "names": seat_names(table), "winner": table.winner,
            "scores": list(game.scores), "end_reason": table.end_reason,
            "by": {str(ply): level for ply, level in sorted(table.by.items())}, "rounds": rounds}
