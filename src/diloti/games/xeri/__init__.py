"""Xeri (Ξερή), Diloti's parent game of one pile: its rules (:mod:`diloti.games.xeri.rules`) on the
one-card games' frame of the core. Registered in :mod:`diloti.games` as ``"xeri"``."""
