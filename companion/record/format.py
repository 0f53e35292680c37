"""The game record as plain text, shaped like PGN for chess.

A header block of ``[Name "value"]`` lines, a blank line, then the numbered moves, one move a
line, each followed by the reveals it caused (physical games)::

    [Variant "klondike"]
    [Options "draw=1"]
    [Seed "physical"]
    [DealVersion "1"]
    [Date "2026-05-09 20:31"]
    [Result "*"]
    [Start "{\\"variant\\": \\"klondike\\", ...}"]

    1. t4 t2 t4=js
    2. s w=9s
    3. w t4 {a comment}

Headers: ``Variant`` (key or alias), ``Options`` (``name=value`` pairs separated by commas, as
``companion variants VARIANT`` lists them; empty for the defaults), ``Seed`` (a number,
``physical`` for a deck the player shuffled, or ``PySolFC 123456`` for PySolFC's game 123456,
as ``companion play --pysol`` deals it), ``DealVersion``, ``Date`` (local time),
``Result`` (``won``, ``lost``, ``resigned``, or ``*`` while the game goes on), ``Name``
(optional), and ``Start`` (the starting position in its JSON form; required for a physical game,
whose layout the player typed in). Unknown headers are ignored. Values escape ``"`` and ``\\``
with a backslash.

Moves are in the engine's notation (card notation is accepted on import and stored canonical).
``{...}`` is a note, kept with the game (export writes the game's notes so, e.g. a dealing
error found in a seeded game, after the move it was found at; import reads each back as a note
after the moves before it); ``;`` to the end of the line is a comment, not kept. The writer is canonical; the reader
checks everything and replays every move through the rules engine: the first problem is a
:class:`~companion.record.RecordError` with its line number.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime

from ..errors import CompanionError, VariantError
from ..pysolfc import GAMES, number_problem, unsupported_text
from ..pysolfc import deal as pysol_deal
from ..rules import DEAL_VERSION, Position, Variant, find_variant, load_variant
from ..rules.deal import MAX_SEED as MAX_SEED_VALUE
from . import RecordError
from .store import local_time

MAX_RECORD_BYTES = 2_000_000
MAX_ENTRIES = 100_000
MAX_HEADER_VALUE = 200_000
RESULT_TOKENS = ("won", "lost", "resigned", "*")
HEADER_ORDER = ("Variant", "Options", "Seed", "DealVersion", "Date", "Result", "Name", "Start")

_HEADER = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^([0-9]{1,6})\.(.*)$")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


# ---------------------------------------------------------------------------------- writing

def write_record(headers: dict[str, str], entries: list[str],
                 comments: dict[int, list[str]] | None = None) -> str:
    """The canonical text. ``entries`` are canonical move and reveal texts in order;
    ``comments`` maps an entry count (comments after that many entries) to comment texts."""
    comments = comments or {}
    out = []
    for key in HEADER_ORDER:
        if key in headers and headers[key] is not None:
            out.append(f'[{key} "{_escape(str(headers[key]))}"]')
    for key, value in headers.items():
        if key not in HEADER_ORDER and value is not None:
            out.append(f'[{key} "{_escape(str(value))}"]')
    out.append("")
    line: list[str] = []
    number = 0

    def flush():
        if line:
            out.append(" ".join(line))
            line.clear()

    for k in sorted(c for c in comments if c == 0):
        line.extend("{" + _comment(t) + "}" for t in comments[k])
    for n, text in enumerate(entries, 1):
        if "=" in text:
            line.append(text)
        else:
            flush()
            number += 1
            line.append(f"{number}. {text}")
        for t in comments.get(n, ()):
            line.append("{" + _comment(t) + "}")
    flush()
    return "\n".join(out) + "\n"


def _comment(text: str) -> str:
    return text.replace("{", "(").replace("}", ")").replace("\n", " ")


def game_headers(row, variant) -> dict[str, str]:
    """Headers for a stored game (a :class:`~.store.GameRow`) of ``variant``."""
    identity = variant.identity
    headers = {
        "Variant": variant.key,
        "Options": identity.split(":", 1)[1] if ":" in identity else "",
        "Seed": row.deal_text,
        "DealVersion": str(row.deal_version or DEAL_VERSION),
        "Date": local_time(row.started_at),
        "Result": row.result or "*",
    }
    if row.name:
        headers["Name"] = row.name
    if row.physical and row.start:
        headers["Start"] = json.dumps(json.loads(row.start), sort_keys=True,
                                      separators=(",", ":"))
    return headers


# ---------------------------------------------------------------------------------- reading

@dataclass
class Record:
    headers: dict[str, str] = field(default_factory=dict)
    header_lines: dict[str, int] = field(default_factory=dict)
    entries: list[tuple[str, int]] = field(default_factory=list)
    """(move or reveal text as written, line number)."""
    comments: list[tuple[int, str]] = field(default_factory=list)
    """(entries before it, text) of each ``{...}`` comment: the game's notes."""


def parse_record(text: str) -> Record:
    """The headers and move texts of a record; RecordError (with a line) for bad syntax."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is {len(text)} characters long; a game record is at "
                          f"most {MAX_RECORD_BYTES}")
    rec = Record()
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    in_headers = True
    expected = 1
    after_number = False
    move_tokens: list[str] = []
    move_line = 0

    def finish_move():
        nonlocal after_number
        if after_number:
            if not move_tokens:
                raise RecordError(f"move {expected - 1} has no move after its number",
                                  move_line)
            if len(move_tokens) > 2:
                raise RecordError(f"move {expected - 1} ({' '.join(move_tokens)}) is more than "
                                  f"one move; write one move after each number", move_line)
            rec.entries.append((" ".join(move_tokens), move_line))
            move_tokens.clear()
            after_number = False

    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("\ufeff"):
            line = line[1:]
        if in_headers:
            if not line:
                continue
            if line.startswith("["):
                _read_header(rec, line, n)
                continue
            in_headers = False
        for tok in _tokens(line, n):
            if isinstance(tok, tuple):   # a {comment}: a note after the entries so far
                text = tok[1].strip()
                if text:
                    rec.comments.append((len(rec.entries) + (1 if move_tokens else 0), text))
                continue
            m = _NUMBER.match(tok)
            if m:
                finish_move()
                number = int(m.group(1))
                if number != expected:
                    raise RecordError(f"move number {expected} expected here, not {number}", n)
                expected += 1
                after_number = True
                move_line = n
                tok = m.group(2)
                if not tok:
                    continue
            if "=" in tok:
                if after_number:
                    if not move_tokens:
                        raise RecordError(f"move {expected - 1} starts with the reveal {tok}; "
                                          f"write the move first", n)
                    finish_move()
                rec.entries.append((tok, n))
            else:
                if not after_number:
                    raise RecordError(f"{tok!r} is not numbered: write moves as "
                                      f"'{expected}. t3 t5'", n)
                move_tokens.append(tok)
            if len(rec.entries) > MAX_ENTRIES:
                raise RecordError(f"more than {MAX_ENTRIES} moves", n)
    finish_move()
    if not rec.headers:
        raise RecordError('no header block: a record starts with [Variant "..."] and '
                          '[Seed "..."] lines', 1)
    return rec


def _read_header(rec: Record, line: str, n: int) -> None:
    """One ``[Name "value"]`` line into ``rec``."""
    m = _HEADER.match(line)
    if not m:
        raise RecordError(f'a header is written [Name "value"], not {line[:60]!r}', n)
    key, value = m.group(1), _unescape(m.group(2))
    if len(value) > MAX_HEADER_VALUE:
        raise RecordError(f"the {key} header is too long", n)
    if key in rec.headers:
        raise RecordError(f"the {key} header appears twice", n)
    rec.headers[key] = value
    rec.header_lines[key] = n


def _tokens(line: str, n: int) -> list:
    """The words of a move line, in order, each ``{comment}`` as ``("comment", text)``;
    ``;`` ends the line (a comment that is not kept)."""
    out: list = []
    word: list[str] = []
    comment: list[str] | None = None

    def flush():
        if word:
            out.append("".join(word))
            word.clear()

    for ch in line:
        if comment is not None:
            if ch == "}":
                out.append(("comment", "".join(comment)))
                comment = None
            else:
                comment.append(ch)
            continue
        if ch == "{":
            flush()
            comment = []
        elif ch == ";":
            break
        elif ch.isspace():
            flush()
        else:
            word.append(ch)
    if comment is not None:
        raise RecordError("a comment opened with { is not closed on its line", n)
    flush()
    return out


@dataclass
class Imported:
    """A record checked by replay, ready for :meth:`~.store.Store.import_game`."""

    variant: str
    options: dict
    seed: int | None
    deal_version: int
    name: str | None
    start: str | None
    """The start position's JSON for a game that is not seeded (a physical deal, or a PySolFC
    game with its number): what the store keeps."""
    started_at: str | None
    entries: list[tuple[str, bool]]
    result: str | None
    termination: str | None
    score: int | None
    position: object = None
    notes: list[tuple[int, str, str]] = field(default_factory=list)
    """(entries before it, kind, text): the record's ``{...}`` comments, kept as the game's
    notes (``dealing-error`` for a dealing error the recorder noted, else ``comment``)."""
    pysol: int | None = None
    """The PySolFC game number of a game dealt by one (``[Seed "PySolFC 123456"]``)."""


def read_record(text: str) -> Imported:
    """Parse and validate a record: every header checked, every move replayed by the engine."""

    rec = parse_record(text)
    h, where = rec.headers, rec.header_lines
    variant = _read_variant(h, where)
    seed, pysol = _read_seed(h, where, variant)
    started_at, result, name = _read_details(h, where)
    start, start_json = _read_start(h, where, variant, seed, pysol)
    pos, entries = _replay(rec, start)
    result, termination, score = _settle_result(pos, result, where)
    return Imported(variant=variant.key, options=variant.changed_options(), seed=seed,
                    deal_version=DEAL_VERSION, name=name, start=start_json,
                    started_at=started_at, entries=entries,
                    result=None if result == "*" else result, termination=termination,
                    score=score, position=pos,
                    notes=[(ply, note_kind(text), text) for ply, text in rec.comments],
                    pysol=pysol)


def _need(h: dict[str, str], key: str) -> str:
    """A required header's value, stripped; RecordError (line 1) when it is missing."""
    if key not in h:
        raise RecordError(f"the record has no {key} header (e.g. "
                          + {"Variant": '[Variant "klondike"]',
                             "Seed": '[Seed "7"], [Seed "PySolFC 123456"] or '
                                     '[Seed "physical"]'}.get(key, key)
                          + ")", 1)
    return h[key].strip()


def _read_variant(h: dict[str, str], where: dict[str, int]) -> Variant:
    """The Variant and Options headers, as the variant they name."""
    try:
        key = find_variant(_need(h, "Variant"))
    except VariantError as exc:
        raise RecordError(str(exc), where.get("Variant")) from None
    options: dict[str, str] = {}
    for part in (h.get("Options") or "").split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise RecordError(f"Options are written name=value, separated by commas, not "
                              f"{part.strip()!r}", where.get("Options"))
        options[name.strip()] = value.strip()
    try:
        return load_variant(key, options)
    except VariantError as exc:
        raise RecordError(str(exc), where.get("Options")) from None


def _read_seed(h: dict[str, str], where: dict[str, int],
               variant: Variant) -> tuple[int | None, int | None]:
    """The Seed header: (seed, PySolFC game number), each None where it does not apply."""
    seed_text = _need(h, "Seed").lower()
    if seed_text == "physical":
        return None, None
    if seed_text.startswith("pysolfc"):
        number = seed_text.removeprefix("pysolfc").strip()
        pysol = int(number) if number.isascii() and number.isdigit() and len(number) <= 40 \
            else -1
        problem = (number_problem(pysol) if pysol >= 0 else
                   f"{number!r} is not a PySolFC game number (write e.g. PySolFC 123456)")
        if problem is None and variant.key not in GAMES:
            problem = unsupported_text(variant.key)
        if problem:
            raise RecordError(f"Seed: {problem}", where.get("Seed"))
        return None, pysol
    try:
        seed = int(seed_text)
    except ValueError:
        seed = -1
    if not 0 <= seed <= MAX_SEED_VALUE:
        raise RecordError(f"Seed is a whole number from 0 to {MAX_SEED_VALUE}, PySolFC "
                          f"then a PySolFC game number (PySolFC 123456), or physical; "
                          f"not {h['Seed']!r}", where.get("Seed"))
    return seed, None


def _read_details(h: dict[str, str],
                  where: dict[str, int]) -> tuple[str | None, str, str | None]:
    """The DealVersion (checked), Date, Result and Name headers: (started_at, result, name)."""
    dv_text = h.get("DealVersion", str(DEAL_VERSION)).strip()
    if dv_text != str(DEAL_VERSION):
        raise RecordError(f"this record was dealt by deal version {dv_text}; this companion "
                          f"deals version {DEAL_VERSION}, so its seeded deals differ",
                          where.get("DealVersion"))
    started_at = None
    if h.get("Date", "").strip():
        started_at = _parse_date(h["Date"].strip(), where.get("Date"))
    result = (h.get("Result") or "*").strip().lower()
    if result not in RESULTS_ALL:
        raise RecordError(f"Result is one of won, lost, resigned or * (in progress), not "
                          f"{h['Result']!r}", where.get("Result"))
    name = (h.get("Name") or "").strip() or None
    if name is not None and len(name) > 200:
        raise RecordError("the Name header is longer than 200 characters", where.get("Name"))
    return started_at, result, name


def _read_start(h: dict[str, str], where: dict[str, int], variant: Variant, seed: int | None,
                pysol: int | None) -> tuple[Position, str | None]:
    """The start position and the JSON the store keeps of it (None for a seeded deal)."""
    start_json = None
    if pysol is not None:
        start = pysol_deal(variant, pysol)
        start_json = json.dumps(start.to_json())
    if seed is None and pysol is None:
        start = _physical_start(h, where, variant)
        return start, json.dumps(start.to_json())
    if pysol is None:
        start = Position.deal(variant, seed)
    if "Start" in h:
        _check_dealt_start(h["Start"], where["Start"], start)
    return start, start_json


def _physical_start(h: dict[str, str], where: dict[str, int], variant: Variant) -> Position:
    """The Start header of a physical game, checked against the headers and the rules."""
    if "Start" not in h:
        raise RecordError("a physical game needs its Start header: the layout as the "
                          "player typed it, in the JSON position form", 1)
    try:
        data = json.loads(h["Start"])
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"the Start header is not JSON: {exc}", where["Start"]) from None
    try:
        start = Position.from_json(data)
    except (CompanionError, ValueError, RecursionError) as exc:
        raise RecordError(f"the Start position is not valid: {exc}",
                          where["Start"]) from None
    if start.variant.key != variant.key or start.variant.options != variant.options:
        raise RecordError(f"the Start position is a {start.variant.identity} game, but the "
                          f"headers say {variant.identity}", where["Start"])
    if not start.is_valid():
        flags = ", ".join(f.name.lower().replace("_", " ") for f in type(start.status())
                          if f and f in start.status())
        raise RecordError(f"the Start position is not a possible layout ({flags})",
                          where["Start"])
    start.seed = start.pysol = None
    return start


def _check_dealt_start(text: str, line: int, start: Position) -> None:
    """A dealt game's optional Start header must be its deal."""
    try:
        given = Position.from_json(json.loads(text))
    except (ValueError, RecursionError, CompanionError) as exc:
        raise RecordError(f"the Start header is not a valid position: {exc}",
                          line) from None
    if given.key() != start.key():
        raise RecordError(f"the Start position is not the deal of {start.deal_name}", line)


def _replay(rec: Record, start: Position) -> tuple[Position, list[tuple[str, bool]]]:
    """Every entry played from ``start``: the position reached and (move, is reveal) each."""
    pos = start.copy()
    entries: list[tuple[str, bool]] = []
    number = 0
    for text, line in rec.entries:
        if "=" not in text:
            number += 1
        if start.known_deal and "=" in text:
            raise RecordError(f"{text}: a seeded game has no reveals (every card is known)",
                              line)
        waiting = pos.pending_reveals() if "=" not in text else []
        if waiting:
            raise _unnamed_reveal(pos, waiting, number, text, line)
        try:
            move = pos.play(text)
        except CompanionError as exc:
            what = f"move {number}" if "=" not in text else "reveal"
            reason = getattr(exc, "reason", None) or str(exc)
            raise RecordError(f"{what} ({text}) does not replay: {reason}", line) from None
        entries.append((str(move), move.is_reveal))
    return pos, entries


def _unnamed_reveal(pos: Position, waiting: list, number: int, text: str,
                    line: int) -> RecordError:
    """The error for a move played before the cards it waits on are named."""
    # as `companion play` does: no move before the cards that turned up are named
    names = pos.engine.names
    piles = list(dict.fromkeys(names[i] for i, _ in waiting))
    return RecordError(f"move {number} ({text}) is played while the card"
                       f"{'s' if len(waiting) > 1 else ''} turned up on "
                       f"{', '.join(piles)} {'are' if len(waiting) > 1 else 'is'} not "
                       f"named: write the reveal ({piles[0]}=9c, the card seen) after "
                       f"the move that turned it up", line)


def _settle_result(pos: Position, result: str,
                   where: dict[str, int]) -> tuple[str, str | None, int | None]:
    """The Result header checked against the replayed game: (result, termination, score)."""
    outcome = None if pos.pending_reveals() else pos.outcome()
    termination = score = None
    if result in ("won", "lost"):
        if outcome is None or outcome.result() != result:
            now = "the game goes on" if outcome is None else f"the game is {outcome.result()}"
            raise RecordError(f"Result says {result}, but after its moves {now}",
                              where.get("Result"))
    elif result == "resigned" and outcome is not None:
        raise RecordError(f"Result says resigned, but the game is {outcome.result()} already",
                          where.get("Result"))
    if outcome is not None:
        result = outcome.result()
    if result in ("won", "lost") and outcome is not None:
        termination, score = outcome.termination.value, outcome.score
    return result, termination, score


def note_kind(text: str) -> str:
    """The kind of a note read back from a ``{comment}``: the recorder's dealing-error notes
    start "Dealing error"; anything else is a comment."""
    return "dealing-error" if text.startswith("Dealing error") else "comment"


RESULTS_ALL = RESULT_TOKENS


def _parse_date(text: str, line: int | None) -> str:
    from datetime import UTC
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%Y.%m.%d"):
        try:
            t = datetime.strptime(text, fmt)
            break
        except ValueError:
            continue
    else:
        try:
            t = datetime.fromisoformat(text)
        except ValueError:
            raise RecordError(f"Date is written 2026-05-09 20:31, not {text!r}", line) from None
    if t.tzinfo is None:
        t = t.astimezone()  # a local time, as written by export
    return t.astimezone(UTC).isoformat(timespec="seconds")
