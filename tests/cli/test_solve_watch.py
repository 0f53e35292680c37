"""A long `companion solve`: Ctrl-C stops it with an unknown verdict (in JSON too), and in a
terminal a line on stderr shows it working."""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
import time


def test_ctrl_c_stops_a_solve_with_an_unknown_verdict(run):
    before = signal.getsignal(signal.SIGINT)   # (ignored where the suite runs in the background)
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    start = time.perf_counter()
    try:
        code, out, err = run("solve", "forty-thieves", "--seed", "1", "--timeout", "30",
                             "--json")
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 10
    assert code == 1, err
    data = json.loads(out)
    assert data["verdict"] == "unknown" and data["reason"] == "stopped by Ctrl-C"
    assert "Aborted" not in err
    assert signal.getsignal(signal.SIGINT) is before  # put back


def test_a_solve_in_a_terminal_shows_the_seconds_and_clears_the_line(run, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, out, err = run("solve", "forty-thieves", "--seed", "1", "--timeout", "1.5")
    assert code == 1
    assert "\rsearching: 1 s of 1.5 s (Ctrl-C stops)" in err
    assert err.endswith("\r")  # the line wiped before the verdict
    assert out.startswith("# Unknown: time budget of 1.5 s spent")
