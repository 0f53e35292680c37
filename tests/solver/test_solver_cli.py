"""`companion solve`, `hint`, `survey` as a user drives them."""

from __future__ import annotations

import json

import pytest

from companion.rules import deal


def test_solve_prints_a_line_that_check_accepts(run, tmp_path):
    for seed in range(1, 30):
        code, out, _ = run("solve", "klondike", "--seed", str(seed), "--nodes", "2000")
        if code == 0:
            break
    else:
        pytest.fail("no deal won within 2000 nodes")
    line = tmp_path / "line.txt"
    line.write_text(out)
    code, out, _ = run("check", "klondike", "--seed", str(seed), "--moves-file", str(line),
                       "-q")
    assert code == 0 and "Won." in out


def test_solve_lost_or_unknown_exits_1_with_a_comment_line(run):
    code, out, _ = run("solve", "streets-and-alleys", "--seed", "9", "--json")
    data = json.loads(out)
    assert data["verdict"] in ("won", "lost", "unknown")
    code, out, _ = run("solve", "solitaire", "--seed", "1", "--nodes", "5")
    assert code == 1 and out.startswith("# Unknown")


def test_hint_json_and_peek(run):
    code, out, _ = run("hint", "klondike", "--seed", "3", "--samples", "2", "--timeout",
                       "0.5", "--json")
    data = json.loads(out)
    assert code == 0 and data["move"] and data["peeked"] is False
    assert deal("klondike", 3).check(data["move"]).ok
    code, out, _ = run("hint", "klondike", "--seed", "3", "--peek", "--timeout", "2")
    assert code == 0 and out.startswith("Hint: ") and "peek" in out


def test_hint_from_a_position_file_and_after(run, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(deal("streets-and-alleys", 9).to_json()))
    code, out, _ = run("hint", "streets-and-alleys", "--position", str(path))
    assert code == 0 and "Hint:" in out
    code, _, err = run("hint", "klondike", "--seed", "3", "--after", "t9 t1")
    assert code == 1 and "refused" in err


def test_hint_takes_the_variant_as_an_option_too(run, tmp_path):
    # `hint --position FILE --variant V`, the form the photo and position docs use.
    path = tmp_path / "p.json"
    path.write_text(json.dumps(deal("streets-and-alleys", 9).to_json()))
    code, out, _ = run("hint", "--position", str(path), "--variant", "streets", "--json")
    assert code == 0
    _, same, _ = run("hint", "streets-and-alleys", "--position", str(path), "--json")
    assert json.loads(out)["move"] == json.loads(same)["move"]
    code, _, err = run("hint", "klondike", "--variant", "golf", "--seed", "3")
    assert code == 2 and "two variants" in err
    code, _, err = run("hint", "--seed", "3")
    assert code == 2 and "name the game" in err
    code, _, err = run("hint", "--variant", "klondek", "--seed", "3")
    assert code == 2 and "klondike" in err  # the typo's close match is suggested


def test_bad_input_is_a_usage_error_not_a_traceback(run, tmp_path):
    code, _, err = run("hint", "klondike", "--seed", "3", "--samples", "0")
    assert code == 2 and "more than 0" in err
    path = tmp_path / "p.json"
    path.write_text(json.dumps(deal("klondike", None).to_json()))
    code, _, err = run("solve", "klondike", "--position", str(path))
    assert code == 2 and "not seen" in err
    code, _, err = run("hint", "klondike", "--position", str(path), "--peek")
    assert code == 2 and "peek" in err
    code, _, err = run("survey", "golf", "--seeds", "9-1")
    assert code == 2 and "--seeds" in err


def test_survey_reports_the_rate_and_writes_the_results(run, tmp_path):
    out = tmp_path / "s.jsonl"
    code, text, err = run("survey", "streets-and-alleys", "--seeds", "1-4", "--jobs", "1",
                          "--nodes", "100", "--out", str(out))
    assert code == 0 and "observed win rate" in text and "[4/4]" in err
    assert len(out.read_text().splitlines()) == 4


def test_a_resumed_survey_with_a_larger_budget_says_it_solves_the_unknowns_again(run, tmp_path):
    # issue 49: "30 s per deal ... unknown 2" printed over the unknowns of a 10 s run
    out = tmp_path / "s.jsonl"
    args = ("survey", "streets-and-alleys", "--seeds", "1-4", "--jobs", "1", "--out", str(out))
    code, text, _ = run(*args, "--nodes", "30")
    assert code == 0 and "10 s and 30 positions per deal: won 0, lost 1, unknown 3" in text
    code, text, err = run(*args, "--nodes", "3000")
    assert code == 0
    assert (f"Solving again 3 deals left unknown in {out} with a smaller budget (3 at 10 s "
            f"and 30 positions per deal), now at 10 s and 3000 positions per deal.") in err
    assert "10 s and 3000 positions per deal: won 2, lost 2, unknown 0 of 4" in text
    assert "3 deals left unknown with a smaller budget (3 at 10 s and 30 positions per deal) " \
           "were solved again at 10 s and 3000 positions per deal." in text
    # a smaller budget keeps what is there, and says which budget an unknown had
    out.write_text(out.read_text().replace('"verdict": "won"', '"verdict": "unknown"'))
    code, text, err = run(*args, "--nodes", "300", "--timeout", "5")
    assert code == 0 and "Solving again" not in err
    assert "5 s and 300 positions per deal: won 0, lost 2, unknown 2" in text
    assert "Of the 2 unknown deals, 2 are from an earlier run with another budget: 2 at 10 s " \
           "and 3000 positions per deal." in text
