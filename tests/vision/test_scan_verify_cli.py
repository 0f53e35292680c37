"""`companion scan` and `verify --photo` as the user meets them: a --debug name that would
overwrite the photo or is no image, a camera that is not there, a layout file's errors naming
--layout, notes in the same card text as the rest of the output, honest counts.

The readings are made by hand where the model's own reading is not what is tested (fast)."""

from __future__ import annotations

import json

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



# ------------------------------------------------------------------------------ verify --photo

def _dealt(variant, seed, names, fill=None):
    """A reading of the face-up cards ``variant``'s deal ``seed`` puts on ``names`` (their
    cards, cascaded 40 pixels apart), each pile's cards replaced by ``fill[name]`` if given."""
    from companion.rules import Position, load_variant
    from companion.vision.piles import PileReading
    pos = Position.deal(load_variant(variant), seed)
    piles = {}
    for k, name in enumerate(names):
        i = pos.engine.names.index(name)
        codes = (fill or {}).get(name) or [Card.parse(c).code if isinstance(c, str) else c
                                           for c in pos.piles[i][pos.down[i]:]]
        piles[name] = [Detection(_c(c) if isinstance(c, str) else c, 0.99, 100.0 + 60 * k,
                                 100.0 + 40 * j, (0.0, -1.0), 20.0)
                       for j, c in enumerate(codes)]
    return [d for ds in piles.values() for d in ds], PileReading(variant, piles)


def test_a_photo_of_another_game_is_said_so_and_counted_as_listed(photo, run, fake_reading):
    # Golf's seven columns of five, checked as Klondike (one face-up card a column)
    cards, piles = _dealt("golf", 5, [f"t{k}" for k in range(1, 8)])
    piles.variant = "klondike"
    fake_reading(cards, piles)
    code, out, _ = run("--ascii", "verify", "klondike", "--seed", "5", "--photo", str(photo))
    assert code == 1
    lines = out.splitlines()
    beyond = [ln for ln in lines if "more in the photo than the 1 face-up card" in ln]
    assert len(beyond) == 7   # one line a pile, its cards named
    assert "read beyond the face-up cards the deal puts in 7 piles" in out
    assert "of 35 read checked against the deal" in out
    assert "is the photo of another game? Check the variant and --seed" in out


def test_another_game_is_asked_without_calling_a_minority_most():
    # 6 of 15 cards read beyond the layout, 4 checked: more beyond than checked, which asks
    # about another game, but 6 of 15 is not "most of the cards read"
    from companion.cli.verify_cmds import _verdict
    report = {"ok": False, "checked": 4, "read": 15, "mismatches": [{}] * 4, "unplaced": [],
              "extra": {"t3": [1, 2], "t4": [3, 4], "t5": [5, 6]}, "problems": [{}] * 3}
    ask = _verdict(report, "klondike", 42, photo=True)[-1]
    assert "is the photo of another game?" in ask
    assert "Most of" not in ask
    assert "6 of the 15 cards read lie beyond the layout klondike deals" in ask
    assert "only 4 were checked against it" in ask


def test_verify_counts_a_misplaced_card_and_unplaced_cards_apart(photo, run, fake_reading):
    from companion.rules import Position, load_variant
    names = [f"t{k}" for k in range(1, 8)]
    pos = Position.deal(load_variant("klondike"), 5)
    tops = [pos.piles[i][-1] for i in range(7)]
    wrong = next(c for c in range(52) if c not in tops)
    cards, piles = _dealt("klondike", 5, names, fill={"t3": [wrong]})
    stray = Detection(_c("Kh") if _c("Kh") not in tops else _c("Ks"), 0.99, 500.0, 500.0,
                      (0.0, -1.0), 20.0)
    piles.unplaced = [stray]
    fake_reading(cards + [stray], piles)
    code, out, _ = run("verify", "klondike", "--seed", "5", "--photo", str(photo), "--ascii")
    assert code == 1
    assert "1 card read but not placed in a pile: " in out
    assert "t3, card 3 from the bottom: expected" in out
    assert ("1 card not where the deal puts it; 1 card read outside the piles (7 cards of 8 "
            "read checked against the deal)") in out
    assert "another game" not in out


def test_golfs_waste_card_is_checked_and_named_when_not_read(photo, run, fake_reading):
    names = [f"t{k}" for k in range(1, 8)]
    cards, piles = _dealt("golf", 5, names)
    fake_reading(cards, piles)
    code, out, _ = run("verify", "golf", "--seed", "5", "--photo", str(photo))
    assert code == 1 and "Not found in the photo (not checked): w" in out
    assert "Incomplete: the 35 cards checked (of 35 read)" in out
    cards, piles = _dealt("golf", 5, names + ["w"])
    fake_reading(cards, piles)
    code, out, _ = run("verify", "golf", "--seed", "5", "--photo", str(photo))
    assert code == 0 and "all 36 cards checked" in out


def test_scan_names_a_pile_whose_face_up_card_was_not_read(photo, run, fake_reading):
    from companion.rules import load_variant
    from companion.vision.piles import build_position
    cards, piles = _dealt("golf", 5, [f"t{k}" for k in range(1, 8)])
    build_position(piles, load_variant("golf"))
    fake_reading(cards, piles, "golf")
    code, out, _ = run("scan", str(photo), "--variant", "golf")
    assert code == 0 and "no card read on w, where the layout shows one face up" in out
    code, out, _ = run("scan", str(photo), "--variant", "golf", "--json")
    assert json.loads(out)["unread"] == ["w"]


def test_verify_with_nothing_typed_checks_nothing_and_says_so(run):
    code, out, _ = run("verify", "klondike", "--seed", "5", stdin="")
    assert code == 1 and "Nothing was checked: no card was typed in" in out
    assert "match" not in out


def test_a_blank_photo_is_no_cards_found_for_scan_and_verify_alike(photo, run, fake_reading):
    fake_reading([])
    for args in (("scan", str(photo)), ("verify", "klondike", "--seed", "5", "--photo",
                                       str(photo))):
        code, out, err = run(*args)
        assert code == 1 and "no cards found in" in err and "Traceback" not in err
    code, out, _ = run("scan", str(photo), "--json")   # the document, and the same status
    assert code == 1 and json.loads(out)["cards"] == []


# ------------------------------------------------------------------------------ card text

def _uncertain_gaps(photo, fake_reading):
    """A Gaps reading: 10♥ read sure in a1 and again, uncertain as a copy, in b1; J♠ read
    outside the rows."""
    from companion.rules import load_variant
    from companion.vision.piles import PileReading, build_position
    from companion.vision.read import COPY_TOO_MANY
    a1 = _det("10h", 100, 100)
    b1 = _det("10h", 100, 200, 0.96, note=f"10♥ {COPY_TOO_MANY}")
    stray = _det("Js", 900, 500)
    out = PileReading("gaps", {"a1": [a1], "b1": [b1]}, unplaced=[stray])
    build_position(out, load_variant("gaps"))
    fake_reading([a1, b1, stray], out, "gaps")


def test_scan_names_unplaced_cards_and_the_copies_in_the_displays_card_text(photo, run,
                                                                             fake_reading):
    _uncertain_gaps(photo, fake_reading)
    code, out, _ = run("scan", str(photo), "--variant", "gaps")
    assert code == 0
    assert "not placed in a pile: 1 card: J♠" in out
    assert "10♥?" in out and "(10♥ seen more often than the deck has it)" in out
    assert "too many copies: 10♥ twice (a1, b1)" in out
    assert "10h" not in out
    code, out, _ = run("--ascii", "scan", str(photo), "--variant", "gaps")
    assert "not placed in a pile: 1 card: Js" in out and "too many copies: 10h twice" in out
    assert "(10h seen more often than the deck has it)" in out and "♥" not in out


def test_scan_json_writes_the_json_card_codes_its_position_uses(photo, run, fake_reading,
                                                               tmp_path):
    _uncertain_gaps(photo, fake_reading)
    code, out, _ = run("scan", str(photo), "--variant", "gaps", "--json")
    data = json.loads(out)
    assert data["piles"]["a1"] == ["TH"] and data["piles"]["b1"] == ["TH?"]
    assert data["unplaced"] == ["JS"]
    assert {c["best"] for c in data["cards"]} == {"TH", "JS"}
    assert data["position"]["piles"]["a1"]["cards"] == ["TH"]


# ------------------------------------------------------------------------------ --deck

def test_a_deck_not_calibrated_is_refused_with_what_to_do(photo, run, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "games.sqlite3"))
    code, _, err = run("scan", str(photo), "--deck", "nosuchdeck")
    assert code == 2 and "deck 'nosuchdeck' is not calibrated" in err
    assert "--calibrate" in err and "--deck none" in err
