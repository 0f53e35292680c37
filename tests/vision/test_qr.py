"""A photographed setup sheet's QR code names the game."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from companion.vision.qr import find_sheet_code, parse_sheet_code

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")


def test_parse_sheet_code():
    c = parse_sheet_code("companion:klondike:42:draw=1:1")
    assert (c.variant, c.seed, c.options, c.deal_version) == ("klondike", 42, {"draw": "1"}, 1)
    assert parse_sheet_code("https://example.com") is None
    assert parse_sheet_code("companion:klondike:x::1") is None


NO_PDFTOPPM = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                 reason="pdftoppm (poppler-utils) not installed")


def _photographed_sheet(tmp_path, pos):
    """``pos``'s setup sheet, photographed on a table at an angle (as OpenCV decodes it)."""
    from companion.render.pdf import render_sheets
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(render_sheets([pos], play_page=False, date="2026-01-01"))
    subprocess.run(["pdftoppm", "-r", "110", "-png", "-singlefile", str(pdf),
                    str(tmp_path / "page")], check=True)
    page = cv2.imread(str(tmp_path / "page.png"))[..., ::-1]
    h, w = page.shape[:2]
    # photograph it: on a table, at an angle, a little dimmer, JPEG
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[120, 60], [w + 60, 140], [w + 10, h + 150], [90, h + 100]])
    M = cv2.getPerspectiveTransform(src, dst)
    photo = cv2.warpPerspective(page, M, (w + 200, h + 220), borderValue=(60, 90, 60))
    photo = (photo * 0.85).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@NO_PDFTOPPM
def test_qr_read_from_a_photographed_sheet(tmp_path):
    from companion.render.pdf import qr_text
    from companion.rules import deal
    pos = deal("golf", 17)
    code = find_sheet_code(_photographed_sheet(tmp_path, pos))
    assert code is not None
    assert code.text == qr_text(pos)
    assert (code.variant, code.seed) == ("golf", 17)


@NO_PDFTOPPM
@pytest.mark.parametrize("variant", [None, "golf"])
def test_a_scan_names_the_sheet_whether_or_not_the_variant_is_given(tmp_path, variant):
    # without --variant the code is read first (it names the game); with it, the code is
    # looked for while the cards are read, and the result names it all the same
    from companion.rules import deal
    from companion.vision.scan import scan_photo
    path = tmp_path / "photo.jpg"
    cv2.imwrite(str(path), _photographed_sheet(tmp_path, deal("golf", 17)))
    r = scan_photo(path, variant=variant, deck=None)
    assert r["sheet"] is not None and (r["sheet"].variant, r["sheet"].seed) == ("golf", 17)
    assert r["variant"] == "golf"


def test_no_qr_in_a_plain_photo():
    img = np.full((400, 600, 3), 90, np.uint8)
    assert find_sheet_code(img) is None
