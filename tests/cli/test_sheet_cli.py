"""`companion sheet` and `companion printables` as a user drives them."""

from __future__ import annotations

import pytest

from companion.rules import variant_keys

pypdf = pytest.importorskip("pypdf", reason="pypdf is a test dependency: pip install -e '.[test]'")


def _pages(path) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(path).pages]


def test_one_sheet(run, tmp_path):
    out = tmp_path / "k.pdf"
    code, stdout, _ = run("sheet", "klondike", "--seed", "42", "-o", str(out), "--paper",
                          "letter", "--option", "draw=1")
    assert code == 0 and "wrote" in stdout and "2 pages" in stdout
    pages = _pages(out)
    assert len(pages) == 2
    assert "seed 42" in pages[0] and "companion:klondike:42:draw=1:" in pages[0]
    # the description under the title is the game as configured
    flat = " ".join(pages[0].split())
    assert "turned one card at a time" in flat and "three" not in flat
    assert "Move log" in pages[1]
    box = pypdf.PdfReader(out).pages[0].mediabox
    assert round(float(box.height)) == 792


def test_default_name_in_the_current_folder(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, stdout, _ = run("sheet", "golf", "--seed", "3", "--option", "kings_block=true")
    assert code == 0
    [made] = list(tmp_path.glob("*.pdf"))
    assert made.name == "golf_kings_block-true-seed3.pdf"
    assert made.name in stdout


def test_booklet_of_seeds(run, tmp_path):
    out = tmp_path / "b.pdf"
    code, _, _ = run("sheet", "spider", "--seeds", "1-3,7", "-o", str(out), "--no-play-page")
    assert code == 0
    pages = _pages(out)
    assert [f"seed {s}" in p for s, p in zip((1, 2, 3, 7), pages, strict=True)] == [True] * 4


def test_all_variants(run, tmp_path):
    out = tmp_path / "all.pdf"
    code, _, _ = run("sheet", "--all-variants", "--seed", "5", "-o", str(out), "--mono",
                     "--no-play-page")
    assert code == 0
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == len(variant_keys())
    k = variant_keys().index("accordion")
    assert "companion:accordion:5::" in reader.pages[k].extract_text()


def test_random_seed_is_shown(run, tmp_path):
    code, stdout, _ = run("sheet", "pyramid", "-o", str(tmp_path / "p.pdf"))
    assert code == 0 and "chosen at random" in stdout


@pytest.mark.parametrize("args, needle", [
    (("sheet",), "say which game"),
    (("sheet", "klondike", "--all-variants"), "not both"),
    (("sheet", "klondike", "--seed", "1", "--seeds", "1-3"), "not both"),
    (("sheet", "klondike", "--seeds", "9-2"), "backwards"),
    (("sheet", "klondike", "--seeds", "one"), "1-20"),
    (("sheet", "klondike", "--seeds", ""), "is empty"),
    (("sheet", "klondike", "--seeds", "1-5000"), "more than"),
    (("sheet", "--all-variants", "--option", "draw=1"), "one variant"),
    (("sheet", "klondike", "--seed", "1", "--option", "draw=2"), "draw"),
    (("sheet", "klondike", "--seed", "1", "--paper", "a5"), "a5"),
    (("sheet", "klondyke", "--seed", "1"), "klondike"),
])
def test_usage_errors(run, args, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(*args)
    assert code == 2
    assert needle in err
    assert "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_unwritable_path(run, tmp_path):
    (tmp_path / "file").write_text("x")
    code, _, err = run("sheet", "klondike", "--seed", "1", "-o", str(tmp_path / "file" / "k.pdf"))
    assert code == 1
    assert "cannot write" in err and "-o" in err and "Traceback" not in err
    code, _, err = run("sheet", "klondike", "--seed", "1", "-o", str(tmp_path))
    assert code != 0 and "Traceback" not in err


def test_a_file_that_is_not_a_pdf_is_kept_unless_forced(run, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    code, _, err = run("sheet", "golf", "--seed", "1", "-o", str(notes))
    assert code == 1 and "is not a PDF" in err and "--force" in err and "Traceback" not in err
    assert notes.read_text() == "my notes"
    code, stdout, _ = run("sheet", "golf", "--seed", "1", "-o", str(notes), "--force")
    assert code == 0 and notes.read_bytes().startswith(b"%PDF")


def test_one_page_is_one_page(run, tmp_path):
    code, stdout, _ = run("sheet", "golf", "--seed", "1", "-o", str(tmp_path / "g.pdf"),
                          "--no-play-page")
    assert code == 0 and "(1 deal, 1 page," in stdout


def test_dash_writes_the_pdf_to_standard_output(tmp_path):
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "companion", "sheet", "golf", "--seed", "1",
                           "-o", "-"], cwd=tmp_path, capture_output=True, timeout=120)
    assert done.returncode == 0
    assert done.stdout.startswith(b"%PDF") and done.stdout.rstrip().endswith(b"%%EOF")
    assert b"wrote standard output" in done.stderr
    assert not list(tmp_path.iterdir())  # no file called "-"


def test_winnable_without_verdicts(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    import companion.seeds
    monkeypatch.setattr(companion.seeds, "verdicts", lambda key, directory=None: {1: "-"})
    code, _, err = run("sheet", "klondike", "--winnable")
    assert code == 1
    assert "No proved-winnable seeds are catalogued for klondike" in err
    assert "has not filled the verdict column" in err
    assert not list(tmp_path.iterdir())


def test_winnable_where_the_solver_proved_none(run, tmp_path, monkeypatch):
    # Spider's catalogue is filled, but no deal was won within the budget: say so, not
    # that the column is empty.
    monkeypatch.chdir(tmp_path)
    import companion.seeds
    monkeypatch.setattr(companion.seeds, "verdicts",
                        lambda key, directory=None: {1: "unknown", 2: "lost", 3: "unknown"})
    code, _, err = run("sheet", "spider", "--winnable")
    assert code == 1
    assert "none of the 3 catalogued seeds is proved winnable" in err
    assert "proved 1 lost" in err and "other 2" in err and "Leave out --winnable" in err
    assert not list(tmp_path.iterdir())


def test_winnable_with_verdicts(run, tmp_path, monkeypatch):
    import companion.seeds
    monkeypatch.setattr(companion.seeds, "verdicts",
                        lambda key, directory=None: {4: "lost", 5: "won", 9: "won", 12: "won"})
    out = tmp_path / "w.pdf"
    code, _, err = run("sheet", "klondike", "--seeds", "1-10", "--winnable", "-o", str(out),
                       "--no-play-page")
    assert code == 0
    pages = _pages(out)
    assert len(pages) == 2 and "seed 5" in pages[0] and "seed 9" in pages[1]
    # the seeds left out are named, with why
    assert "seed 4 (proved lost)" in err and "seeds 1-3, 6-8, 10 (not in the catalogue" in err
    code, _, err = run("sheet", "klondike", "--seed", "4", "--winnable", "-o", str(out))
    assert code == 1 and "seed 4 (proved lost)" in err and "5, 9, 12" in err
    code, _, err = run("sheet", "klondike", "--winnable", "--option", "draw=1", "-o", str(out))
    assert code == 2 and "default options" in err


def test_winnable_seeds_outside_the_catalogue(run, tmp_path, monkeypatch):
    import companion.seeds
    monkeypatch.setattr(companion.seeds, "verdicts",
                        lambda key, directory=None: {s: "won" for s in range(1, 101)})
    out = tmp_path / "w.pdf"
    code, _, err = run("sheet", "klondike", "--seed", "500", "--winnable", "-o", str(out))
    assert code == 1 and not out.exists()
    assert "seed 500 (not in the catalogue: seeds/klondike.tsv covers seeds 1-100)" in err
    code, _, err = run("sheet", "klondike", "--seeds", "99-102", "--winnable", "-o", str(out))
    assert code == 0 and len(_pages(out)) == 4
    assert "skipped seeds 101-102 (not in the catalogue" in err


def test_winnable_alone_prints_one_sheet(run, tmp_path, monkeypatch):
    import companion.seeds
    monkeypatch.setattr(companion.seeds, "verdicts",
                        lambda key, directory=None: {4: "lost", 5: "won", 9: "won"})
    out = tmp_path / "w.pdf"
    code, stdout, _ = run("sheet", "klondike", "--winnable", "-o", str(out), "--no-play-page")
    assert code == 0 and "chosen at random from the 2 seeds proved winnable" in stdout
    [page] = _pages(out)
    assert "seed 5" in page or "seed 9" in page


def test_printables_into_a_folder(run, tmp_path):
    folder = tmp_path / "assets"
    code, stdout, _ = run("printables", str(folder))
    assert code == 0
    assert sorted(p.name for p in folder.iterdir()) == [
        "play-mat-a4.pdf", "play-mat-letter.pdf", "sample-booklet.pdf"]
    assert stdout.count("wrote") == 3
