"""Published deck designs as scene faces: where a face's index lies is found from its ink, and
a package's files are read by name, never unpacked where the archive says."""

from __future__ import annotations

import io
import tarfile

import pytest

pytest.importorskip("cv2")

from companion.vision import designs, synth


@pytest.mark.parametrize("right", [False, True])
def test_the_index_is_found_where_the_face_has_it(right):
    style = synth.Style(font=synth.find_font("DejaVuSans-Bold.ttf"), right=right)
    for code in (0, 4, 19, 24, 51):    # A♠, 5♠, 7♥, Q♥, K♣
        img, boxes = synth.render_face(style, code)
        (rank, pip), _ = boxes
        found = designs.index_boxes(img, right=right)
        assert found is not None
        got_rank, got_pip = found
        for got, want in ((got_rank, rank), (got_pip, pip)):
            assert all(abs(g - w) <= 4 for g, w in zip(got, want, strict=True)), (code, got, want)


def test_a_packages_members_are_read_by_name_only(tmp_path):
    path = tmp_path / "p.tgz"
    with tarfile.open(path, "w:gz") as t:
        for name, data in (("package/cards/AS.svg", b"<svg/>"), ("../escape.svg", b"x")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    got = designs._members(str(path), {"package/cards/AS.svg", "package/cards/KS.svg"})
    assert got == {"package/cards/AS.svg": b"<svg/>"}
    assert not (tmp_path.parent / "escape.svg").exists()


def test_every_design_names_52_distinct_files_and_a_source():
    for d in designs.DESIGNS:
        assert len({d.member(c) for c in range(52)}) == 52, d.name
        assert d.source and d.licence
    held = {d.source for d in designs.DESIGNS if d.source in designs.HELD_OUT_SOURCES}
    assert held == set(designs.HELD_OUT_SOURCES)


SHEET_DESIGNS = [d for d in designs.DESIGNS if d.registry == "sheet"]


@pytest.mark.parametrize("d", SHEET_DESIGNS, ids=lambda d: d.name)
def test_a_committed_design_gives_52_faces_with_their_index_found(d, tmp_path):
    """A deck that lives only on GitHub trains on a fresh machine from its committed sheet:
    52 faces of the card size, each with its index at the top left where its ink is."""
    from PIL import Image
    folder = designs.faces_folder(d, cache=str(tmp_path))
    faces = [Image.open(f"{folder}/{c}.png") for c in range(52)]
    assert {f.size for f in faces} == {(synth.CW, synth.CH)}
    assert len({f.tobytes() for f in faces}) == 52
    style = designs.style(d, cache=str(tmp_path))
    for code in range(52):
        (rank, pip), _ = style.faces[code][1]
        assert rank[3] <= pip[1] + 2, (code, rank, pip)   # the rank above its pip
        assert rank[0] < synth.CW * 0.25 and pip[0] < synth.CW * 0.25, (code, rank, pip)


def test_a_sheet_of_the_wrong_size_is_refused_with_the_reason(tmp_path, monkeypatch):
    from PIL import Image
    monkeypatch.setattr(designs, "SHEETS", str(tmp_path))
    d = SHEET_DESIGNS[0]
    Image.new("RGB", (100, 100), "white").save(tmp_path / f"{d.name}.png")
    with pytest.raises(designs.DesignError, match=r"not 13 x 4 faces.*git checkout"):
        designs.faces_folder(d, cache=str(tmp_path / "cache"))


def test_an_svg_rank_is_drawn_in_the_font_the_design_names(tmp_path):
    """A deck's text ranks ask for fonts a machine may lack (Arial): they are drawn in the
    design's own training font, never left out."""
    pytest.importorskip("resvg_py")
    if not synth.find_font("DejaVuSans-Bold.ttf"):
        pytest.skip("DejaVu Sans Bold is not installed")
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="180" height="252">'
           '<rect width="180" height="252" fill="#fff"/>'
           '<text x="10" y="60" style="font-family:NoSuchFace;font-size:50px">7</text></svg>')
    import numpy as np
    blank = np.asarray(designs._raster(svg.replace(">7<", "><").encode(), "x.svg",
                                       "DejaVuSans-Bold.ttf"))
    drawn = np.asarray(designs._raster(svg.encode(), "x.svg", "DejaVuSans-Bold.ttf"))
    assert (blank.min(axis=2) < 128).sum() == 0
    assert (drawn.min(axis=2) < 128).sum() > 200
