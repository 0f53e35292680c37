"""Setup sheets read back: the PDF's own text lists every pile and the deck, and they deal.

The text is read with pypdf in the order the PDF draws it (its contract is in the docstring of
companion/render/pdf.py): on a setup page, after "Layout", each pile's name then its cards
bottom first (only the top card of a squared pile); after "Squared piles", each such pile's name
then all its cards; after "Stack the deck", the deck top card first.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess

import pytest

from companion.cards import Card
from companion.render.pdf import (
    SheetError,
    atomic_write,
    deal_lines,
    default_paper,
    notation_rows,
    qr_text,
    render_sheets,
    write_sheets,
)
from companion.rules import DEAL_VERSION, deal, deck_order, load_variant, variant_keys
from companion.rules.deal import lay_out

pypdf = pytest.importorskip("pypdf", reason="pypdf is a test dependency: pip install -e '.[test]'")

CARD_RE = re.compile(r"^(10|[2-9AJQK])[♠♥♦♣]$")
PDFTOPPM = shutil.which("pdftoppm")
needs_pdftoppm = pytest.mark.skipif(
    PDFTOPPM is None, reason="pdftoppm (Debian/Ubuntu: apt-get install poppler-utils) is not "
                             "installed, so pages cannot be rendered to images")
DATE = "2026-01-02"


def fragments(page) -> list[str]:
    out: list[str] = []
    page.extract_text(visitor_text=lambda text, *_: out.append(text.strip()))
    return [t for t in out if t]


def read_setup_page(frags: list[str], pile_names) -> dict:
    """The setup page's text as: diagram pile -> cards, squared pile -> cards, deck order."""
    section = None
    diagram: dict[str, list[int]] = {}
    listed: dict[str, list[int]] = {}
    deck: list[int] = []
    current = None
    for text in frags:
        if text in ("Layout", "Squared piles", "Stack the deck"):
            section, current = text, None
            continue
        if section is None:
            continue
        if section != "Stack the deck" and text in pile_names:
            current = text
            (diagram if section == "Layout" else listed).setdefault(current, [])
            continue
        if not CARD_RE.match(text):
            continue
        code = Card.parse(text).code
        if section == "Stack the deck":
            deck.append(code)
        elif current is not None:
            (diagram if section == "Layout" else listed)[current].append(code)
    return {"diagram": diagram, "listed": listed, "deck": deck}


@pytest.fixture(scope="module")
def every_variant():
    """One setup page for every variant, seed 1 (and Accordion dealt all out, seed 2)."""
    positions = [deal(k, 1) for k in variant_keys()]
    positions.append(deal("accordion", 2, {"deal": "all"}))
    data = render_sheets(positions, date=DATE, play_page=False)
    reader = pypdf.PdfReader(io.BytesIO(data))
    pages = [(frags, "\n".join(frags)) for frags in map(fragments, reader.pages)]
    return positions, data, pages


def test_every_pile_and_card_is_on_the_sheet(every_variant):
    positions, _, pages = every_variant
    assert len(pages) == len(positions)
    for pos, (frags, _) in zip(positions, pages, strict=True):
        names = pos.engine.names
        got = read_setup_page(frags, set(names))
        key = pos.variant.identity
        for i, name in enumerate(names):
            cards = list(pos.piles[i])
            if name in got["listed"]:
                assert got["listed"][name] == cards, (key, name)
                assert got["diagram"].get(name) == cards[-1:], (key, name)
            elif cards:
                assert got["diagram"].get(name) == cards, (key, name)
        # every dealt pile is named on the diagram, or listed under "Squared piles"
        dealt = {n for i, n in enumerate(names) if pos.piles[i]}
        assert dealt <= set(got["diagram"]) | set(got["listed"]), key


def layout_caption(frags: list[str], pile_names) -> str:
    """The caption beside the "Layout" heading: its lines up to the diagram's first pile."""
    start = frags.index("Layout") + 1
    end = next(k for k in range(start, len(frags)) if frags[k] in pile_names)
    return " ".join(frags[start:end])


def caption_piles(caption: str) -> set[str]:
    """The pile names a layout caption lists: ``t1-t7`` is seven, ``rows a1-a13 to d1-d13``
    fifty-two, a lone ``s`` one."""
    listed = caption.split(":", 1)[1].split(";")[0]
    ranges = re.compile(r"\b([a-z])(\d+)-\1(\d+)(?: to ([a-z])\d+-\4\d+)?")
    out: set[str] = set()
    for m in ranges.finditer(listed):
        for row in range(ord(m[1]), ord(m[4] or m[1]) + 1):
            out |= {f"{chr(row)}{i}" for i in range(int(m[2]), int(m[3]) + 1)}
    return out | set(re.findall(r"\b[a-z]\d*\b", ranges.sub("", listed)))


def test_layout_caption_names_this_variants_piles(every_variant):
    positions, _, pages = every_variant
    for pos, (frags, _) in zip(positions, pages, strict=True):
        names = pos.engine.names
        caption = layout_caption(frags, set(names))
        key = pos.variant.identity
        # exactly the piles the player types, no other variant's
        assert caption_piles(caption) == set(names), (key, caption)
        # backs are mentioned only where the deal has face-down cards
        assert ("face-down" in caption) == any(pos.down), (key, caption)


@pytest.mark.parametrize("key, shown, not_shown", [
    ("gaps", ["rows a1-a13 to d1-d13", "aces put aside x"], ["t1", "f1", "face-down"]),
    ("pyramid", ["pyramid p1-p28", "stock s", "waste w", "discard pile f", "face-down"],
     ["t1", "f1"]),
    ("klondike", ["tableau t1-t7", "foundations f1-f4", "stock s", "waste w", "face-down"],
     []),
    ("streets-and-alleys", ["tableau t1-t8", "foundations f1-f4"],
     ["stock", "waste", "face-down"]),
])
def test_layout_caption_of_one_variant(key, shown, not_shown):
    pos = deal(key, 1)
    reader = pypdf.PdfReader(io.BytesIO(render_sheets([pos], date=DATE, play_page=False)))
    caption = layout_caption(fragments(reader.pages[0]), set(pos.engine.names))
    for text in shown:
        assert text in caption, caption
    for text in not_shown:
        assert not re.search(rf"\b{text}\b", caption), caption


def test_stacking_order_is_printed_and_deals_the_layout(every_variant):
    positions, _, pages = every_variant
    for pos, (frags, _) in zip(positions, pages, strict=True):
        v = pos.variant
        got = read_setup_page(frags, set(pos.engine.names))
        assert got["deck"] == deck_order(v, pos.seed), v.identity
        piles, down = lay_out(v, got["deck"])
        assert [tuple(p) for p in piles] == list(pos.piles), v.identity
        assert list(down) == list(pos.down), v.identity


def test_header_names_the_deal(every_variant):
    positions, _, pages = every_variant
    for pos, (_, text) in zip(positions, pages, strict=True):
        assert pos.variant.name in text and f"seed {pos.seed}" in text
        assert f"deal version {DEAL_VERSION}" in text and f"printed {DATE}" in text
        assert qr_text(pos) in text


def test_sheets_stay_small(every_variant):
    positions, data, pages = every_variant
    assert len(data) / len(pages) <= 100 * 1024


def test_output_is_deterministic():
    positions = [deal("spider", 3), deal("pyramid", 4)]
    assert render_sheets(positions, date=DATE) == render_sheets(positions, date=DATE)
    assert render_sheets(positions, date=DATE) != render_sheets(positions, date="2026-01-03")


def test_play_page_has_rules_notation_and_log():
    pos = deal("klondike", 5, {"draw": 1})
    reader = pypdf.PdfReader(io.BytesIO(render_sheets([pos], date=DATE)))
    assert len(reader.pages) == 2
    text = " ".join(fragments(reader.pages[1]))
    for line in pos.variant.describe():
        assert line.split(" ")[0] in text
    words = re.sub(r"\s+", " ", reader.pages[1].extract_text())
    for sentence in pos.variant.describe():
        # wrapped across lines, but every word is there in order
        assert all(w in words for w in sentence.split()[:6])
    for notation, _ in notation_rows(pos.variant):
        assert notation in text
    numbers = [t for t in fragments(reader.pages[1]) if t.isdigit()]
    assert numbers[:3] == ["1", "2", "3"] and len(numbers) >= 80


def test_qr_text_names_variant_seed_options_and_version():
    assert qr_text(deal("klondike", 42)) == f"companion:klondike:42::{DEAL_VERSION}"
    assert qr_text(deal("klondike", 42, {"draw": 1, "passes": 3})) == \
        f"companion:klondike:42:draw=1,passes=3:{DEAL_VERSION}"


def test_physical_deal_is_refused():
    with pytest.raises(SheetError, match="seeded"):
        render_sheets([deal("klondike")])


@pytest.mark.parametrize("env, paper", [
    ({"LANG": "en_US.UTF-8"}, "letter"),
    ({"LANG": "fr_CA.UTF-8"}, "letter"),
    ({"LANG": "de_DE.UTF-8"}, "a4"),
    ({"LANG": "C.UTF-8"}, "a4"),
    ({}, "a4"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "en_US.UTF-8"}, "a4"),
    ({"LC_PAPER": "es_MX.UTF-8", "LANG": "de_DE.UTF-8"}, "letter"),
    ({"PAPERSIZE": "letter", "LANG": "de_DE.UTF-8"}, "letter"),
])
def test_default_paper_follows_the_locale(env, paper):
    assert default_paper(env) == paper


def test_paper_sizes():
    pos = deal("golf", 1)
    for paper, (w, h) in (("a4", (595, 842)), ("letter", (612, 792))):
        box = pypdf.PdfReader(io.BytesIO(render_sheets([pos], paper=paper, date=DATE))) \
            .pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == (w, h)


@pytest.mark.parametrize("key", variant_keys())
def test_every_variant_says_how_to_deal(key):
    assert deal_lines(load_variant(key))


# -- writing -----------------------------------------------------------------------------------

def test_write_is_atomic(tmp_path, monkeypatch):
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"%PDF old")

    def broken(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(SheetError, match="No space left"):
        write_sheets(target, [deal("klondike", 1)], date=DATE)
    assert target.read_bytes() == b"%PDF old"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]


def test_failed_render_writes_nothing(tmp_path):
    target = tmp_path / "sheet.pdf"
    with pytest.raises(SheetError):
        write_sheets(target, [deal("klondike")])
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(not hasattr(os, "umask") or os.name != "posix", reason="POSIX modes")
def test_written_file_gets_the_usual_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write(tmp_path / "new.pdf", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "new.pdf").stat().st_mode & 0o777 == 0o644
    (tmp_path / "kept.pdf").write_bytes(b"%PDF old")
    (tmp_path / "kept.pdf").chmod(0o640)
    atomic_write(tmp_path / "kept.pdf", b"new")
    assert (tmp_path / "kept.pdf").stat().st_mode & 0o777 == 0o640


def test_write_replaces_the_file_whole(tmp_path):
    target = tmp_path / "sheet.pdf"
    target.write_bytes(b"%PDF-1.4 an older sheet")
    written = write_sheets(target, [deal("klondike", 1)], date=DATE)
    assert target.read_bytes().startswith(b"%PDF") and written.size == target.stat().st_size
    assert written.pages == 2
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.pdf"]


def test_a_link_is_written_through_and_stays_a_link(tmp_path):
    (tmp_path / "real.pdf").write_bytes(b"%PDF old")
    (tmp_path / "link.pdf").symlink_to("real.pdf")
    (tmp_path / "new-link.pdf").symlink_to("made.pdf")  # a link to a file not made yet
    atomic_write(tmp_path / "link.pdf", b"%PDF new")
    atomic_write(tmp_path / "new-link.pdf", b"%PDF made")
    assert (tmp_path / "link.pdf").is_symlink() and (tmp_path / "new-link.pdf").is_symlink()
    assert (tmp_path / "real.pdf").read_bytes() == b"%PDF new"
    assert (tmp_path / "made.pdf").read_bytes() == b"%PDF made"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.pdf", "made.pdf",
                                                          "new-link.pdf", "real.pdf"]


def test_a_file_that_is_not_a_pdf_is_left_alone(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    (tmp_path / "link.pdf").symlink_to("notes.txt")
    for path in (notes, tmp_path / "link.pdf"):
        with pytest.raises(SheetError, match=r"is not a PDF.*--force"):
            atomic_write(path, b"%PDF new")
    assert notes.read_text() == "my notes\n"
    (tmp_path / "empty.pdf").write_bytes(b"")  # nothing to lose
    atomic_write(tmp_path / "empty.pdf", b"%PDF new")
    atomic_write(notes, b"%PDF new", force=True)
    assert notes.read_bytes() == b"%PDF new"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_is_written_in_place(tmp_path):
    import threading
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    atomic_write(fifo, b"%PDF through a pipe")
    reader.join(10)
    assert got == [b"%PDF through a pipe"]
    assert fifo.is_fifo()  # not replaced by a file


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_says_so_and_stays_a_device():
    import stat
    with pytest.raises(SheetError, match="No space left on device"):
        atomic_write("/dev/full", b"%PDF" + b"x" * 100_000)
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_unwritable_paths_say_why(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(SheetError, match="no folder"):
        atomic_write(tmp_path / "missing" / "a.pdf", b"x")
    with pytest.raises(SheetError, match="no folder"):
        atomic_write(tmp_path / "file" / "a.pdf", b"x")
    with pytest.raises(SheetError, match="is a folder"):
        atomic_write(tmp_path, b"x")


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True,
                    reason="root may write into a read-only folder")
def test_read_only_folder(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(SheetError, match="cannot write"):
            atomic_write(folder / "a.pdf", b"x")
    finally:
        folder.chmod(0o700)


# -- pictures ----------------------------------------------------------------------------------

def _render_png(data: bytes, tmp_path, dpi: int, page: int = 1):
    import cv2
    pdf = tmp_path / "in.pdf"
    pdf.write_bytes(data)
    subprocess.run([PDFTOPPM, "-png", "-r", str(dpi), "-f", str(page), "-l", str(page),
                    "-singlefile", str(pdf), str(tmp_path / "out")], check=True,
                   capture_output=True, timeout=60)
    image = cv2.imread(str(tmp_path / "out.png"))
    assert image is not None
    return image


@needs_pdftoppm
def test_every_page_renders(every_variant, tmp_path):
    _, data, pages = every_variant
    pdf = tmp_path / "all.pdf"
    pdf.write_bytes(data)
    subprocess.run([PDFTOPPM, "-png", "-r", "20", str(pdf), str(tmp_path / "p")], check=True,
                   capture_output=True, timeout=120)
    pngs = sorted(tmp_path.glob("p-*.png"))
    assert len(pngs) == len(pages)
    import cv2
    for png in pngs:
        image = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
        assert image is not None and image.min() < 60  # something dark was drawn


@needs_pdftoppm
@pytest.mark.parametrize("pos", [deal("klondike", 42), deal("klondike", 7, {"draw": 1}),
                                 deal("gaps", 3, {"redeals": 0})], ids=str)
def test_qr_code_decodes(pos, tmp_path):
    import cv2
    data = render_sheets([pos], date=DATE, play_page=False)
    texts = []
    # OpenCV's detector misses some codes at one particular scale: read it as a phone would,
    # at a few resolutions, and require what it reads to be exactly the game's identity.
    for dpi in (150, 200, 300):
        (tmp_path / str(dpi)).mkdir()
        image = _render_png(data, tmp_path / str(dpi), dpi)
        h, w = image.shape[:2]
        corner = image[: h // 6, w // 2:]  # the QR code sits top right
        text, _, _ = cv2.QRCodeDetector().detectAndDecode(corner)
        if text:
            texts.append(text)
    assert texts and set(texts) == {qr_text(pos)}


@needs_pdftoppm
def test_red_suits_are_red_unless_mono(tmp_path):
    pos = deal("klondike", 1)  # hearts and diamonds face up on the layout

    def red_pixels(mono: bool) -> int:
        image = _render_png(render_sheets([pos], date=DATE, mono=mono, play_page=False),
                            tmp_path, 40).astype(int)
        b, g, r = image[..., 0], image[..., 1], image[..., 2]
        return int(((r > 150) & (g < 90) & (b < 90)).sum())

    assert red_pixels(False) > 50
    assert red_pixels(True) == 0


# -- fitting -----------------------------------------------------------------------------------

DENSE = dict(draw=1, passes=3, foundation_return=True, face_up_block_only=True)


def test_the_qr_caption_wraps_to_the_code():
    from companion.render.pdf import _caption_lines, _Pen, _qr_size, _register_fonts
    _register_fonts()
    pen = _Pen(None, 0.0, None, set())
    text = qr_text(deal("klondike", 4294967295, DENSE))
    size = _qr_size(text)
    lines = _caption_lines(pen, text, 5.0, size + 8)
    assert "".join(lines) == text and len(lines) > 1
    assert all(pen.width(line, 5.0) <= size + 8 for line in lines)


def test_a_ten_in_a_tight_fan_keeps_the_height_of_its_neighbours():
    # House in the Wood: a covered card shows a strip half a card wide; 10♠ there used to
    # be set at about half the size of Q♠ beside it. It is condensed instead.
    from companion.render.pdf import _fit_index, _Pen, _register_fonts
    _register_fonts()
    pen = _Pen(None, 0.0, None, set())
    s = 30.0
    ten, condense = _fit_index(pen, "10♠", 0.27 * s, 0.4 * s)
    queen, _ = _fit_index(pen, "Q♠", 0.27 * s, 0.4 * s)
    assert ten == queen and condense < 1.0
    assert pen.width("10♠", ten) * condense <= 0.4 * s + 1e-9


@needs_pdftoppm
def test_a_dense_qr_code_scans_at_150_dpi(tmp_path):
    # the longest identity (every Klondike option changed, the biggest seed), read the way
    # `companion scan` reads a photo of the sheet
    pytest.importorskip("cv2")
    import cv2

    from companion.vision.qr import find_sheet_code
    pos = deal("klondike", 4294967295, DENSE)
    image = _render_png(render_sheets([pos], date=DATE, play_page=False), tmp_path, 150)
    code = find_sheet_code(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
    assert code is not None and code.text == qr_text(pos)
