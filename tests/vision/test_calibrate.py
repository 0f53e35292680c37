"""`companion scan --calibrate`: one photo of a seeded deal teaches the player's deck; the
prototypes are stored without pickle, checked when loaded, and used by later readings."""

from __future__ import annotations

import json

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from companion.cli import main  # noqa: E402
from companion.rules import deal  # noqa: E402
from companion.vision import synth  # noqa: E402

SEED = 3


def _style():
    """A design the model was not trained on: a held-out font (when installed), index at the
    top right, a narrow gap between rank and pip."""
    font = synth.find_font("DejaVuSansMono-Bold.ttf") or synth.find_font("DejaVuSans.ttf")
    return synth.Style(font=font, right=True, rank_h=0.1, pip_k=0.75, ix=0.1, iy=0.04, gap=0.15,
                       paper=(245, 240, 225), border=False,
                       pip_font=synth.find_font("DejaVuSans.ttf"))


def _photo(path, pos, scene_seed, kind="gaps"):
    def position_for(kind, seed, rng):
        rng.integers(0, 60)
        return pos.copy()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(synth, "position_for", position_for)
        sc = synth.make_scene(scene_seed, kind, size=(1800, 1300), max_tilt=10, effects=0.0,
                              style=_style())
    cv2.imwrite(str(path), sc.image[..., ::-1])
    return str(path)


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    d = tmp_path_factory.mktemp("cal")
    return {"dealt": _photo(d / "dealt.png", deal("gaps", SEED), 5),
            "other": _photo(d / "other.png", deal("klondike", 11), 6, "klondike")}


@pytest.fixture()
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "games.sqlite3"))
    return tmp_path


def test_calibration_stores_the_decks_ranks_and_suits(photos, data_dir, capsys):
    assert main(["scan", photos["dealt"], "--calibrate", "--variant", "gaps", "--seed",
                 str(SEED), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    path = data_dir / "decks" / "default.npz"
    assert res["path"] == str(path) and path.exists()
    assert res["cards"] >= 30 and res["ranks"] >= 10 and res["suits"] == 4
    with np.load(path, allow_pickle=False) as z:   # plain arrays: no pickle needed
        assert z["samples"].shape[0] == z["codes"].shape[0] == res["cards"]
    # later readings use it, and say so
    assert main(["scan", photos["other"], "--variant", "klondike", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deck"] == "default"
    assert main(["scan", photos["other"], "--deck", "none", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deck"] is None


def test_calibration_refuses_a_photo_of_another_deal(photos, data_dir, capsys):
    code = main(["scan", photos["dealt"], "--calibrate", "--variant", "gaps", "--seed",
                 str(SEED + 1)])
    err = capsys.readouterr().err
    assert code != 0 and "does not look like gaps seed 4" in err
    assert not (data_dir / "decks" / "default.npz").exists()


def test_calibration_needs_the_seed(photos, data_dir, capsys):
    assert main(["scan", photos["dealt"], "--calibrate", "--variant", "gaps"]) != 0
    assert "--variant V --seed N" in capsys.readouterr().err


def test_a_damaged_deck_file_is_an_error_not_a_traceback(photos, data_dir, capsys):
    (data_dir / "decks").mkdir()
    (data_dir / "decks" / "mine.npz").write_bytes(b"PK\x03\x04 not really a zip")
    assert main(["scan", photos["other"], "--deck", "mine"]) != 0
    err = capsys.readouterr().err
    assert "deck file" in err and "--calibrate" in err


def test_a_deck_name_must_be_a_plain_name(photos, data_dir, capsys):
    assert main(["scan", photos["other"], "--deck", "../../etc/x"]) != 0
    assert "deck name" in capsys.readouterr().err


def test_a_deck_calibrated_with_other_model_files_is_calibrated_again(photos, data_dir,
                                                                      capsys):
    assert main(["scan", photos["dealt"], "--calibrate", "--variant", "gaps", "--seed",
                 str(SEED), "--deck", "mine", "--json"]) == 0
    capsys.readouterr()
    path = data_dir / "decks" / "mine.npz"
    with np.load(path, allow_pickle=False) as z:
        data = {k: z[k] for k in z.files}
    data["model"] = np.array("0" * 64)    # as if the model files had been retrained since
    np.savez(path, **data)
    assert main(["scan", photos["other"], "--deck", "mine"]) != 0    # asked for: refused
    err = capsys.readouterr().err
    assert "other model files" in err and "--calibrate" in err
    (data_dir / "decks" / "default.npz").write_bytes(path.read_bytes())
    assert main(["scan", photos["other"], "--variant", "klondike", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)    # the default, unasked: read without it
    assert out["deck"] is None and "other model files" in out["deck_ignored"]


def test_an_index_is_read_as_the_card_whose_calibration_sample_it_resembles():
    """The model leans to a 4 and spades; the index looks like the deck's 7 of hearts sample, a
    little like its 4 of spades: the calibration moves the reading to the 7 of hearts, and
    leaves the share of the aces (never calibrated) and of "no index" as it was."""
    from companion.vision import calibrate
    from companion.vision.calibrate import Deck

    seven_h, four_s = 13 + 6, 3
    samples = np.eye(3, dtype=np.float32)          # three cards, each its own direction
    deck = Deck("t", [seven_h, four_s, 26 + 9], samples, "x")
    index = np.array([[0.9, 0.3, 0.0]], np.float32)
    index /= np.linalg.norm(index)
    pr = np.full((1, 14), 0.02)
    pr[0, 3], pr[0, 0], pr[0, 13] = 0.5, 0.1, 0.16   # the model: a 4, an ace, or no index
    ps = np.array([[0.6, 0.1, 0.1, 0.1, 0.1]])     # spades
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(calibrate, "embed", lambda clf, rgb, pips, ranks: index)
        r, s = deck.sharpen(None, None, [(0, 0)], [(0, 1)], pr, ps)
    assert pr[0, :13].argmax() == 3 and r[0, :13].argmax() == 6 and s[0, :4].argmax() == 1
    assert r[0, 0] == pr[0, 0] and r[0, 13] == pr[0, 13]   # aces never calibrated; none
    assert s[0, 4] == ps[0, 4]
    assert abs(r.sum() - pr.sum()) < 1e-9 and abs(s.sum() - ps.sum()) < 1e-9
