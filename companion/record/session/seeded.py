"""The seeded-deal check: the recorder says which cards turn up as the deal has them, and
``t3=9c`` reports a card seen that differs (a dealing error, with its place)."""

from __future__ import annotations

import re
from collections import Counter

from ...cards import Card, code_json
from ...errors import InvalidCardError
from .. import StoreError
from .replies import Reply


class SeededCheck:
    """Turned-up cards of a known deal, and dealing errors reported by the player."""

    def _turned_text(self) -> str:
        names = self.engine.names
        if not self.turned:
            return ""
        by_pile: dict[int, list[int]] = {}
        for i, _, c in self.turned:
            by_pile.setdefault(i, []).append(c)
        parts = []
        for i, cs in by_pile.items():
            cards = " ".join(self.card(c) for c in cs)
            parts.append(f"{names[i]}: {cards}" + (" (bottom to top)" if len(cs) > 1 else ""))
        first = self.turned[0]
        deal = "the seed" if self.start.seed is not None else self.start.deal_name
        return (f"Turned up, as {deal} deals it: " + "; ".join(parts)
                + f". If your card differs, type {names[first[0]]}=CARD (the card you see).")

    def _redealt_text(self, before_piles) -> str:
        """A seeded Gaps redeal: the player lays the cards out as the seed deals them."""
        names = self.engine.names
        moved = [i for i, p in enumerate(self.pos.piles) if p != before_piles[i]
                 and names[i] != "x"]
        example = names[moved[0]] if moved else names[0]
        return (f"Redealt, as {self.start.deal_name} deals it: gather the cards that are not in "
                f"a kept run and lay them out as shown ({len(moved)} cells), not shuffled your "
                f"own way. If a card on the table differs, type "
                f"{example}=CARD (the card you see).")

    def _seeded_report(self, line: str) -> Reply:
        """``t3=9c`` in a seeded game: the player says which card they see there. Several
        cards (``w=qs 4c 6s``) name a whole turn of the stock, bottom to top."""
        pile, _, cards = line.strip().lower().partition("=")
        pile = pile.strip()
        if self.short_prefix and pile.isdigit():
            pile = self.short_prefix + pile
        eng = self.engine
        if pile not in eng.index:
            return self._reply(False, "refused", f"there is no pile {pile!r} here; the piles "
                               "are " + ", ".join(eng.names) + ". Write t3=9c: the pile, then "
                               "the card you see there.")
        codes = []
        for tok in re.split(r"[\s,;]+", cards.strip()):
            if not tok:
                continue
            try:
                codes.append(Card.parse(tok).code)
            except InvalidCardError as exc:
                return self._reply(False, "invalid", str(exc))
        if not codes:
            return self._reply(False, "refused", f"name the card you see, e.g. {pile}=9c")
        i = eng.index[pile]
        spots = [(j, k, c) for j, k, c in self.turned if j == i]
        if len(codes) == 1 or len(spots) != len(codes):
            if len(codes) > 1:
                return self._reply(False, "refused", f"{len(codes)} cards named, but "
                                   f"{len(spots) or 'no'} card{'s' if len(spots) != 1 else ''}"
                                   f" just turned up on {pile}; name one card: {pile}=9c "
                                   f"(the top card).")
            if spots:
                spots = spots[-1:]
            else:
                p = self.pos.piles[i]
                if not p or self.pos.down[i] >= len(p):
                    return self._reply(False, "refused", f"{pile} has no face-up card to "
                                       "check.")
                spots = [(i, len(p) - 1, p[-1])]
        wrong = [(k, exp, got) for (_, k, exp), got in zip(spots, codes, strict=True)
                 if exp != got]
        checked = {(i, k) for _, k, _ in spots}
        for _, _, found in wrong:
            refused = self._face_up_elsewhere(found, checked)
            if refused:
                return self._reply(False, "refused", refused + f" Look again at {pile}: "
                                   "nothing was recorded.")
        if not wrong:
            shown = " ".join(self.card(c) for c in codes)
            return self._reply(True, "confirm", f"Right: {pile} shows {shown}, as "
                               f"{self.start.deal_name} deals it.")
        lines, data = [], []
        for k, expected, found in wrong:
            place = self._place(i, k)
            text = (f"Dealing error at {place}: expected {self.card(expected)}, found "
                    f"{self.card(found)}.")
            where = self._where(found)
            deal = self.start.deal_name
            advice = (f"{deal[0].upper() + deal[1:]} has {self.card(found)} at {where}: your "
                      f"{self.card(expected)} is probably there. Swap the two cards and play "
                      f"on; the recorder keeps to the seeded deal." if where else
                      f"{self.card(found)} is not in this deck: check the card.")
            if self.log is not None:
                try:
                    self.log.note(len(self.entries), "dealing-error", text)
                except StoreError as exc:
                    advice += f" (The note could not be saved: {exc})"
            lines += [text, advice]
            data.append({"place": place, "expected": code_json(expected),
                         "found": code_json(found)})
        return self._reply(False, "dealing-error", *lines, data={"errors": data})

    def _face_up_elsewhere(self, code: int, checked: set[tuple[int, int]]) -> str:
        """Why ``code`` cannot be the card seen at the ``checked`` places: every copy the decks
        hold is face up elsewhere on the table ("" when one may be hidden)."""
        pos = self.pos
        spots = [(i, k) for i, p in enumerate(pos.piles) for k, c in enumerate(p)
                 if c == code and k >= pos.down[i] and (i, k) not in checked]
        decks = self.start.variant.decks
        if len(spots) < decks:
            return ""
        card = self.card(code)
        where = " and ".join(self._place(i, k) for i, k in spots)
        if decks == 1:
            return f"{card} is face up at {where}; a one-deck game has only one {card}."
        return (f"{card} is face up at {where}; a {decks}-deck game has only {decks}.")

    def _where(self, code: int) -> str:
        """Where the seeded position holds ``code`` (not face up, preferably)."""
        pos = self.pos
        spots = [(i, k) for i, p in enumerate(pos.piles) for k, c in enumerate(p) if c == code]
        if not spots:
            return ""
        spots.sort(key=lambda s: s[1] >= pos.down[s[0]])  # face-down spots first
        i, k = spots[0]
        text = self._place(i, k)
        if k >= pos.down[i]:
            text += " (face up)"
        return text


def _turned_up(before_piles, before_down, pos) -> list[tuple[int, int, int]]:
    """(pile, height, code) of the cards a move turned face up (seeded games)."""
    def face_down(piles, down):
        c: Counter = Counter()
        for i, p in enumerate(piles):
            c.update(p[:down[i]])
        return c

    turned = face_down(before_piles, before_down) - face_down(pos.piles, pos.down)
    if not turned:
        return []
    out = []
    for i, p in enumerate(pos.piles):
        old = before_piles[i]
        for k in range(pos.down[i], len(p)):
            c = p[k]
            if turned[c] > 0 and not (before_down[i] <= k < len(old) and old[k] == c):
                out.append((i, k, c))
                turned[c] -= 1
    return out
