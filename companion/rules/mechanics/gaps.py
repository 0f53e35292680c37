"""Gaps (the TOML's ``[gaps]``): a card into the gap right of its predecessor in suit, a 2
into a gap at the start of a row; the redeal that keeps each row's run from its 2.

Its words (refusals and the rules text) are in the functions below the mixin."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import CARDS, KING, RANK_OF, UNKNOWN, rank_from_text
from ...cards import code_text as _c
from ..shuffle import shuffled
from .base import MOVE, Mechanic, Piles, Raw, Rules, makes
from .base import number_word as _n

if TYPE_CHECKING:
    from .. import pieces as P
    from ..moves import Move
    from ..position import Position
    from ..variant import Variant

WORD = "gaps"
MECHANICS = (Mechanic.GAPS,)


class GapsRules(Rules):
    """The engine's Gaps moves and redeal (a mixin of :class:`~..engine.Engine`)."""

    def _init_gaps(self, v: Variant) -> None:
        self.gaps = v.gaps  # type: ignore[assignment]  # see Rules
        self.gpos = {g: k for k, g in enumerate(self.G)}

    @makes(Mechanic.GAPS)
    def _gen_gaps(self, pos: Position, out: list[Raw]) -> None:
        piles, G = pos.piles, self.G
        cols = self.gaps.columns
        where = {}
        for g in G:
            if piles[g]:
                where[piles[g][0]] = g
        for k, g in enumerate(G):
            if piles[g]:
                continue
            if k % cols == 0:  # a gap at the start of a row takes any 2 not already there
                for code in range(1, 52, 13):
                    if code in where and self.gpos[where[code]] % cols != 0:
                        out.append((MOVE, where[code], 1, g))
                continue
            left = piles[G[k - 1]]
            if not left or left[0] == UNKNOWN or RANK_OF[left[0]] == KING:
                continue
            need = left[0] + 1
            if need in where:
                out.append((MOVE, where[need], 1, g))

    def _gap_rank(self) -> int:
        return rank_from_text(self.gaps.gap_rank)

    def kept_runs(self, piles: Piles) -> list[int]:
        """Gaps: per row, how many cells from the left hold 2, 3, 4 ... of one suit."""
        cols, G = self.gaps.columns, self.G
        out = []
        for r in range(self.gaps.rows):
            row = G[r * cols:(r + 1) * cols]
            k = 0
            first = piles[row[0]]
            if first and first[0] != UNKNOWN and RANK_OF[first[0]] == 2:
                k = 1
                while k < cols and piles[row[k]] and piles[row[k]][0] == first[0] + k:
                    k += 1
            out.append(k)
        return out

    def _gaps_redeal(self, pos: Position) -> None:
        piles, G, cols = pos.piles, self.G, self.gaps.columns
        kept = self.kept_runs(piles)
        free: list[int] = []
        gathered: list[int] = []
        for r, k in enumerate(kept):
            for g in G[r * cols + k:(r + 1) * cols]:
                free.append(g)
                gathered.extend(piles[g])
        gathered.extend(piles[self.X])
        if pos.seed is None or UNKNOWN in gathered:
            cards = [UNKNOWN] * len(gathered)
        elif self.gaps.shuffle:
            cards = shuffled(gathered, pos.seed, stream=pos.pass_no)
        else:
            cards = gathered
        aside = []
        gap_rank = self._gap_rank()
        if self.gaps.gaps_after == "sequence" and UNKNOWN not in cards:
            # Montana: each row's gap right after its kept run; the aces go straight aside.
            firsts = {G[r * cols + k] for r, k in enumerate(kept) if k < cols}
            aside = [c for c in cards if RANK_OF[c] == gap_rank]
            rest = iter(c for c in cards if RANK_OF[c] != gap_rank)
            for g in free:
                piles[g] = () if g in firsts else (next(rest),)
        else:
            for g, c in zip(free, cards, strict=True):
                if c != UNKNOWN and RANK_OF[c] == gap_rank:
                    aside.append(c)
                    piles[g] = ()
                else:
                    piles[g] = (c,)
        piles[self.X] = tuple(aside)
        pos.pass_no += 1
        pos.idle = False


# ---------------------------------------------------------------- words
def explain_gap(pos: Position, move: Move) -> str:
    eng = pos.engine
    groups = eng.groups
    b = eng.index.get(move.dst or "", -1)
    if b not in groups.grid:
        return "a card goes into a gap: name its cell, e.g. b7 b2"
    if pos.piles[b]:
        return f"{move.dst} is not a gap"
    k = groups.grid.index(b)
    cols = eng.gaps.columns
    card = pos.piles[eng.index[move.src]][0]
    if k % cols == 0:
        return f"a gap at the start of a row takes a 2; {_c(card)} is not a 2"
    left = pos.piles[groups.grid[k - 1]]
    if not left:
        return f"the gap {move.dst} is dead: the cell to its left is a gap too"
    if RANK_OF[left[0]] == KING:
        return f"the gap {move.dst} is dead: a king stands to its left"
    want = CARDS[left[0] + 1]
    return f"only {want} can fill {move.dst} (one above {_c(left[0])} in suit), " \
           f"not {_c(card)}"


def explain_redeal(pos: Position) -> str:
    """Why a redeal (``s``) is refused."""
    v = pos.engine.variant
    g: P.Gaps = v.gaps  # type: ignore[assignment]  # (a Gaps game)
    if pos.pass_no > g.redeals:
        return f"no redeals left: {v.name} allows {g.redeals}"
    return f"{v.name} redeals only when no gap can be filled; a gap can still be filled"


def rules_text(v: Variant) -> list[str]:
    """The rules text's sentences on filling gaps and redealing."""
    if not v.gaps:
        return []
    g = v.gaps
    return ["Fill a gap with the card one rank higher, in the same suit, than the card "
            "to its left; a gap after a king or after another gap is dead.",
            f"When every gap is dead, redeal ({_n(g.redeals)} redeals): keep each row's "
            f"run from its 2 up in suit, gather the rest with the aces, "
            + ("shuffle, " if g.shuffle else "")
            + "deal them into the empty places row by row, and take the aces out again."]


REDEAL_DONE = "redeal the cards out of order"
"""What a redeal did, as the recorder echoes it."""


def redeal_action(g: P.Gaps) -> str:
    """What ``s`` does (the notation's line): empty where no redeal is allowed."""
    if not g.redeals:
        return ""
    return "redeal" + (" (at any time" if g.anytime else " (when every gap is blocked") \
        + f"; {_n(g.redeals)} redeal{'s' if g.redeals != 1 else ''} in all)"
