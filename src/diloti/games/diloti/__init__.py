"""Diloti (Δηλωτή): its rules (the round's state, move generation over table piles and declarations,
scoring, options, dealing, the per-seat view, the whole game to the target) and its own text
formats (notation, positions, records). Registered in :mod:`diloti.games` as ``"diloti"``."""
