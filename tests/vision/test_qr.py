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


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) not installed")
def test_qr_read_from_a_photographed_sheet(tmp_path):
    from companion.render.pdf import qr_text, render_sheets
    from companion.rules import deal
    pos = deal("golf", 17)
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
    photo = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    code = find_sheet_code(photo)
    assert code is not None
    assert code.text == qr_text(pos)
    assert (code.variant, code.seed) == ("golf", 17)


def test_no_qr_in_a_plain_photo():
    img = np.full((400, 600, 3), 90, np.uint8)
    assert find_sheet_code(img) is None
