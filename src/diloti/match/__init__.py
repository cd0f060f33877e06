"""Matches between players: duplicate-deal tournaments and their statistics."""
