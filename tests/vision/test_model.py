"""The card model is verified against its checksum before it is loaded."""

from __future__ import annotations

import shutil

import pytest

pytest.importorskip("cv2")

from companion.cli import main
from companion.vision import VisionError, model


@pytest.fixture
def model_copy(tmp_path, monkeypatch):
    d = tmp_path / "models"
    shutil.copytree(model.MODEL_DIR, d)
    monkeypatch.setattr(model, "_CACHE", {})
    return d


def test_shipped_model_matches_its_checksum():
    sums = model.read_sums(model.MODEL_DIR)
    for name in (model.MODEL_FILE, model.META_FILE):
        assert model.sha256(f"{model.MODEL_DIR}/{name}") == sums[name]
    clf = model.load()
    assert clf.net.getLayerSizes()[-1] == model.N_RANK + model.N_SUIT


def test_damaged_model_is_refused(model_copy):
    p = model_copy / model.MODEL_FILE
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0xFF
    p.write_bytes(bytes(data))
    with pytest.raises(VisionError, match="checksum"):
        model.load(str(model_copy))


def test_missing_model_or_sums(model_copy):
    (model_copy / model.SUMS_FILE).unlink()
    with pytest.raises(VisionError, match="checksum file"):
        model.load(str(model_copy))
    (model_copy / model.MODEL_FILE).unlink()
    with pytest.raises(VisionError, match="make model"):
        model.load(str(model_copy))


def test_scan_with_damaged_model_says_so(model_copy, monkeypatch, tmp_path, capsys):
    import numpy as np
    from PIL import Image
    (model_copy / model.META_FILE).write_text("{}")
    monkeypatch.setattr(model, "MODEL_DIR", str(model_copy))
    photo = tmp_path / "p.png"
    Image.fromarray(np.full((300, 400, 3), 128, np.uint8)).save(photo)
    assert main(["scan", str(photo)]) == 1
    err = capsys.readouterr().err
    assert "checksum" in err and "Traceback" not in err
