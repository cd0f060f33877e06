"""Kontsina (Κοντσίνα), Diloti's parent game of captures by match or sum: its rules
(:mod:`diloti.games.kontsina.rules`) on the one-card games' frame of the core. Registered in
:mod:`diloti.games` as ``"kontsina"``."""
