"""Bad input a user may give (files that are not text, numbers that are not numbers, positions
that cannot be) is refused with a sentence that names it, never with a traceback."""

from __future__ import annotations

import io
import json  # noqa: F401  (positions below)
import sys

import pytest


def test_a_moves_file_that_is_not_utf8_is_named(run, tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"\xff t1 t7\n")
    code, out, err = run("check", "klondike", "--seed", "1", "--moves-file", str(path))
    assert code == 2 and out == ""
    assert "bad.txt is not UTF-8 text" in err and "Internal error" not in err


def test_moves_from_standard_input_that_are_not_utf8_are_named(run, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xff t1 t7\n")))
    code, _, err = run("check", "klondike", "--seed", "1", "--moves-file", "-")
    assert code == 2 and "standard input is not UTF-8 text" in err


def test_moves_from_standard_input_are_checked(run, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"t1 t7 # first\ns\n")))
    code, out, _ = run("check", "klondike", "--seed", "1", "--moves-file", "-", "-q")
    assert code == 0 and out.startswith("2 moves legal: t1 t7, s")


@pytest.mark.parametrize("args", [
    ["solve", "klondike", "--seed", "6", "--memory", "nan"],
    ["solve", "klondike", "--seed", "6", "--memory", "inf"],
    ["solve", "klondike", "--seed", "6", "--timeout", "nan"],
    ["hint", "klondike", "--seed", "6", "--timeout", "nan"],
    ["hint", "klondike", "--seed", "6", "--timeout", "-inf"],
    ["survey", "klondike", "--seeds", "1", "--timeout", "nan"],
    ["survey", "klondike", "--seeds", "1", "--timeout", "inf"],
])
def test_numbers_that_are_not_finite_are_usage_errors(run, args, tmp_path):
    code, out, err = run(*args, *(["--out", str(tmp_path / "s.jsonl")]
                                  if args[0] == "survey" else []))
    assert code == 2 and out == ""
    assert "is not a number: use a finite number such as" in err
    assert not (tmp_path / "s.jsonl").exists()
