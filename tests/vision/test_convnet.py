"""The convolutional recognizer: its input, the shipped ONNX file, and (where the training tools
are installed) that the ONNX graph cv2.dnn runs computes what the trained network computes."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from companion.vision import model
from companion.vision.detect import CROP_H, CROP_W


def _crops(n, seed=0):
    rng = np.random.default_rng(seed)
    c = rng.integers(0, 256, (n, CROP_H, CROP_W, 3), dtype=np.uint8)
    return c.min(axis=3), c


def test_input_is_on_the_crops_own_contrast():
    """A crop and the same crop darker and flatter (dim light) give the same input."""
    g, c = _crops(3)
    x = model.prepare(g, c)
    assert x.shape == (3, 4, CROP_H, CROP_W) and x.dtype == np.float32
    assert x.min() >= 0 and x.max() <= 1.2
    dim = (c.astype(np.float32) * 0.5 + 20).round().astype(np.uint8)
    y = model.prepare(dim.min(axis=3), dim)
    assert np.abs(x - y).max() < 0.02


def test_shipped_recognizer_is_the_convolutional_one():
    sums = model.read_sums(model.MODEL_DIR)
    for name in (model.CNN_FILE, model.CNN_META):
        assert model.sha256(f"{model.MODEL_DIR}/{name}") == sums[name]
    clf = model.load()
    assert isinstance(clf, model.ConvClassifier)
    pr, ps = clf.predict_crops(*_crops(5))
    assert pr.shape == (5, model.N_RANK) and ps.shape == (5, model.N_SUIT)
    assert np.allclose(pr.sum(1), 1) and np.allclose(ps.sum(1), 1)
    assert [len(p) for p in clf.predict_crops(*_crops(0))] == [0, 0]


def test_unreadable_onnx_file_is_a_clear_error(tmp_path, monkeypatch):
    """A file that is not an ONNX graph, even one whose checksum is written beside it, is
    refused with the way to rebuild it, not a traceback."""
    import shutil

    from companion.vision import VisionError
    d = tmp_path / "models"
    shutil.copytree(model.MODEL_DIR, d)
    monkeypatch.setattr(model, "_CACHE", {})
    (d / model.CNN_FILE).write_bytes(b"not a network" * 100)
    model.write_sums(str(d), (model.CNN_FILE,))
    with pytest.raises(VisionError, match=r"cannot be loaded.*make model"):
        model.load(str(d))


def test_onnx_graph_computes_the_trained_network(tmp_path):
    """What ``make model`` writes is what it trained: cv2.dnn on the ONNX file gives JAX's
    outputs, for a network with random weights."""
    pytest.importorskip("jax", reason="training tools not installed (pip install '.[train]')")
    pytest.importorskip("onnx", reason="training tools not installed (pip install '.[train]')")
    import cv2

    from companion.vision import convnet
    p = convnet.init(seed=3)
    path = str(tmp_path / "net.onnx")
    convnet.to_onnx(p, path)
    x = model.prepare(*_crops(7, seed=1))
    net = cv2.dnn.readNetFromONNX(path)
    net.setInput(x)
    assert np.allclose(net.forward(), convnet.outputs(p, x), atol=1e-4)


def test_temperature_fits_the_validation():
    """Outputs twice as sharp as the truth calls for are cooled by about a half."""
    from companion.vision import convnet
    rng = np.random.default_rng(0)
    n = 4000
    z = rng.normal(0, 1, (n, 19))
    R, S = rng.integers(0, 14, n), rng.integers(0, 5, n)
    # labels drawn from the softmax of z, then the outputs doubled
    for a, b, y in ((0, 14, R), (14, 19, S)):
        p = np.exp(z[:, a:b])
        p /= p.sum(1, keepdims=True)
        y[:] = [rng.choice(b - a, p=row) for row in p]
    assert abs(convnet.temperature(2 * z, R, S) - 0.5) <= 0.1


def test_a_corner_at_least_half_in_view_is_taught_as_its_card():
    """Training labels: a card tucked under the next (its index partly covered) is its card,
    as the layout reads it, where the earlier recognizer was taught "none"; a corner barely in
    view is none, and those between are left out."""
    from companion.vision import convnet, synth
    from companion.vision.detect import candidates
    from companion.vision.train import _inside, label_candidates
    fonts = synth.available_fonts(synth.TRAIN_FONTS)
    partly = 0
    for seed in (3, 4):
        sc = synth.make_scene(seed, "klondike", fonts=fonts)
        c = candidates(sc.image, waists=False, describe=False)
        rank, suit = convnet.label(c, sc)
        old_rank, _ = label_candidates(c, sc)
        for ix in sc.indices:
            hit = _inside(c.pip, ix["pip"]) & _inside(c.rank, ix["rank"])
            if not hit.any() or ix["visible"]:
                continue
            if ix["visible_frac"] >= convnet.SHOWN:
                s, r = divmod(ix["code"], 13)
                assert (rank[hit] == r).all() and (suit[hit] == s).all()
                assert (old_rank[hit] == 13).all()
                partly += 1
            elif ix["visible_frac"] >= convnet.HIDDEN_MOST:
                assert (rank[hit] == -1).all()
    assert partly > 0


def test_input_contrast_is_numpys_percentiles_of_each_crop():
    """Each crop's ink and paper are its min channel's 3rd and 97th percentiles exactly as
    np.percentile gives them (taken from the crop's sorted bytes: the model was trained on
    these inputs), crops of few grey levels and flat ones among them."""
    g, c = _crops(60, seed=4)
    g[:20] = (g[:20] // 85) * 85
    g[20:25] = 200
    x = model.prepare(g, c)
    flat = g.reshape(len(g), -1).astype(np.float32)
    lo, hi = np.percentile(flat, (3, 97), axis=1).astype(np.float32)[:, :, None, None]
    want = np.clip((g - lo) / np.maximum(hi - lo, 12), 0, 1.2)
    assert np.array_equal(x[:, 0], want)


def test_the_extra_training_scenes_are_gaps_layouts():
    """``--gaps N`` (``make model``'s GAPS) adds scenes all of Gaps, whose four rows of thirteen
    are the smallest indices a photo has: a scene from those seeds shows most of the deck's
    index corners, taught as their cards, where a seed's own layout would show a few."""
    from companion.vision import convnet, synth
    fonts = synth.available_fonts(synth.TRAIN_FONTS)
    seed = convnet.GAPS_SEED + 1
    _, _, rank, suit = convnet.scene_crops(seed, fonts=fonts, extra=False, kind="gaps")
    cards = {int(s) * 13 + int(r) for r, s in zip(rank, suit, strict=True) if 0 <= r < 13}
    assert len(cards) >= 44
    drawn = synth.make_scene(seed, fonts=fonts)
    assert len({ix["code"] for ix in drawn.indices if ix["visible"]}) < 44
