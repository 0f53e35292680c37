"""Ctrl-C in a survey: the deals done stay in the file, the user is told how to resume, and
no worker process prints a traceback of its own."""

from __future__ import annotations

import json
import subprocess
import sys

from companion.solver import survey


def test_an_interrupted_survey_says_what_is_saved_and_resumes(run, tmp_path, monkeypatch):
    out = tmp_path / "s.jsonl"
    real = survey.solve_seed

    def interrupted_at_seed_2(task):
        if task[2] == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(survey, "solve_seed", interrupted_at_seed_2)
    code, _, err = run("survey", "wish", "--seeds", "1-3", "--jobs", "1", "--timeout", "5",
                       "--out", str(out))
    assert code == 130
    assert f"Interrupted: 1 of 3 deals are in {out}; run the same command again" in err
    assert "Aborted" not in err
    assert [json.loads(line)["seed"] for line in out.read_text().splitlines()] == [1]

    solved = []
    monkeypatch.setattr(survey, "solve_seed", lambda task: solved.append(task[2]) or real(task))
    code, _, err = run("survey", "wish", "--seeds", "1-3", "--jobs", "1", "--timeout", "5",
                       "--out", str(out))
    assert code == 0, err
    assert solved == [2, 3]
    assert sorted(json.loads(line)["seed"] for line in out.read_text().splitlines()) == [1, 2, 3]


def test_a_survey_worker_leaves_ctrl_c_to_the_parent():
    code = ("import os, signal\n"
            "from companion.solver.survey import ignore_interrupt\n"
            "ignore_interrupt()\n"
            "os.kill(os.getpid(), signal.SIGINT)\n"
            "print('still solving')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout == "still solving\n"
    assert "KeyboardInterrupt" not in done.stderr


def test_a_survey_file_cut_mid_line_gets_its_next_record_on_a_line_of_its_own(tmp_path):
    # a survey killed while writing leaves half a line: the resumed run's first record must
    # not be glued to it (and so lost, and solved again on every later run)
    out = tmp_path / "s.jsonl"
    survey.run("wish", {}, [1, 2], seconds=5, jobs=1, out=out)
    text = out.read_text()
    out.write_text(text[:-30])
    survey.run("wish", {}, [1, 2, 3], seconds=5, jobs=1, out=out)
    lines = out.read_text().splitlines()
    assert len(lines) == 4
    good = [json.loads(line)["seed"] for line in lines if line.endswith("}")]
    assert sorted(good) == [1, 2, 3]
    assert set(survey.read_done(out, "wish")) == {1, 2, 3}
