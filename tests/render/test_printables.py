"""The committed printables/ are what `companion printables` makes, and the mat's markers read."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.render.pdf import creator
from companion.render.printables import (
    BOOKLET,
    FRAME_MM,
    MARKER_IDS,
    MARKER_MM,
    MATS,
    build,
    marker_centres_mm,
    render_mat,
)
from companion.rules import variant_keys

pypdf = pytest.importorskip("pypdf", reason="pypdf is a test dependency: pip install -e '.[test]'")

FOLDER = Path(__file__).resolve().parents[2] / "printables"
PDFTOPPM = shutil.which("pdftoppm")


def _meta(path: Path) -> tuple[str, str]:
    info = pypdf.PdfReader(path).metadata
    return str(info.get("/Creator", "")), str(info.get("/Subject", ""))


def _without_timestamps(data: bytes) -> bytes:
    """The PDF with its creation/modification dates and its /ID (made from them) blanked."""
    data = re.sub(rb"/(CreationDate|ModDate) \(D:[^)]*\)", rb"/\1 (D:-)", data)
    return re.sub(rb"/ID\s*\[<[0-9a-fA-F]*><[0-9a-fA-F]*>\]", b"/ID [-]", data)


def _texts(data: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """`companion printables` run now, with the date printed on the committed booklet."""
    booklet = FOLDER / BOOKLET
    if not booklet.exists():
        pytest.fail(f"{booklet} is missing: run `companion printables`")
    match = re.search(r"printed (\d{4}-\d{2}-\d{2})", _meta(booklet)[1])
    assert match, "the committed booklet does not say when it was printed"
    out = tmp_path_factory.mktemp("printables")
    build(out, date=match.group(1))
    return out


@pytest.mark.parametrize("name", [BOOKLET, *MATS.values()])
def test_committed_printables_match_the_code(rebuilt, name):
    committed = (FOLDER / name).read_bytes()
    fresh = (rebuilt / name).read_bytes()
    if _meta(FOLDER / name)[0] == creator():
        assert _without_timestamps(committed) == _without_timestamps(fresh), \
            f"printables/{name} is stale: run `companion printables`"
    else:  # made with another reportlab: the bytes may differ, the content may not
        assert _texts(committed) == _texts(fresh), \
            f"printables/{name} is stale: run `companion printables`"


def test_booklet_has_every_variant(rebuilt):
    pages = pypdf.PdfReader(rebuilt / BOOKLET).pages
    keys = variant_keys()
    assert len(pages) == 2 * len(keys)
    assert f"companion:{keys[0]}:1::" in pages[0].extract_text()
    assert f"companion:{keys[-1]}:1::" in pages[-2].extract_text()


def test_readme_states_the_markers():
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    assert "DICT_4X4_50" in readme
    for mid in MARKER_IDS:
        assert f"id {mid}" in readme


@pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm (apt-get install poppler-utils) is not "
                                             "installed, so the mat cannot be rendered")
@pytest.mark.parametrize("paper", list(MATS))
def test_mat_markers_are_found_where_the_mat_says(paper, tmp_path):
    import cv2
    import numpy as np
    pdf = tmp_path / "mat.pdf"
    pdf.write_bytes(render_mat(paper))
    dpi = 50
    subprocess.run([PDFTOPPM, "-png", "-r", str(dpi), "-singlefile", str(pdf),
                    str(tmp_path / "mat")], check=True, capture_output=True, timeout=60)
    image = cv2.imread(str(tmp_path / "mat.png"), cv2.IMREAD_GRAYSCALE)
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
        cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(image)
    assert ids is not None and sorted(ids.ravel().tolist()) == list(MARKER_IDS)
    centres = {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners,
                                                                         strict=True)}
    h, w = image.shape
    px_per_mm = dpi / 25.4
    for mid, (mx, my) in marker_centres_mm().items():
        expected = np.array([w / 2 + mx * px_per_mm, h / 2 + my * px_per_mm])
        assert np.linalg.norm(centres[mid] - expected) < 3, mid
    across = np.linalg.norm(centres[1] - centres[0]) / px_per_mm
    assert across == pytest.approx(FRAME_MM[0] - MARKER_MM, abs=2)
