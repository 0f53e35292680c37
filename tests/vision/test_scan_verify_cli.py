"""`companion scan` and `verify --photo` as the user meets them: a --debug name that would
overwrite the photo or is no image, a camera that is not there, a layout file's errors naming
--layout, notes in the same card text as the rest of the output, honest counts.

The readings are made by hand where the model's own reading is not what is tested (fast)."""

from __future__ import annotations

import pytest

from companion.cards import Card
from companion.vision.read import Detection


def _c(text):
    return Card.parse(text).code


def _det(text, x, y, p=0.99, note=""):
    d = Detection(_c(text), p, float(x), float(y), (0.0, -1.0), 20.0)
    if p < 0.6 or note:
        d.uncertain, d.note = True, note or "low confidence"
    return d


@pytest.fixture
def photo(tmp_path):
    """A small real image file (its reading is faked where a test needs one)."""
    cv2 = pytest.importorskip("cv2")
    np = pytest.importorskip("numpy")
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), np.full((200, 300, 3), (40, 110, 60), np.uint8))
    return path


@pytest.fixture
def fake_reading(monkeypatch):
    """Make `scan_photo` return ``reading(cards, piles)`` for any photo."""
    np = pytest.importorskip("numpy")
    from companion.vision import scan as scan_mod

    def use(cards, piles=None, variant=None):
        def fake(photo=None, camera=None, variant_=None, decks=None, threshold=None,
                 deck=None, **kw):
            return {"image": np.full((600, 600, 3), 40, np.uint8),
                    "info": {"scale": 1.0, "original_size": (600, 600)}, "sheet": None,
                    "cards": cards, "piles": piles, "variant": variant, "deck_used": None}
        monkeypatch.setattr(scan_mod, "scan_photo", fake)
    return use


# ------------------------------------------------------------------------------ --debug

def test_debug_naming_the_photo_itself_is_refused_and_the_photo_kept(photo, tmp_path, run):
    before = photo.read_bytes()
    link = tmp_path / "link.jpg"
    link.symlink_to(photo)
    for args in ((str(photo), str(photo)), (str(link), str(photo)),
                 (str(photo), str(tmp_path / "." / "table.jpg"))):
        code, out, err = run("scan", args[0], "--debug", args[1])
        assert code == 2 and "is the photo being read" in err and "--debug read.png" in err
        assert photo.read_bytes() == before


@pytest.mark.parametrize("name, words", [("out.txt", ".txt is not an image type"),
                                         ("out", "end it with .png or .jpg")])
def test_debug_name_that_is_no_image_is_refused_before_reading(photo, tmp_path, run, name,
                                                                words):
    code, out, err = run("scan", str(photo), "--debug", str(tmp_path / name))
    assert code == 2 and words in err and "OpenCV" not in err
    assert not (tmp_path / name).exists()


def test_debug_in_a_folder_that_cannot_be_written_says_why(photo, tmp_path, run,
                                                            fake_reading):
    fake_reading([_det("Kh", 100, 100)])
    code, out, err = run("scan", str(photo), "--debug", str(tmp_path / "no" / "read.png"))
    assert code == 1 and "cannot write" in err and "No such file or directory" in err
    assert run("scan", str(photo), "--debug", str(tmp_path / "read.png"))[0] == 0
    assert (tmp_path / "read.png").read_bytes()[:4] == b"\x89PNG"


# ------------------------------------------------------------------------------ camera

def test_a_missing_camera_says_so_without_naming_an_option(monkeypatch, run):
    cv2 = pytest.importorskip("cv2")

    class NoCamera:
        def __init__(self, index):
            pass

        def isOpened(self):
            return False

        def release(self):
            pass
    monkeypatch.setattr(cv2, "VideoCapture", NoCamera)
    for args in (("scan", "--camera", "3"), ("verify", "klondike", "--seed", "5",
                                             "--photo", "cam3")):
        code, _, err = run(*args)
        assert code == 1 and "camera 3 cannot be opened" in err
        assert "--camera" not in err   # (verify has no --camera: no option is suggested)
        assert "another camera number, or a photo file" in err


def test_opencvs_own_log_lines_are_not_shown():
    """OpenCV writes ``[ WARN:0@0.01] global cap_v4l.cpp ...`` itself, on the process's
    stderr, when a camera cannot be opened: silenced, our error alone is shown."""
    import subprocess
    import sys
    pytest.importorskip("cv2")
    res = subprocess.run([sys.executable, "-m", "companion", "scan", "--camera", "97"],
                         capture_output=True, text=True, timeout=60,
                         env={k: v for k, v in __import__("os").environ.items()
                              if k != "OPENCV_LOG_LEVEL"})
    assert res.returncode == 1 and "camera 97 cannot be opened" in res.stderr
    assert "WARN" not in res.stderr and "VIDEOIO" not in res.stderr


# ------------------------------------------------------------------------------ verify --layout

@pytest.mark.parametrize("content", [None, b"", b"{", b"\xef\xff\x00", b'{"variant": 3}'])
def test_verify_layout_errors_name_the_layout_option(tmp_path, run, content):
    path = tmp_path / "table.json"
    if content is not None:
        path.write_bytes(content)
    code, _, err = run("verify", "klondike", "--seed", "5", "--layout", str(path))
    assert code == 2 and "--layout" in err and "--position" not in err


def test_verify_layout_of_another_variant_names_the_layout_option(tmp_path, run):
    code, out, _ = run("deal", "golf", "--seed", "5", "--json")
    path = tmp_path / "golf.json"
    path.write_text(out)
    code, _, err = run("verify", "klondike", "--seed", "5", "--layout", str(path))
    assert code == 2 and "--layout" in err and "golf position, not klondike" in err

