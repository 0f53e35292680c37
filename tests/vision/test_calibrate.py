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
        assert z["rank_protos"].shape[0] == res["ranks"]
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
