"""The rules core: cards, moves, options, table analysis, the round state, whole games, views.

It imports only the standard library, and nothing in it imports from the floors above
(formats, players and matches, front ends). Another game on the same engine sits beside
it sharing cards, dealing and views.
"""
