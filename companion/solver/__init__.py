"""Hints and the solver: the best next move, and whether the game can still be won.

``search`` is the one solver for every variant (over the rules engine's raw moves; it
re-exports the modules that hold its parts, see ``docs/solver.md``); ``hints``
builds honest hints on it (sampling the cards the player has not seen); ``survey`` solves
ranges of seeds in parallel and reports win rates with their intervals.
"""

from .search import LOST, UNKNOWN_VERDICT, WON, Limits, SolverError, SolveResult, solve

__all__ = ["LOST", "UNKNOWN_VERDICT", "WON", "Limits", "SolveResult", "SolverError", "solve"]
