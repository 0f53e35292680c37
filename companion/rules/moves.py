"""Moves in pile notation: context-free text, parsed and formatted symmetrically.

Forms (see README, "Move notation"):

``t3 t5``       the top card of t3 onto t5
``t3:4 t5``     four cards of t3, as one unit, onto t5
``t3 f``        t3's top card to the foundation it fits (``f2`` names one)
``w t2``        the waste's top card onto t2
``s``           the stock action: turn the stock, deal a row, or redeal
``p12 p20``     Pyramid/Wish: remove the two cards as a pair
``p7 f``        Pyramid: a king removed on its own
``p7 p6``       Accordion: the pile at p7 onto p6
``b7 b2``       Gaps: the card in cell b7 into the gap b2
``t3=9c``       a reveal: the card turned up on t3 is 9♣ (recorded, never chosen)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import UNKNOWN, Card, code_text
from ..errors import InvalidCardError, InvalidMoveError

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


def split_moves(texts: Iterable[object]) -> list[str]:
    """Moves from arguments, a file or a typed line: one per argument/line, or separated by
    , or ; (a # starts a comment to the end of its line)."""
    out = []
    for text in texts:
        for line in str(text).splitlines():
            line = line.split("#", 1)[0]
            for part in line.replace(";", ",").split(","):
                if part.strip():
                    out.append(part.strip())
    return out


PILE_RE = re.compile(r"^[a-z]{1,2}[0-9]{0,2}$")
_PART = re.compile(r"^([a-z]{1,2}[0-9]{0,2})(?::([0-9]{1,3}))?$")


@dataclass(frozen=True, slots=True)
class Move:
    """A move as typed: pile names, a unit size (0 when not given) and, for a reveal, a card."""

    src: str
    dst: str | None = None
    count: int = 0
    card: int | None = None

    @property
    def is_reveal(self) -> bool:
        return self.card is not None

    @staticmethod
    def parse(text: str) -> Move:
        """Parse pile notation; raises InvalidMoveError naming the text and the accepted forms."""
        raw = text
        text = " ".join(text.strip().lower().split())
        if "=" in text:
            pile, _, card = (t.strip() for t in text.partition("="))
            if not PILE_RE.match(pile):
                raise InvalidMoveError(_bad(raw))
            try:
                code = Card.parse(card).code if card != "??" else UNKNOWN
            except InvalidCardError as exc:
                raise InvalidMoveError(f"{raw!r}: {exc}") from None
            return Move(pile, None, 0, code)
        parts = text.split(" ")
        if not text or len(parts) > 2:
            raise InvalidMoveError(_bad(raw))
        first = _PART.match(parts[0])
        if not first:
            raise InvalidMoveError(_bad(raw))
        count = int(first.group(2) or 0)
        if first.group(2) is not None and count < 1:
            raise InvalidMoveError(f"{raw!r}: a unit has at least one card")
        dst = None
        if len(parts) == 2:
            if not PILE_RE.match(parts[1]):
                raise InvalidMoveError(_bad(raw))
            dst = parts[1]
        return Move(first.group(1), dst, count if count > 1 else 0)

    def text(self, symbols: bool = False) -> str:
        if self.card is not None:
            return f"{self.src}={code_text(self.card, symbols) if symbols else _ascii(self.card)}"
        src = f"{self.src}:{self.count}" if self.count > 1 else self.src
        return src if self.dst is None else f"{src} {self.dst}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.parse({self.text()!r})"


def _ascii(code: int) -> str:
    return "??" if code == UNKNOWN else code_text(code, symbols=False).lower()


def _bad(raw: str) -> str:
    return (f"{raw!r} is not a move: type a pile then where it goes (t3 t5, t3:4 t5, t3 f, w t2), "
            f"s for the stock, or a pile and a card for a reveal (t3=9c)")


def place_text(names: Sequence[str], pile: int, height: int, size: int) -> str:
    """``t4, card 3 from the bottom``; a pile that holds one card is named alone."""
    name = names[pile]
    if size <= 1:
        return name
    if name == "s":
        return f"the stock (s), card {size - height} from the top"
    return f"{name}, card {height + 1} from the bottom"
