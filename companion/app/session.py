"""The recorder the commands build: :class:`Session`, the record layer's
:class:`~companion.record.session.Recorder` with the board (render), the hint (solver) and
``scan PHOTO`` (vision) plugged in.

``scan PHOTO`` (or ``scan cam0``, a webcam): in setup, the photographed layout's piles whose
cards were all read with confidence are entered, checked like typed lines (the others are
named, for the player to type); in play, a card that turned up is named from the photo when
exactly one card read with confidence is new to the position. A card the photo reading
inferred from the rules is named as such: entered in setup (checked by the player before
`start`), left for the player to type in play (a turned-up card is recorded at once).
"""

from __future__ import annotations

from ..cards import code_json
from ..errors import IllegalMoveError, InvalidMoveError
from ..record.session import SETUP, Recorder, Reply
from ..render.text import render
from ..rules import Move
from . import photo
from .hint import solver_hint
from .photo import (
    CHECK_AND_TYPE,
    inferred_cards,
    inferred_line,
    layout_plan,
    new_cards,
    no_cards_message,
    parse_source,
    reveal_plan,
    source_name,
    uncertain_text,
    where,
)


class Photos:
    """Cards read from a photo, entered only where read with confidence."""

    def _scan(self, arg: str) -> Reply:
        """``scan PHOTO`` / ``scan cam0``: the layout (setup) or a turned-up card (play)."""
        if not arg:
            return self._reply(False, "refused", "Say which photo: scan table.jpg (or scan cam0 "
                               "for webcam 0).")
        if self.phase == SETUP or self.pending:
            pass
        elif self.seeded_game:
            return self._reply(False, "refused", "In a seeded game the recorder knows every "
                               "card: nothing to read from a photo. If a card on the table "
                               "differs, type t3=CARD (the card you see).")
        else:
            return self._reply(False, "refused", "No card is waiting to be named: `scan` "
                               "enters the layout, or a card when one turns up.")
        path, camera = parse_source(arg)
        source = source_name(path, camera)
        reading = (self.scanner or photo.scan)(path, camera, self.start.variant.key)
        if not reading["cards"]:
            return self._reply(False, "refused", no_cards_message(source)[0].upper()
                               + no_cards_message(source)[1:] + ". Nothing was entered.")
        if self.phase == SETUP:
            return self._scan_layout(reading, source)
        return self._scan_reveal(reading, source)

    def _scan_layout(self, reading, source: str) -> Reply:
        layout = self.layout
        assert layout is not None
        names = self.engine.names
        plan, todo = layout_plan(reading, layout)
        for i in list(plan):
            have = layout.entered[i]
            if have == plan[i]:
                del plan[i]
            elif have:  # typed already, and the photo differs: the player decides
                todo.append(f"{names[i]}: the photo shows "
                            + " ".join(self.card(c) for c in plan.pop(i)) + ", you typed "
                            + " ".join(self.card(c) for c in have) + f" (correct with "
                            f"{names[i]}: CARDS if needed)")
        if not plan:
            return self._reply(False, "refused", f"Nothing entered from {source}.",
                               *[("  " + t) for t in todo],
                               "" if layout.complete else layout.instructions())
        before = {i: list(e) for i, e in layout.entered.items()}
        undo_before = list(layout._undo)
        for i, codes in plan.items():
            res = layout.enter(f"{names[i]}: " + " ".join(code_json(c) for c in codes))
            if not res.ok:
                layout.entered, layout._undo = before, undo_before
                return self._reply(False, "refused", f"The cards read from {source} were "
                                   f"refused: {res.message}. Nothing was entered; type the "
                                   f"piles (or retake the photo).", *[("  " + t) for t in todo])
        layout._undo = undo_before + [before]   # one `undo` takes the whole photo back
        if not self._save_layout():
            layout.entered, layout._undo = before, undo_before
            return self._last_store_error
        self._refresh_setup()
        piles = reading.get("piles")
        empty = [n for n in (piles.empty if piles is not None else []) if names.index(n) in plan]
        entered = "; ".join(f"{names[i]}: " + " ".join(self.card(c) for c in cs)
                            for i, cs in plan.items() if names[i] not in empty)
        lines = [f"Read from {source}: {entered}."]
        if empty:
            aside = " ".join(self.card(plan[names.index(n)][0]) for n in empty)
            lines.append(f"Empty in the photo: {', '.join(empty)}, taken for the places of "
                         f"the cards the deal puts aside ({aside}: which lay where makes no "
                         "difference).")
        # a card read below the threshold and named from the rules is entered (nothing is
        # recorded before `start`, after the player has checked the layout) and named here
        taken = {names[i] for i in plan}
        inferred = [inferred_line(name, d, self.card) for name, d in inferred_cards(reading)
                    if name in taken]
        lines += inferred
        if todo:
            lines.append("Type these yourself (not entered):")
            lines += ["  " + t for t in todo]
        if layout.complete:
            lines.append(f"Every face-up card is named ({layout.total}). Check the layout "
                         "against the table, then type `start` (or correct a pile: t3: 9c).")
        else:
            lines.append(layout.instructions())
        return self._reply(True, "layout", *lines, board=layout.complete,
                           data={"scanned": {names[i]: [code_json(c) for c in cs]
                                             for i, cs in plan.items()}, "to_type": todo,
                                 "inferred": inferred})

    def _scan_reveal(self, reading, source: str) -> Reply:
        new, unsure, inferred = new_cards(reading, self.pos)
        pending = self.pending
        unsure_text = ("Not read with confidence: " + ", ".join(uncertain_text(d)
                                                                 for d in unsure) + "."
                       if unsure else "")
        # a card the rules named is not recorded (a card that turns up is, at once): named
        pile = where(reading)
        inferred_text = [inferred_line(pile.get(id(d), "in the photo"), d, self.card,
                                       then=CHECK_AND_TYPE) for d in inferred]
        if len(pending) > 1:
            reply = self._scan_reveals(reading, source)
            if reply is not None:
                return reply
        if len(new) == 1 and len(pending) == 1 and not inferred:
            reply = self._reveal_line(code_json(new[0]))
            reply.lines.insert(0, self._t(f"The photo shows one new card: {self.card(new[0])}."))
            return reply
        if not new:
            why = f"No new card read with confidence in {source}."
        elif len(new) == 1 and len(pending) == 1:
            why = (f"The photo shows one new card read with confidence ({self.card(new[0])}) "
                   f"and {len(inferred)} inferred from the rules: cannot tell which turned up.")
        elif len(new) == 1:
            why = (f"The photo shows one new card ({self.card(new[0])}), but {len(pending)} "
                   f"cards turned up.")
        else:
            why = (f"{len(new)} cards in {source} are new to the position ("
                   + " ".join(self.card(c) for c in new) + "): cannot tell which turned up.")
        return self._reply(False, "refused", why, unsure_text, *inferred_text,
                           "Type the card: " + self._pending_text())

    def _scan_reveals(self, reading, source: str) -> Reply | None:
        """Several cards waiting: each one the photo shows with confidence, in its pile and
        place, is named (as if typed); the rest are asked for. None when the photo
        names none of them."""
        plan, todo = reveal_plan(reading, self.pos)
        if not plan:
            return None
        names = self.engine.names
        trial = self.pos.copy()
        moves = []
        for i, _k, code in plan:
            m = Move(names[i], None, 0, code)
            try:
                trial.play(m)
            except (IllegalMoveError, InvalidMoveError) as exc:
                todo.append(f"{names[i]}: {self.card(code)} read, refused: "
                            + (getattr(exc, "reason", None) or str(exc)))
                continue
            moves.append(m)
        if not moves:
            return None
        texts, failed = self._record_reveals(moves)
        if failed is not None:
            return failed
        reply = self._after_reveal(texts)
        reply.lines.insert(0, self._t(f"Read from {source}: {len(moves)} of "
                                      f"{len(plan) + len(todo)} waiting cards."))
        if todo:
            at = 2 if self.pending else len(reply.lines)
            reply.lines[at:at] = ["Not read from the photo (type them):"] + [
                "  " + self._t(t) for t in todo]
        reply.data["to_type"] = todo
        return reply


class Session(Photos, Recorder):
    """One game being recorded, as the commands build it: with :meth:`seeded`,
    :meth:`physical`, :meth:`resume` or :meth:`in_setup`."""

    def __init__(self, start, *, scanner=None, **kw):
        super().__init__(start, **kw)
        # scanner(photo, camera, variant_key) -> a reading, as photo.scan gives it (tests)
        self.scanner = scanner

    def board(self) -> str:
        return render(self.pos, symbols=self.symbols, colour=self.colour)

    def _solver_hint(self, pos, symbols: bool) -> str | None:
        return solver_hint(pos, symbols)
