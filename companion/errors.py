"""The exception hierarchy. No click here: the CLI maps these to exit codes.

Every message says what was typed, why it was refused, and what would be accepted.
"""

from __future__ import annotations

from collections.abc import Sequence


class CompanionError(Exception):
    """Base of every error the project raises on purpose."""


class NotationError(CompanionError, ValueError):
    """A text that is not well-formed notation."""


class InvalidCardError(NotationError):
    """A token that is not a card."""


class InvalidMoveError(NotationError):
    """A move text that cannot be parsed, independent of any position."""


class IllegalMoveError(CompanionError, ValueError):
    """A well-formed move that the rules refuse in this position.

    ``reason`` is the sentence a player understands, without the move itself.
    """

    def __init__(self, move_text: str, reason: str):
        self.move_text = move_text
        self.reason = reason
        super().__init__(f"{move_text}: {reason}")


class AmbiguousMoveError(CompanionError, ValueError):
    """A move text that several legal moves match. ``candidates`` are their canonical texts."""

    def __init__(self, move_text: str, candidates: Sequence[str]):
        self.move_text = move_text
        self.candidates = list(candidates)
        super().__init__(
            f"{move_text!r} is ambiguous here; type one of: " + ", ".join(self.candidates)
        )


class PositionError(CompanionError, ValueError):
    """A position (typed, loaded or read from a photo) that cannot be right."""


class VariantError(CompanionError, ValueError):
    """An unknown variant, a bad option, or a variant description that does not load."""

    def __init__(self, message: str, suggestions: Sequence[str] = ()):
        self.suggestions = list(suggestions)
        if self.suggestions:
            message = message.rstrip()
            message += ("" if message.endswith((".", "?", "!", ":")) else ".") \
                + " Did you mean: " + ", ".join(self.suggestions) + "?"
        super().__init__(message)
