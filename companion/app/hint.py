"""The hint: the solver asked for a move in the position being recorded (`play`'s `hint`)."""

from __future__ import annotations

from ..errors import CompanionError


def solver_hint(pos, symbols: bool = True) -> str | None:
    """The solver's hint as text, or None while there is no solver. The import is guarded:
    companion.solver is built alongside the recorder and may be absent or incomplete."""
    try:
        from ..solver import hints as solver_hints  # type: ignore[attr-defined]
    except ModuleNotFoundError as exc:
        if exc.name in ("companion.solver", "companion.solver.hints"):
            return None
        return f"Hints are unavailable: the solver could not load ({exc})."
    except ImportError as exc:
        return f"Hints are unavailable: the solver could not load ({exc})."
    fn = getattr(solver_hints, "hint", None)
    if fn is None:
        return None
    # The copy keeps the moves played: the hint reads the game's past so as not to lead
    # round in circles.
    try:
        try:
            result = fn(pos.copy(stack=True), symbols=symbols)
        except TypeError:
            result = fn(pos.copy(stack=True))
    except CompanionError as exc:
        return f"No hint: {exc}"
    if result is None:
        return "No hint: the solver found no move worth suggesting."
    if isinstance(result, str):
        return result
    text = getattr(result, "text", None)
    if callable(text):
        return text()
    move = getattr(result, "move", None)
    reason = getattr(result, "reason", None)
    if move is not None:
        return f"Hint: {move}" + (f": {reason}" if reason else "")
    return str(result)
