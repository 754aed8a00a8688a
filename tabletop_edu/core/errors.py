"""Errors a player can cause, worded for the player.

An illegal action is a normal event at a table of students, not a crash: the message says *why* in plain
words, and the state it was tried on is left exactly as it was.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that the rules forbid right now, or text that names no action at all."""


class RulesError(ValueError):
    """A `Rules` object or a player list that cannot make a game (for example 3 players of Mafia de Cuba)."""
