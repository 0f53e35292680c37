"""What :class:`~.knowledge.Knowledge` derives once per variant, declared with its types for the
parts it is made of (:mod:`.keys`, :mod:`.stuck`, :mod:`.safe_moves`, :mod:`.supermoves`,
:mod:`.ordering`, :mod:`.exhaustible`), which read it: each part is a :class:`Derived`.
Nothing is set here; :class:`~.knowledge.Knowledge` sets each field (and says what it means)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ..rules.engine import Table
from ..rules.position import Position
from ..rules.variant import Variant

# The canonical key of a position, as a search stores it.
KeyOf = Callable[[Position], bytes]


class PositionTest(Protocol):
    """A test of a position that makes it lost (``Knowledge.partnerless``, ``strander``'s):
    after the start, only what the last move changed is looked at, unless ``everything``."""

    def __call__(self, pos: Position, everything: bool = False) -> bool: ...


class Derived:
    """The fields of :class:`~.knowledge.Knowledge` (see there for what each means)."""

    variant: Variant
    T: tuple[int, ...]
    F: tuple[int, ...]
    Tset: frozenset[int]
    Fset: frozenset[int]
    S: int
    W: int
    unlimited: bool
    decks: int
    sort_tableau: bool
    sort_tableau_when_stock_empty: bool
    f_groups: tuple[tuple[int, ...], ...]
    fixed: tuple[int, ...]
    fixed_all: tuple[int, ...]
    auto: bool
    returns: bool
    needers: dict[int, tuple[int, ...]]
    harmless_needers: bool
    auto_sources: frozenset[int]
    lone: frozenset[int]
    partnerless: PositionTest | None
    deal_first: bool
    safe_up: bool
    keep_piles_filled: bool
    clear_tableau: bool
    narrowable: bool
    tb: Table
    supermoves_ok: bool
    dig: bool
    tableau_names_all: bool
    f_accepts: dict[int, tuple[tuple[int, ...], list[tuple[int, ...]], int]]
    _needed: dict[tuple[object, ...], frozenset[int]]
    talon: tuple[int, int]
    macro: bool
    probe: bool
    talon_draw: int
    dominance: bool
    sink: int
    static: bool
    heights: tuple[int, ...]
    before: dict[int, tuple[int, ...]] | None
    parents: dict[int, tuple[int, ...]] | None
    below: dict[int, tuple[int, ...]]
    carried: Callable[[int, int], bool] | None
    face_up_units: bool
    off_parents: dict[int, tuple[int, ...]] | None
    space_king: bool
    lean: bool

    if TYPE_CHECKING:
        # methods one part calls on another (Keys', Ordering's)
        def _tableau_keyed(self, root: Position) -> bool: ...

        def needed(self, pos: Position) -> frozenset[int]: ...
