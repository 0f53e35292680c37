"""Bad photos give a clear error or an honest "no cards found", never a traceback."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.vision import VisionError
from companion.vision.image import WORK_SIDE, load_photo

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
Image = pytest.importorskip("PIL.Image")


def _scan(capsys, *args):
    code = main(["scan", *map(str, args)])
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out
    return code, out.out, out.err


def test_not_an_image(tmp_path, capsys):
    p = tmp_path / "notes.jpg"
    p.write_text("this is not a photo\n")
    code, _, err = _scan(capsys, p)
    assert code == 1
    assert "not an image" in err


def test_empty_file_and_missing_file(tmp_path, capsys):
    p = tmp_path / "empty.jpg"
    p.write_bytes(b"")
    code, _, err = _scan(capsys, p)
    assert code == 1 and "empty" in err
    code, _, err = _scan(capsys, tmp_path / "nothere.jpg")
    assert code == 1 and "cannot open" in err


def test_truncated_jpeg(tmp_path, capsys):
    img = (np.random.default_rng(1).random((600, 800, 3)) * 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img)
    p = tmp_path / "cut.jpg"
    p.write_bytes(buf.tobytes()[: len(buf) // 2])
    code, _, err = _scan(capsys, p)
    assert code == 1
    assert "truncated" in err


def test_empty_table_finds_no_cards(tmp_path, capsys):
    img = np.zeros((900, 1200, 3), np.uint8)
    img[:] = (40, 110, 60)
    img = cv2.GaussianBlur(img + np.random.default_rng(2).integers(0, 12, img.shape, np.uint8),
                           (0, 0), 2)
    p = tmp_path / "table.png"
    cv2.imwrite(str(p), img)
    code, out, err = _scan(capsys, p)
    assert code == 1   # as `verify --photo` and `hint --photo`: nothing was read
    assert "no cards found in" in err and "photograph the layout from above" in err


def test_huge_png_is_refused_before_decoding(tmp_path, capsys):
    p = tmp_path / "huge.png"
    Image.new("L", (9000, 7500)).save(p, optimize=False, compress_level=1)
    code, _, err = _scan(capsys, p)
    assert code == 1
    assert "megapixels" in err


def test_large_jpeg_is_downscaled(tmp_path):
    img = np.full((3000, 4500, 3), 200, np.uint8)
    p = tmp_path / "big.jpg"
    cv2.imwrite(str(p), img)
    rgb, info = load_photo(p)
    assert max(rgb.shape[:2]) <= WORK_SIDE
    assert info["original_size"] == (4500, 3000)


def test_exif_orientation_is_respected(tmp_path):
    # stored landscape, left half red; EXIF orientation 6 = shown rotated 90 degrees clockwise
    img = Image.new("RGB", (400, 200), (255, 255, 255))
    img.paste((255, 0, 0), (0, 0, 200, 200))
    exif = Image.Exif()
    exif[0x0112] = 6
    p = tmp_path / "phone.jpg"
    img.save(p, exif=exif.tobytes())
    rgb, _ = load_photo(p)
    assert rgb.shape[:2] == (400, 200)  # portrait as shown
    top, bottom = rgb[20, 100], rgb[380, 100]
    assert top[0] > 200 and top[1] < 80       # the red half is now on top
    assert bottom.min() > 200


def test_folder_and_tiny_image(tmp_path):
    with pytest.raises(VisionError):
        load_photo(tmp_path)
    p = tmp_path / "tiny.png"
    Image.new("RGB", (10, 10)).save(p)
    with pytest.raises(VisionError, match="too small"):
        load_photo(p)


def test_scan_needs_a_photo_or_a_camera(capsys):
    code = main(["scan"])
    assert code == 2
    assert "PHOTO" in capsys.readouterr().err


def test_missing_camera_is_a_clear_error(capsys):
    code, _, err = _scan(capsys, "--camera", "97")
    assert code == 1
    assert "camera 97" in err


@pytest.mark.parametrize("side", [1600, 1450, 1520, 1700])
def test_photo_read_at_a_smaller_size_is_its_pixels_averaged(tmp_path, side):
    # a large photo read at a smaller size (the working image, the finer reading of small
    # indices) is the file's pixels averaged over each output pixel: no detail aliased away,
    # the light of the photo kept
    rng = np.random.default_rng(side)
    img = cv2.resize(rng.integers(0, 256, (150, 200, 3), np.uint8), (2000, 1500),
                     interpolation=cv2.INTER_CUBIC)
    p = tmp_path / "big.png"
    cv2.imwrite(str(p), img)
    rgb, info = load_photo(p, work_side=side)
    size = (side, round(1500 * side / 2000))
    assert rgb.shape == (size[1], size[0], 3) and info["scale"] == pytest.approx(side / 2000)
    want = cv2.resize(img[..., ::-1], size, interpolation=cv2.INTER_AREA)
    assert np.array_equal(rgb, want)
    assert abs(rgb.astype(float).mean() - img.astype(float).mean()) < 0.5


def test_photo_decoded_ahead_reads_the_same(tmp_path):
    # `scan` decodes a large photo again while it reads the working image, for the finer
    # reading: the pixels are those read from the file, whichever size is asked for
    from companion.vision.image import decode_photo
    rng = np.random.default_rng(2)
    img = cv2.resize(rng.integers(0, 256, (60, 80, 3), np.uint8), (2400, 1800),
                     interpolation=cv2.INTER_CUBIC)
    p = tmp_path / "big.jpg"
    cv2.imwrite(str(p), img)
    early = decode_photo(p, 1600)
    for side in (1600, 1300, 1000):   # the last one a JPEG decoded at half size
        got, info = load_photo(p, work_side=side, decoded=early)
        want, info2 = load_photo(p, work_side=side)
        assert np.array_equal(got, want) and info == info2
