"""Position keys and symmetry (the :class:`Keys` part of :class:`~.knowledge.Knowledge`): the
canonical key of a position (interchangeable piles sorted, a talon's pointer left out where the
stock's turns reach the same cards, a dominated pointer's class, a Golf waste by its top card),
the mirror key that :func:`~.lines.shorten` cuts lines by, the cheaper key of the tableau alone
where it names the whole position, and the lean look's key."""

from __future__ import annotations

from collections.abc import Callable

from ..rules.engine import Raw
from ..rules.position import Position
from .codes import _BYTE, _ENDS
from .derived import Derived, KeyOf

# The key of the position a move leads to, without playing it (see :meth:`Keys.child_key_for`).
ChildKeyOf = Callable[[Position, Raw], bytes]


class Keys(Derived):
    """Keys and mirrors, from the pile groups :class:`~.knowledge.Knowledge` derives."""

    def key(self, pos: Position) -> bytes:
        # Each pile is its card codes (all below 128) and then one byte of 128 + its
        # face-down count, which ends it; the number of piles is fixed, so the joined
        # bytes name one position (up to the symmetries) and are cheap to build.
        piles, down, ends = pos.piles, pos.down, _ENDS
        if self.static:
            return bytes([len(piles[i]) for i in self.heights]) + \
                bytes([down[i] for i in self.heights]) + bytes(piles[self.W][-1:]) + \
                bytes((min(pos.pass_no, 255), pos.idle))
        sort_t = self.sort_tableau or (self.sort_tableau_when_stock_empty and not piles[self.S])
        if sort_t:
            parts = [bytes(piles[i]) + ends[down[i]] for i in self.T]
            parts.sort()
            rest = self.fixed
        else:
            parts = []
            rest = self.fixed_all
        for grp in self.f_groups:
            group = [bytes(piles[i]) + ends[down[i]] for i in grp]
            group.sort()
            parts += group
        sink = self.sink
        # The talon as one sequence, its pointer left out (see ``talon_draw``), where the
        # stock's moves reach the same cards; 255 ends it (no pile's end byte is that high),
        # where a stock and a waste would end twice.
        S, W = self.S, self.W
        one_talon: int = False  # (then 0, or the byte that ends the talon)
        if self.talon_draw and not pos.idle:
            stock, waste = piles[S], piles[W]
            one_talon = down[S] == len(stock) and not down[W]
            if one_talon and stock:
                r = len(waste) % self.talon_draw
                one_talon = 255 - r if not r or self.dominance else 0
            elif one_talon:
                one_talon = 255
        for i in rest:
            if one_talon and i in (S, W):
                if i == S:  # the class of a dominance (see ``dominance``) ends 255 - p % draw
                    parts.append(bytes(piles[W]) + bytes(piles[S][::-1]) + _ENDS[one_talon - 128])
                continue
            p = piles[i] if i != sink else piles[i][-1:]
            parts.append(bytes(p) + ends[down[i]])
        # The last byte: idle (1) or not (0), or 2 for the class of a dominance.
        parts.append(bytes((0 if self.unlimited else min(pos.pass_no, 255),
                            2 if 252 < one_talon < 255 else pos.idle)))
        return b"".join(parts)

    @property
    def has_mirrors(self) -> bool:
        """Whether some piles are ever interchangeable (see :meth:`mirror_groups`)."""
        return self.sort_tableau or self.sort_tableau_when_stock_empty or bool(self.f_groups)

    def mirror_groups(self, pos: Position) -> tuple[tuple[int, ...], ...]:
        """The groups of interchangeable piles of ``pos``, as :meth:`key` sorts them: the
        tableau where one rule governs all its piles (and no stock still deals to them in
        order), and each group of foundations with more than one pile."""
        return self._mirrors(pos)[0]

    def _mirrors(self, pos: Position) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """:meth:`mirror_groups` and the piles outside them."""
        piles = pos.piles
        if self.sort_tableau or (self.sort_tableau_when_stock_empty and not piles[self.S]):
            return ((self.T,) + self.f_groups, self.fixed)
        return (self.f_groups, self.fixed_all)

    def mirror_key(self, pos: Position) -> bytes:
        """``pos`` up to a renaming of the piles within each of its :meth:`mirror_groups`,
        exact in all else: two positions have the same mirror key exactly when such a renaming
        turns one into the other (the same moves then win both, their piles renamed).
        :meth:`key` names the same positions alike, and may name more alike (a talon's
        pointer, a sink's buried cards), which no renaming of piles gives."""
        piles, down, ends = pos.piles, pos.down, _ENDS
        groups, rest = self._mirrors(pos)
        parts = [_BYTE[len(groups)]]  # (whether the tableau is a group: the parts' order)
        for grp in groups:
            parts += sorted([bytes(piles[i]) + ends[down[i]] for i in grp])
        parts += [bytes(piles[i]) + ends[down[i]] for i in rest]
        parts.append(bytes((0 if self.unlimited else min(pos.pass_no, 255), pos.idle)))
        return b"".join(parts)

    def mirror_key_for(self, root: Position) -> KeyOf:
        """:meth:`mirror_key` for the positions reached from ``root``, or where the tableau
        names them (:meth:`key_for`), the cheaper key of the tableau alone: there it names
        the same positions alike (no face-down card, no stock, foundations interchangeable)."""
        return self.key_for(root) if self._tableau_keyed(root) else self.mirror_key

    def key_for(self, root: Position) -> KeyOf:
        """The canonical key for the positions of a search from ``root``: :meth:`key`, or
        where the tableau names the whole position, a cheaper key of the tableau alone.

        That is where the piles are the tableau and one group of foundations building up in
        suit from a base card, one deck (``tableau_names_all``), and ``root`` has no face-down
        card, is not idle and each foundation holds a chain from its base as its rule builds
        it. Then so does every position reached from it, with the same cards: those not on
        the tableau are on the foundations, each suit's in one pile (one base card per suit),
        in the one order the chain allows; with the foundations interchangeable in the key,
        their piles are named by the tableau. No stock, so nothing else changes."""
        if not self._tableau_keyed(root):
            return self.key
        lo, hi = self.T[0], self.T[-1] + 1
        end = _ENDS[0]

        def key(pos: Position) -> bytes:
            # Each pile's codes (below 128), sorted, joined by a byte of 128.
            return end.join(sorted(map(bytes, pos.piles[lo:hi])))

        return key

    def child_key_for(self, root: Position) -> ChildKeyOf | None:
        """Where :meth:`key_for` keys the tableau alone and a move between piles changes
        nothing but them: a function of (position, move between two tableau piles) giving the
        key of the position the move leads to, without playing it (the search skips a move
        to a position met before at that cost alone). Else None."""
        if not self._tableau_keyed(root) or not root.engine.plain_move:
            return None
        lo, hi = self.T[0], self.T[-1] + 1
        end = _ENDS[0]

        def child_key(pos: Position, m: Raw) -> bytes:
            _, a, n, b = m
            piles = pos.piles
            tab = piles[lo:hi]
            src = piles[a]
            tab[a - lo] = src[:-n]
            tab[b - lo] = piles[b] + src[-n:]
            return end.join(sorted(map(bytes, tab)))

        return child_key

    def _tableau_keyed(self, root: Position) -> bool:
        """Whether the tableau alone names the positions of a search from ``root`` (see
        :meth:`key_for`)."""
        if not self.tableau_names_all or root.idle or any(root.down):
            return False
        piles = root.piles
        for f, (base, on_top, most) in self.f_accepts.items():
            p = piles[f]
            if len(p) > most or (p and p[0] not in base) \
                    or any(p[k + 1] not in on_top[p[k]] for k in range(len(p) - 1)):
                return False
        return True

    def pointer(self, pos: Position) -> int:
        """The talon's pointer (the waste's size) of a position whose key names a class of
        a dominance (see ``dominance``; such a key ends with 2), else -1."""
        return len(pos.piles[self.W]) if self.key(pos)[-1] == 2 else -1

    def lean_key(self, pos: Position) -> bytes:
        """The lean look's key: the tableau (piles interchangeable), the foundations'
        heights and the pass; not the talon (as Klondike-Solver's: a position met again
        with its talon turned otherwise is met again, unless by a shorter line)."""
        piles, down, ends = pos.piles, pos.down, _ENDS
        parts = sorted([bytes(piles[i]) + ends[down[i]] for i in self.T])
        parts.append(bytes([len(piles[f]) for f in self.F] + [min(pos.pass_no, 255)]))
        return b"".join(parts)
