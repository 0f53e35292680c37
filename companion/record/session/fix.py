"""Corrections in a physical game: ``fix PILE WRONG CARD`` puts the card really there, and
the whole game is replayed with it."""

from __future__ import annotations

import json
import re

from ...cards import UNKNOWN, Card, code_json
from ...errors import CompanionError, InvalidCardError
from ...rules import Position
from ...rules.moves import place_text
from .. import StoreError
from .replies import Reply, _typed


class Corrections:
    """``fix`` (and ``t5=8c`` where no card waits): a misnamed card corrected."""

    def _fix(self, line: str) -> Reply:
        """``fix t5 8s 8c`` (8♠ on t5 was misnamed: it is 8♣), or ``fix t5 8c`` / ``t5=8c``
        where t5 shows one named card (with several, the player is asked which). The whole
        game is replayed by the engine with the right card; refused, with the move that would
        no longer replay, when the correction makes a recorded move illegal."""
        usage = ("Type fix PILE WRONG CARD: the pile, the card named wrongly, then the card "
                 "really there (fix t5 8s 8c); fix t5 8c alone where t5 shows one named card.")
        if self.seeded_game:
            return self._reply(False, "refused", "In a seeded game the recorder knows every "
                               "card: type t3=CARD to report a card that differs.")
        text = line.strip().lower()
        text = text[3:] if text.startswith("fix") else text.replace("=", " ", 1)
        toks = [t for t in re.split(r"[\s,;=]+", text) if t]
        if len(toks) not in (2, 3):
            return self._reply(False, "refused", usage)
        pile = toks[0]
        if self.short_prefix and pile.isdigit():
            pile = self.short_prefix + pile
        eng = self.engine
        if pile not in eng.index:
            return self._reply(False, "refused", f"there is no pile {pile!r} here; the piles "
                               "are " + ", ".join(eng.names) + ". " + usage)
        try:
            cards = [Card.parse(t).code for t in toks[1:]]
        except InvalidCardError as exc:
            return self._reply(False, "invalid", str(exc), usage)
        old, new = (cards[0], cards[1]) if len(cards) == 2 else (None, cards[0])
        i = eng.index[pile]
        if old is None:
            # pile + card alone: only where one card can be meant; never guess among several
            old = self._fix_card_meant(pile, i, new)
            if isinstance(old, Reply):
                return old
        entries = list(self.entries)
        start_json = None
        spot = self._fix_spot(pile, i, old)
        if isinstance(spot, str):
            return self._reply(False, "refused", spot + " " + usage)
        if spot[0] == "entry":
            k = spot[1]
            wrong = old
            name = entries[k].split("=", 1)[0]
            entries[k] = f"{name}={code_json(new).lower()}"
            where = f"the card named on {name} at move {self._move_number(k)}"
        else:
            j, h = spot[1], spot[2]
            p = self.start.piles[j]
            wrong = p[h]
            data = self.start.to_json()
            data["piles"][eng.names[j]]["cards"][h] = code_json(new)
            start_json = data
            where = f"the layout's {place_text(eng.names, j, h, len(p))}"
        if wrong == new:
            return self._reply(False, "refused", f"{where} is {self.card(new)} already: "
                               "nothing changed.")
        try:
            start = Position.from_json(start_json) if start_json else self.start
        except CompanionError as exc:
            return self._reply(False, "refused", f"{self.card(new)} cannot be there: {exc}.")
        if start_json and not start.is_valid():
            return self._reply(False, "refused", f"{self.card(new)} cannot be at {where}: "
                               "the layout would hold it more often than the deck does.")
        pos = start.copy()
        for n, t in enumerate(entries):
            try:
                pos.play(t)
            except CompanionError as exc:
                reason = getattr(exc, "reason", None) or str(exc)
                return self._reply(False, "refused", f"Not corrected: with {self.card(new)} "
                                   f"as {where}, {self._entry_name(n, t)} would no longer be "
                                   f"legal ({reason}). Nothing changed; `undo` back to that "
                                   f"move first if the game went otherwise.")
        if self.log is not None:
            try:
                self.log.rewrite(json.dumps(start.to_json()) if start_json else None,
                                 [(t, "=" in t) for t in entries])
            except StoreError as exc:
                return self._reply(False, "store-error", str(exc), "Nothing was corrected.")
        self.start, self.pos, self.entries = start, pos, entries
        self.redo_stack.clear()
        lines = [f"Corrected {where}: {self.card(wrong)} → {self.card(new)}. Every move "
                 f"since replays with it."]
        if self.pending:
            lines.append(self._pending_text())
        end = self._settle()
        if end:
            lines.append(end)
        return self._reply(True, "fix", *lines, board=True, data=self._outcome_data())

    def _fix_card_meant(self, pile: str, i: int, new: int) -> int | Reply:
        """The card ``fix PILE NEW`` corrects: the one named card face up on the pile (else,
        with none there, the one card ever named on it); a refusal that asks which, or says
        none was named."""
        pos = self.pos
        shown = list(dict.fromkeys(c for c in pos.piles[i][pos.down[i]:] if c != UNKNOWN))
        if not shown:
            named = [Card.parse(e.split("=", 1)[1]).code for e in self.entries
                     if e.startswith(pile + "=")]
            p, d = self.start.piles[i], self.start.down[i]
            shown = list(dict.fromkeys([c for c in p[d:] if c != UNKNOWN] + named))
        if len(shown) == 1:
            return shown[0]
        if not shown:
            return self._reply(False, "refused", f"No card was named on {pile}: nothing to "
                               "correct. Type fix PILE WRONG CARD with the pile where the "
                               "misnamed card lies (fix t5 8s 8c).")
        listing = " ".join(self.card(c) for c in shown[-6:])
        more = "... " if len(shown) > 6 else ""
        top, typed = shown[-1], _typed(new)
        return self._reply(False, "refused", f"{pile} holds {len(shown)} named cards ({more}"
                           f"{listing}): which one is wrong? Type fix {pile} CARD {typed}, "
                           f"CARD being the card named wrongly (e.g. fix {pile} {_typed(top)} "
                           f"{typed} if it is {self.card(top)}). Nothing was changed.")

    def _fix_spot(self, pile: str, i: int, old: int):
        """Where ``old``, seen on ``pile``, was named: ("entry", k) for the reveal entry k,
        ("layout", j, h) for the typed layout's pile j, height h; else why not, in words."""
        def card_of(e: str) -> int:
            return Card.parse(e.split("=", 1)[1]).code

        entries = self.entries
        k = next((n for n in range(len(entries) - 1, -1, -1)
                  if entries[n].startswith(pile + "=") and card_of(entries[n]) == old), None)
        if k is not None:
            return ("entry", k)
        start = self.start
        p, d = start.piles[i], start.down[i]
        spots = [h for h in range(d, len(p)) if p[h] == old]
        if spots:
            return ("layout", i, spots[-1])
        # named on another pile, moved here since (K♦ into an empty t5)
        origins = [("entry", n) for n, e in enumerate(entries) if "=" in e
                   and card_of(e) == old]
        origins += [("layout", j, h) for j, q in enumerate(start.piles)
                    for h in range(start.down[j], len(q)) if q[h] == old]
        pos = self.pos
        here = old in pos.piles[i][pos.down[i]:]
        if len(origins) == 1 and here:
            return origins[0]
        card = self.card(old)
        if not origins:
            return f"{card} was never named: nothing to correct."
        piles = sorted({entries[o[1]].split("=", 1)[0] if o[0] == "entry"
                        else self.engine.names[o[1]] for o in origins})
        if here:
            return (f"{card} was named more than once ({', '.join(piles)}): type fix with "
                    f"the pile where the wrong one was named.")
        return (f"{card} is not on {pile} and was never named there (it was named on "
                f"{' and '.join(piles)}): type fix {piles[0]} {_typed(old)} CARD.")

    def _names_waiting(self, key: str) -> bool:
        """Whether ``t4=js`` names a card waiting to be named (not a correction)."""
        waiting = {self.engine.names[i] for i, _ in self.pending}
        piles = {t.split("=", 1)[0].strip() for t in re.split(r"[\s,;]+", key) if "=" in t}
        if self.short_prefix:
            piles = {self.short_prefix + p if p.isdigit() else p for p in piles}
        return bool(piles & waiting) or not piles

    def _move_number(self, k: int) -> int:
        """The number of the move entry ``k`` belongs to (a reveal: the move before it)."""
        return max(1, sum(1 for e in self.entries[:k + 1] if "=" not in e))

    def _entry_name(self, n: int, text: str) -> str:
        if "=" in text:
            return f"the card named at move {self._move_number(n)} ({text})"
        return f"move {self._move_number(n)} ({text})"
