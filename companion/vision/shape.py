"""What a photo of a variant's table looks like, as :mod:`.piles` reads it: derived from the
variant's pieces and pile names alone (the same data :mod:`companion.render.layout` draws the
setup sheet from), never from its name, so that two variants laid out alike are read alike.
"""

from __future__ import annotations

from dataclasses import dataclass

GRID_ROWS = "abcdefgh"
"""The first letters of a grid's cells, row by row (:func:`companion.rules.variant._pile_names`)."""


@dataclass(frozen=True)
class TableShape:
    grid: tuple[int, int] | None = None
    """Cells in rows (Gaps): (rows, columns), each cell one card lying apart; cells named
    ``a1``... row by row."""
    pyramid: int = 0
    """Rows of a pyramid of single cards (``p1`` at the apex); 0: none."""
    fans: bool = False
    """The tableau piles are fans spreading right, laid out in rows (t1 at the top left)."""
    columns: int = 0
    """Tableau piles dealt as cascaded columns, side by side; 0: none."""
    top_row: tuple[tuple[int, str], ...] = ()
    """(column, pile): the piles laid in one row above the columns, on their grid (Klondike's
    stock, waste and foundations): stock and waste from the left, foundations to the right."""
    waste_below: bool = False
    """The waste (with the stock) lies apart below the columns, fanned right (Golf)."""
    both_ways: bool = False
    """Every card lies face up and apart: the layout looks the same turned round (Gaps)."""
    foundation_order: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """(foundation, the ranks it is built in, bottom first) for each foundation whose cards
    follow from its top card alone: built one way from a fixed base, never turning the corner."""

    def top_pile(self, column: int) -> str | None:
        """The pile a face-up card read in the top row over ``column`` lies on: None where no
        pile lies there, or over the stock (it lies face down)."""
        pile = dict(self.top_row).get(column)
        return None if pile == "s" else pile

    def top_column(self, pile: str) -> int | None:
        return next((c for c, p in self.top_row if p == pile), None)

    def foundation_cards(self, pile: str, rank: int) -> int:
        """How many cards a foundation whose top card has ``rank`` holds: 1 where its order
        does not tell (the cards under the top are not seen)."""
        order = dict(self.foundation_order).get(pile, ())
        return order.index(rank) + 1 if rank in order else 1


def table_shape(v) -> TableShape:
    """The shape of variant ``v``'s table (a :class:`companion.rules.variant.Variant`)."""
    names = v.pile_names
    grid = (v.gaps.rows, v.gaps.columns) if v.gaps else None
    layout = v.tableau.layout if v.tableau else ""
    columns = v.tableau.count if layout == "columns" else 0
    # a waste the tableau's cards are played onto (Golf) lies below the columns, at hand
    waste_below = bool(columns and v.waste and v.waste.build is not None)
    return TableShape(
        grid=grid,
        pyramid=v.pyramid.rows if v.pyramid else 0,
        fans=layout in ("rows", "fans"),
        columns=columns,
        top_row=_top_row(names, columns, waste_below),
        waste_below=waste_below,
        # a grid's cards lie apart, every one face up, so both corners show on each
        both_ways=grid is not None and all(step.face == "up" for step in v.deal),
        foundation_order=_foundation_order(v, names))


def _top_row(names, columns: int, waste_below: bool) -> tuple[tuple[int, str], ...]:
    """The band the setup sheet lays above the columns (:func:`companion.render.layout._band`),
    one place per pile on the columns' grid: stock, waste and reserves from the left,
    foundations and cards put aside to the right. Only where it fits in one row over at most
    thirteen columns (more wrap into further rows, and a wider band no longer lies on the
    columns' grid)."""
    if not columns or columns > 13:
        return ()
    group = {n: n.rstrip("0123456789") for n in names}
    left = [n for n in names if n in ("s", "w") and not waste_below]
    left.sort(key=("s", "w").index)
    left += [n for n in names if group[n] == "r"]
    right = [n for n in names if group[n] in ("f", "x")]
    if (not left and not right) or len(left) + len(right) > columns:
        return ()
    return (tuple(enumerate(left))
            + tuple((columns - len(right) + k, n) for k, n in enumerate(right)))


def _foundation_order(v, names) -> tuple[tuple[str, tuple[int, ...]], ...]:
    found = [n for n in names if n.rstrip("0123456789") == "f"]
    groups = [f for f in v.foundations for _ in range(f.count)]
    ranks = list(v.rank_values)
    out = []
    for name, f in zip(found, groups, strict=True):
        b = f.build
        if f.complete_runs or b.wrap or b.direction not in ("up", "down") \
                or f.base_rank not in ranks:
            continue
        seq = ranks if b.direction == "up" else ranks[::-1]
        out.append((name, tuple(seq[seq.index(f.base_rank):][:f.max_cards])))
    return tuple(out)
