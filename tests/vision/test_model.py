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


def test_earlier_recognizer_reads_where_no_onnx_file_is_named(model_copy):
    """The HOG + ANN_MLP recognizer still ships; a sums file that names no ONNX file (one
    written before it) loads it, checked against its own sums."""
    import numpy as np
    sums = model.read_sums(model.MODEL_DIR)
    for name in (model.MODEL_FILE, model.META_FILE):
        assert model.sha256(f"{model.MODEL_DIR}/{name}") == sums[name]
    lines = (model_copy / model.SUMS_FILE).read_text().splitlines()
    (model_copy / model.SUMS_FILE).write_text(
        "".join(line + "\n" for line in lines if "cards-cnn" not in line))
    clf = model.load(str(model_copy))
    assert not isinstance(clf, model.ConvClassifier)
    assert clf.net.getLayerSizes()[-1] == model.N_RANK + model.N_SUIT
    rng = np.random.default_rng(0)
    c = rng.integers(0, 256, (3, 40, 32, 3), dtype=np.uint8)
    pr, ps = clf.predict_crops(c.min(axis=3), c)
    assert pr.shape == (3, model.N_RANK) and np.allclose(ps.sum(1), 1)


def test_damaged_model_is_refused(model_copy):
    p = model_copy / model.CNN_FILE
    data = bytearray(p.read_bytes())
    data[len(data) // 2] ^= 0xFF
    p.write_bytes(bytes(data))
    with pytest.raises(VisionError, match="checksum"):
        model.load(str(model_copy))


def test_missing_model_or_sums(model_copy):
    (model_copy / model.SUMS_FILE).unlink()
    with pytest.raises(VisionError, match="checksum file"):
        model.load(str(model_copy))
    (model_copy / model.CNN_FILE).unlink()
    with pytest.raises(VisionError, match="make model"):
        model.load(str(model_copy))


def test_scan_with_damaged_model_says_so(model_copy, monkeypatch, tmp_path, capsys):
    import numpy as np
    from PIL import Image
    (model_copy / model.CNN_META).write_text("{}")
    monkeypatch.setattr(model, "MODEL_DIR", str(model_copy))
    photo = tmp_path / "p.png"
    Image.fromarray(np.full((300, 400, 3), 128, np.uint8)).save(photo)
    assert main(["scan", str(photo)]) == 1
    err = capsys.readouterr().err
    assert "checksum" in err and "Traceback" not in err


def test_shipped_refiner_is_loaded_with_the_model():
    from companion.vision import refine
    sums = model.read_sums(model.MODEL_DIR)
    for name in (refine.REFINE_FILE, refine.REFINE_META):
        assert model.sha256(f"{model.MODEL_DIR}/{name}") == sums[name]
    assert model.load().refiner is not None


def test_damaged_refiner_is_refused(model_copy):
    from companion.vision import refine
    (model_copy / refine.REFINE_META).write_text("{}")
    with pytest.raises(VisionError, match="checksum"):
        model.load(str(model_copy))


def test_model_without_refiner_reads_alone(model_copy):
    from companion.vision import refine
    (model_copy / refine.REFINE_FILE).unlink()
    (model_copy / refine.REFINE_META).unlink()
    sums = (model_copy / model.SUMS_FILE).read_text().splitlines()
    (model_copy / model.SUMS_FILE).write_text(
        "".join(line + "\n" for line in sums if "refine" not in line))
    assert model.load(str(model_copy)).refiner is None


def test_writing_sums_keeps_the_other_files(model_copy):
    from companion.vision import refine
    before = model.read_sums(str(model_copy))
    model.write_sums(str(model_copy), (refine.REFINE_FILE,))
    assert model.read_sums(str(model_copy)) == before


def test_refiner_moves_readings_within_a_head_only():
    """The refiner's second look changes which card an index is, never whether it is one."""
    import numpy as np

    from companion.vision import refine

    class Sure(refine.Refiner):
        def predict(self, F):   # the second look: surely a 3 (rank index 2) of clubs (3)
            qr, qs = np.full((len(F), 13), 0.01), np.full((len(F), 4), 0.01)
            qr[:, 2] = qs[:, 3] = 1.0
            return qr, qs
    pr = np.array([[0.4, 0.0, 0.3] + [0.0] * 10 + [0.3]])
    ps = np.array([[0.5, 0.0, 0.0, 0.3, 0.2]])
    rgb = np.full((60, 60, 3), 230, np.uint8)
    r, s = Sure(None, {}).sharpen(rgb, [[30, 40]], [[30, 25]], pr, ps)
    assert r.argmax() == 2 and s[0, :4].argmax() == 3
    assert r[0, 13] == pr[0, 13] and s[0, 4] == ps[0, 4]
    assert np.isclose(r[0, :13].sum(), pr[0, :13].sum()) and np.isclose(s[0, :4].sum(), 0.8)
