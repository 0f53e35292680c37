"""Reveals in a physical game: the player names each card as it turns up (``9c``, ``9s 8d
7c`` bottom to top, or ``t3=9c``); each is checked, then recorded."""

from __future__ import annotations

import re
from collections import Counter

from ...cards import Card
from ...errors import IllegalMoveError, InvalidCardError, InvalidMoveError
from ...rules import Move
from ...rules.moves import place_text
from .replies import Reply, _typed


class Reveals:
    """Cards named as they turn up, checked against the position and the deck."""

    def _pending_text(self) -> str:
        pending = self.pending
        if not pending:
            return ""
        names = self.engine.names
        piles = []
        for i, _ in pending:
            if i not in piles:
                piles.append(i)
        if len(piles) == 1:
            n = len(pending)
            if n == 1:
                if piles[0] == self.engine.groups.waste:
                    return (f"Which card turned up on {names[piles[0]]}, the waste's top "
                            f"card? (e.g. 9c)")
                return f"Which card turned up on {names[piles[0]]}? (e.g. 9c)"
            return (f"{n} cards turned up on {names[piles[0]]}: name them from the bottom (the "
                    f"most covered) to the top (the one you can play), e.g. 9s 8d 7c.")
        listing = ", ".join(names[i] for i in piles)
        return (f"{len(pending)} cards turned up, on {listing}: name them in that order "
                f"({names[piles[0]]} first" + (", each pile bottom to top" if
                                               len(piles) < len(pending) else "") + ").")

    def _reveal_line(self, line: str) -> Reply:
        tokens = [t for t in re.split(r"[\s,;]+", line.strip()) if t]
        names = self.engine.names
        pending = self.pending
        bad = []
        for tok in tokens:
            if "=" in tok:
                continue
            try:
                Card.parse(tok)
            except InvalidCardError as exc:
                bad.append((tok, exc))
        if bad:
            tok, exc = bad[0]
            if len(tokens) > 1 and any(t in self.engine.index for t in tokens):  # a move
                return self._reply(False, "refused", f"{line!r} looks like a move: name the "
                                   f"turned-up card first. " + self._pending_text())
            if len(tokens) == 1:
                return self._reply(False, "refused", f"{line!r} does not name the turned-up "
                                   f"card. " + self._pending_text(), self._reveal_help(line))
            return self._reply(False, "refused", f"{tok!r} in that line is not a card: "
                               + str(exc).split(": ", 1)[-1].rstrip(".") + ". Nothing was "
                               "named; type the line again with it corrected.")
        if len(tokens) > len(pending):
            return self._reply(False, "refused", self._too_many_text(len(tokens)))
        named: Counter[int] = Counter()
        for tok in tokens:
            try:
                named[Card.parse(tok.partition("=")[2] if "=" in tok else tok).code] += 1
            except InvalidCardError:
                continue
        unseen = self.pos.unseen()
        for c, n in named.items():
            if n > 1 and 1 <= unseen[c] < n:  # more copies named than the deck still hides
                why = ("appears twice in that line: each card turned up is a different one"
                       if unseen[c] == 1 else f"appears {n} times in that line, and only "
                       f"{unseen[c]} of them are not seen yet")
                return self._reply(False, "refused", f"{self.card(c)} {why}.",
                                   "Nothing was named. " + self._pending_text())
        trial = self.pos.copy()
        moves: list[Move] = []
        for tok in tokens:
            if "=" in tok:
                try:
                    m = Move.parse(tok)
                except InvalidMoveError as exc:
                    return self._reply(False, "invalid", str(exc))
            else:
                code = Card.parse(tok).code
                left = trial.pending_reveals()
                m = Move(names[left[0][0]], None, 0, code)
            try:
                trial.play(m)
            except (IllegalMoveError, InvalidMoveError) as exc:
                reason = getattr(exc, "reason", None) or str(exc)
                seen = self._seen_at(m.card, trial) if m.card is not None else ""
                if seen:
                    # the advice names the card: `fix PILE CARD` alone may mean another one
                    at = self._seen_piles(m.card, trial)[0]
                    reason = (f"{self.card(m.card)} is already face up at {seen}; the card "
                              f"turned up must be one not seen yet. If that one was named "
                              f"wrongly, type fix {at} {_typed(m.card)} CARD first (CARD: "
                              f"the card really there), then name this one")
                return self._reply(False, "illegal", f"{m}: {reason}.",
                                   "Nothing was named. " + self._pending_text(),
                                   data={"reason": reason})
            moves.append(m)
        texts, failed = self._record_reveals(moves)
        if failed is not None:
            return failed
        return self._after_reveal(texts)

    def _too_many_text(self, n: int) -> str:
        """``n`` cards typed for fewer places waiting: say which places are left."""
        pending = self.pending
        names = self.engine.names
        by_pile: dict[int, list[int]] = {}
        for i, k in pending:
            by_pile.setdefault(i, []).append(k)
        where = []
        named = []
        for i, ks in by_pile.items():
            where.append(self._place(i, ks[0]) if len(ks) == 1 else
                         f"{names[i]}, cards " + ", ".join(str(k + 1) for k in ks[:-1])
                         + f" and {ks[-1] + 1} from the bottom")
            p = self.pos.piles[i]
            named += [self.card(c) for c in p[self.pos.down[i]:ks[0]]][-(n - len(pending)):]
        left = len(pending)
        text = (f"{n} cards named, but only {left} {'is' if left == 1 else 'are'} still to "
                f"name: " + "; ".join(where) + ".")
        if named:
            text += (f" ({' '.join(named)} below {'it' if left == 1 else 'them'} "
                     f"{'is' if len(named) == 1 else 'are'} named already.)")
        first = names[next(iter(by_pile))]
        return text + (f" Type the {left} still to name, bottom to top." if left > 1 else
                       f" Type the card on {first}.")

    def _seen_piles(self, code: int, pos) -> list[str]:
        """The piles where ``code`` is face up in ``pos``."""
        return [self.engine.names[i] for i, p in enumerate(pos.piles)
                for k, c in enumerate(p) if c == code and k >= pos.down[i]]

    def _seen_at(self, code: int, pos) -> str:
        """Where ``code`` is face up in ``pos`` ("" if nowhere; every copy for two decks)."""
        spots = [(i, k) for i, p in enumerate(pos.piles) for k, c in enumerate(p)
                 if c == code and k >= pos.down[i]]
        if len(spots) < self.start.variant.decks:
            return ""
        return " and ".join(place_text(self.engine.names, i, k, len(pos.piles[i]))
                            for i, k in spots)

    def _record_reveals(self, moves: list) -> tuple[list[str], Reply | None]:
        """Play the checked reveal ``moves`` and save them in one step: their texts, and the
        store's error reply (every move taken back, the saved game as it was) or None."""
        texts = [str(m) for m in moves]
        for m in moves:
            self.pos.play(m)
        if not self._persist(texts):
            for _ in moves:
                self.pos.pop()
            return texts, self._last_store_error
        self.entries.extend(texts)
        self.redo_stack.clear()
        return texts, None

    def _after_reveal(self, texts: list[str], redo: bool = False) -> Reply:
        by_pile: dict[str, list[str]] = {}
        for t in texts:
            pile, _, card = t.partition("=")
            by_pile.setdefault(pile, []).append(self.card(Card.parse(card).code))
        named = "; ".join(f"{p}: " + " ".join(cs) for p, cs in by_pile.items())
        lines = [("Redid: " if redo else "Named ") + named + "."]
        data: dict = {"reveals": texts}
        if self.pending:
            lines.append(self._pending_text())
            data["pending"] = [self.engine.names[i] for i, _ in self.pending]
        end = self._settle()
        if end:
            lines.append(end)
        data.update(self._outcome_data())
        return self._reply(True, "reveal", *lines, board=not self.pending,
                           move=" ".join(texts), data=data)
