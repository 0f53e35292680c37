"""The committed printable assets: a sample booklet and the play mat with ArUco markers.

``companion printables [DIR]`` calls :func:`build`. Everything is deterministic (reportlab's
invariant mode; the only date is the one printed on the sheets, ``SOURCE_DATE_EPOCH`` when set),
so ``tests/render/test_printables.py`` can check the committed files against the code.

The play mat: four ArUco markers from OpenCV's ``DICT_4X4_50`` dictionary, ids 0 (top left),
1 (top right), 2 (bottom right) and 3 (bottom left), each :data:`MARKER_MM` square, at the
corners of a :data:`FRAME_MM` rectangle centred on the page; the same geometry on A4 and
Letter. The markers are drawn as vector squares from the marker bits, so the PDF stays sharp.
The photo reader (``companion/vision``) can import these constants.
"""

from __future__ import annotations

from pathlib import Path

from ..rules import deal, variant_keys
from .pdf import (
    FONT,
    PAPERS,
    Written,
    _register_fonts,
    atomic_write,
    creator,
    render_sheets,
    today,
)

DICTIONARY = "DICT_4X4_50"
MARKER_IDS = (0, 1, 2, 3)
"""Top left, top right, bottom right, bottom left (clockwise from the top left)."""
MARKER_MM = 30.0
"""Side of a marker, black border included."""
FRAME_MM = (180.0, 250.0)
"""Width and height of the rectangle whose corners are the markers' outer corners."""
MM = 72 / 25.4

BOOKLET = "sample-booklet.pdf"
MATS = {"a4": "play-mat-a4.pdf", "letter": "play-mat-letter.pdf"}


def marker_centres_mm() -> dict[int, tuple[float, float]]:
    """Marker id -> its centre in mm from the frame's centre (x right, y down)."""
    dx = (FRAME_MM[0] - MARKER_MM) / 2
    dy = (FRAME_MM[1] - MARKER_MM) / 2
    return {0: (-dx, -dy), 1: (dx, -dy), 2: (dx, dy), 3: (-dx, dy)}


def marker_bits(marker_id: int) -> list[list[int]]:
    """The marker as rows of 1 (black) and 0 (white), its one-cell black border included."""
    import cv2
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))
    image = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
    return [[1 if v < 128 else 0 for v in row] for row in image.tolist()]


def render_mat(paper: str = "a4") -> bytes:
    """The play mat as a one-page PDF for ``paper`` (``a4`` or ``letter``)."""
    from io import BytesIO

    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

    _register_fonts()
    pw, ph = PAPERS[paper]
    buf = BytesIO()
    c = Canvas(buf, pagesize=(pw, ph), invariant=1, pageCompression=1)
    c.setTitle("companion play mat")
    c.setAuthor("companion")
    c.setCreator(creator())
    c.setSubject(f"ArUco {DICTIONARY} markers {', '.join(map(str, MARKER_IDS))}")
    grey = Color(0.45, 0.45, 0.48)
    light = Color(0.78, 0.78, 0.8)
    cx, cy = pw / 2, ph / 2
    fw, fh = FRAME_MM[0] * MM, FRAME_MM[1] * MM
    side = MARKER_MM * MM
    # the frame's edges between the markers: lay the cards inside
    c.setStrokeColor(light)
    c.setLineWidth(0.7)
    c.setDash([3, 3], 0)
    left, right, bottom, top = cx - fw / 2, cx + fw / 2, cy - fh / 2, cy + fh / 2
    gap = side + 4
    for x1, y1, x2, y2 in ((left + gap, top, right - gap, top),
                           (left + gap, bottom, right - gap, bottom),
                           (left, bottom + gap, left, top - gap),
                           (right, bottom + gap, right, top - gap)):
        c.line(x1, y1, x2, y2)
    c.setDash([], 0)
    names = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}
    for mid, (mx, my) in marker_centres_mm().items():
        x0 = cx + mx * MM - side / 2
        y_top = cy - my * MM + side / 2
        bits = marker_bits(mid)
        cell = side / len(bits)
        c.setFillColor(Color(0, 0, 0))
        for r, row in enumerate(bits):
            k = 0
            while k < len(row):
                if row[k]:
                    end = k
                    while end < len(row) and row[end]:
                        end += 1
                    c.rect(x0 + k * cell, y_top - (r + 1) * cell, (end - k) * cell, cell,
                           stroke=0, fill=1)
                    k = end
                else:
                    k += 1
        c.setFillColor(grey)
        c.setFont(FONT, 7)
        below = y_top - side - 9 if my < 0 else y_top + 4
        c.drawCentredString(x0 + side / 2, below, f"id {mid} ({names[mid]})")
    c.setFillColor(Color(0.1, 0.1, 0.12))
    c.setFont(FONT, 16)
    c.drawCentredString(cx, cy + 70, "companion play mat")
    lines = [
        "Lay the cards inside the dashed frame and photograph the whole sheet:",
        "the photo reader finds the four markers to correct perspective and scale.",
        "",
        f"ArUco markers from OpenCV's dictionary {DICTIONARY}:",
        "id 0 top left, id 1 top right, id 2 bottom right, id 3 bottom left.",
        f"Each marker is {MARKER_MM:g} mm square; their outer corners make a "
        f"{FRAME_MM[0]:g} x {FRAME_MM[1]:g} mm rectangle",
        f"(marker centres {FRAME_MM[0] - MARKER_MM:g} mm apart across, "
        f"{FRAME_MM[1] - MARKER_MM:g} mm apart down).",
        "",
        f"Print at 100% (no 'fit to page') on {paper.upper() if paper == 'a4' else 'Letter'} "
        "paper; the bar below should measure 100 mm.",
    ]
    c.setFont(FONT, 8.5)
    y = cy + 48
    for line in lines:
        c.setFillColor(grey)
        c.drawCentredString(cx, y, line)
        y -= 12
    bar = 100 * MM
    y -= 8
    c.setStrokeColor(Color(0, 0, 0))
    c.setLineWidth(1)
    c.line(cx - bar / 2, y, cx + bar / 2, y)
    for k in range(11):
        tick = 5 if k % 5 == 0 else 3
        c.line(cx - bar / 2 + k * bar / 10, y, cx - bar / 2 + k * bar / 10, y + tick)
    c.setFont(FONT, 7)
    c.drawCentredString(cx - bar / 2, y - 9, "0")
    c.drawCentredString(cx + bar / 2, y - 9, "100 mm")
    c.showPage()
    c.save()
    return buf.getvalue()


def build(folder: str | Path, date: str | None = None) -> list[Written]:
    """Write the sample booklet and the play mats into ``folder``; what was written."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    positions = [deal(key, 1) for key in variant_keys()]
    data = render_sheets(positions, paper="a4", date=date or today(),
                         title="companion sample booklet: seed 1 of every variant")
    out = [Written(atomic_write(folder / BOOKLET, data), 2 * len(positions), len(data))]
    for paper, name in MATS.items():
        data = render_mat(paper)
        out.append(Written(atomic_write(folder / name, data), 1, len(data)))
    return out


__all__ = ["BOOKLET", "DICTIONARY", "FRAME_MM", "MARKER_IDS", "MARKER_MM", "MATS", "build",
           "marker_bits", "marker_centres_mm", "render_mat"]
