"""The help text: the variant's move forms, short forms and examples, and what can be typed
in each phase."""

from __future__ import annotations

import difflib
import re

from ...rules.describe import notation


class HelpText:
    """What `help` says, and the examples other replies quote."""

    def _setup_help(self) -> list[str]:
        return [
            "Name the face-up cards of your layout, pile by pile, bottom to top.",
            "  9c 8h        cards for the pile the prompt names",
            "  ah kd 2s ... a row: one card for each pile from the prompt's pile on",
            "  t3: 9c 8h    enter or correct the pile t3",
            *(["  f: ah as     the aces that went up to the foundations while dealing"]
              if self.layout is not None and self.layout.optional else []),
            "  show         the layout so far     undo   take back the last line",
            "  start        begin play (when every card is named)     quit   leave (kept)",
            "  scan P       enter the piles read from photo P (scan cam0: webcam 0)",
            "Face-down cards stay ?? until they turn up; you will be asked for them then.",
        ]

    def _help(self) -> list[str]:
        forms = self._notation()
        width = max((len(ex) for ex, _ in forms), default=0)
        out = [f"Moves in {self.start.variant.name}:"]
        out += [f"  {ex.ljust(width)}  {what}" for ex, what in forms]
        short = self._short_form()
        if short:
            out.append(f"  Short form: {short}.")
        out.append("Several moves on one line are played in turn when separated by commas "
                   "(" + ", ".join(ex.split(",")[0] for ex, _ in forms[:2]) + ").")
        out.append("Commands: undo (u), redo, moves (?), show, hint, help, resign, quit (the "
                   "game is kept).")
        if not self.seeded_game:
            out.append("  scan P: name a card that turned up from photo P (scan cam0: webcam 0).")
        if self.seeded_game:
            out.append("Turned-up cards: the recorder says which card should appear; if yours "
                       "differs, type PILE=CARD (what you see, e.g. "
                       f"{self._reveal_example()}) to report a dealing error.")
        else:
            out.append("Turned-up cards: when a card turns up you are asked for it: type it "
                       "(9c); several on the waste go bottom to top (9s 8d 7c).")
            out.append("A card named wrongly (turned up, or in the layout): fix PILE WRONG "
                       "CARD, e.g. fix t5 8s 8c, puts the card really there; every move since "
                       "is replayed with it (fix t5 8c alone where t5 shows one card).")
        return out

    def _notation(self) -> list[tuple[str, str]]:
        """The variant's own move forms with what each does (the rules engine's list), the
        reveal form left out (the recorder asks for turned-up cards itself)."""
        try:
            forms = notation(self.start.variant)
        except Exception:  # a new variant the wording does not know yet
            return []
        return [(ex, what) for ex, what in forms if "=" not in ex]

    def _notation_all(self) -> list[tuple[str, str]]:
        try:
            return notation(self.start.variant)
        except Exception:
            return []

    def _short_form(self) -> str:
        """``3 5 for t3 t5``: the short form of the variant's first move between two piles."""
        if not self.short_prefix:
            return ""
        pat = re.compile(rf"^{self.short_prefix}([0-9]+)$")
        for ex, _ in self._notation():
            toks = ex.split(",")[0].split()
            if len(toks) == 2 and all(pat.match(t) for t in toks):
                return " ".join(t[len(self.short_prefix):] for t in toks) + f" for {ex}"
        return ""

    def _examples(self) -> str:
        """A few moves in the variant's own notation: ``p22 p28, s or 6d 7c``."""
        forms = [ex.split(",")[0] for ex, _ in self._notation()][:3]
        if not forms:
            return "`moves` lists them"
        return ", ".join(forms[:-1]) + (" or " if len(forms) > 1 else "") + forms[-1]

    def _reveal_example(self) -> str:
        """``t3=9c`` with one of the variant's piles."""
        for ex, _ in self._notation_all():
            if "=" in ex:
                return ex
        return f"{self.engine.names[0]}=9c"

    def _reveal_help(self, line: str) -> str:
        """What can be typed while a card waits to be named (never a move)."""
        close = difflib.get_close_matches(line.lower(), ["undo", "show", "help", "quit"],
                                          n=2, cutoff=0.6)
        if close:
            return "Did you mean: " + ", ".join(close) + "?"
        return ("Type the card as you see it (9c, 10h, qs); `undo` takes back the move that "
                "turned it up, `show` draws the layout, `quit` leaves (the game is kept).")
