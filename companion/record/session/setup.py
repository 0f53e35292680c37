"""The setup phase of a physical game: the player names the face-up cards of the layout,
then types `start`."""

from __future__ import annotations

import json

from ...rules import Position
from .. import StoreError
from .replies import COMMANDS, ENDED, PLAY, SETUP, Reply, _any_card


class SetupPhase:
    """Lines typed while the layout is entered, and the start of play."""

    def _setup_line(self, line: str, key: str) -> Reply:
        layout = self.layout
        assert layout is not None
        cmd = COMMANDS.get(key)
        if not line:
            if layout.complete:
                return self._reply(True, "empty", "Every card is named: type `start` to play, "
                                   "or correct a pile (t3: 9c).")
            return self._reply(True, "empty", layout.instructions())
        if cmd == "help":
            return self._reply(True, "help", *self._setup_help())
        if cmd == "show":
            return self._reply(True, "show", self._setup_status(), board=True)
        if cmd == "quit":
            self.phase = ENDED
            kept = f" Game {self.game_id} kept: `companion resume {self.game_id}` goes on " \
                   f"with the layout." if self.game_id is not None else ""
            return self._reply(True, "quit", "Left the layout entry." + kept, done=True)
        if cmd == "undo":
            before = {i: list(e) for i, e in layout.entered.items()}
            if not layout.undo():
                return self._reply(False, "refused", "Nothing to undo: no card is named yet.")
            if not self._save_layout():
                layout.redo_line(before)
                return self._last_store_error
            self._refresh_setup()
            return self._reply(True, "undo", "Took back the last line. " + self._setup_status(),
                               board=True)
        if cmd == "start":
            return self._start_play()
        if cmd in ("redo", "moves", "hint", "resign"):
            if layout.complete:  # every card named: what is left is to type `start`
                return self._reply(False, "refused", f"`{key}` works once play has started: "
                                   "every face-up card is named, so type `start` first (or "
                                   "correct a pile: t3: 9c).")
            return self._reply(False, "refused", f"`{key}` works once play has started; first "
                               "name the face-up cards. " + layout.instructions())
        res = layout.enter(line)
        if not res.ok:
            return self._reply(False, "refused", res.message + ".",
                               "" if _any_card(line) else self._suggest(line, ("help", "show",
                                                                                "undo", "quit",
                                                                                "start")))
        if not self._save_layout():
            layout.undo()
            return self._last_store_error
        self._refresh_setup()
        broken = layout.requirement_problem()
        warn = (f"{broken}. `start` waits for a layout that holds one." if broken else "")
        if layout.complete:
            return self._reply(True, "layout", res.message, warn,
                               f"Every face-up card is named ({layout.total}). Check the layout "
                               "against the table, then type `start` (or correct a pile: "
                               "t3: 9c).", layout.aces_text(), board=True)
        return self._reply(True, "layout", res.message, warn, layout.instructions())

    def _setup_status(self) -> str:
        layout = self.layout
        assert layout is not None
        if layout.complete:
            return f"All {layout.total} face-up cards named: type `start` to play."
        missing = layout.missing()
        return (f"{layout.count} of {layout.total} face-up cards named; still to name: "
                + (", ".join(missing) if len(missing) <= 6 else
                   f"{missing[0]} ... {missing[-1]} ({len(missing)} piles)") + ".")

    def _refresh_setup(self) -> None:
        """The displayed position: the deal with the cards named so far."""
        layout = self.layout
        assert layout is not None
        self.pos = layout.build(self.start)

    def _save_layout(self) -> bool:
        if self.log is None:
            return True
        try:
            self.log.set_start(json.dumps({"layout": self.layout.to_json(),
                                           "undo": self.layout.undo_json()}), SETUP)
        except StoreError as exc:
            self._last_store_error = self._reply(False, "store-error", str(exc))
            return False
        return True

    def _start_play(self) -> Reply:
        layout = self.layout
        assert layout is not None
        if not layout.complete:
            return self._reply(False, "refused", "Not every face-up card is named yet. "
                               + self._setup_status(), layout.instructions())
        broken = layout.requirement_problem()
        if broken:
            return self._reply(False, "refused", f"{broken}. Deal again and type the new "
                               "layout (correct each pile: t3: 9c), then `start`.")
        start = Position.from_json(layout.build(self.start).to_json())
        if self.log is not None:
            try:
                self.log.set_start(json.dumps(start.to_json()), PLAY)
            except StoreError as exc:
                return self._reply(False, "store-error", str(exc))
        self.start = start
        self.pos = start.copy()
        self.layout = None
        self.phase = PLAY
        self._settle()
        return self._reply(True, "start", "Play! Type a move (`help` lists what you can type).",
                           board=True)
