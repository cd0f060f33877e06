"""The one-card games' frame: what every game whose move is one card shares (Xeri, Kontsina, a game added later).

Not a game (it registers none): the shared half of each such game, laid out as a game's package is, each part
on its floor. A one-card game's package holds only its own rules and numbers on it.

- ``state`` (:class:`~diloti.games.onecard.state.HandState`: one hand, dealt from a seed, with push/pop,
  copies, views and validation; the game writes its moves, what a card does and its score), ``view``
  (:class:`~diloti.games.onecard.view.HandView`, the one door to hidden information), ``chance`` (its deals as
  chance events) and ``game`` (:class:`~diloti.games.onecard.game.HandsGame`: hands until the game's rule names
  a winner): on the rules' floor;
- ``formats/``: the positions, records, look in the terminal and server messages of every one-card game (a
  game's formats part is this package itself, :data:`FORMATS`);
- ``players``: the card sense every one-card game's players part builds on (its own numbers from the game);
- ``envs/``: the action ids, observations, drivers and OpenSpiel game every one-card game's envs part builds on.
"""

#: The formats part of every one-card game (the module a game's registry entry names for the formats' floor).
FORMATS = "diloti.games.onecard.formats"

__all__ = ["FORMATS"]
