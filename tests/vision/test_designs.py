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
