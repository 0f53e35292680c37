"""`companion play` in a real pseudo-terminal: typing, undo, a reveal, quit, resume, kill -9."""

from __future__ import annotations

import json
import os
import signal
import sys

import pytest

from companion.rules import deal

pexpect = pytest.importorskip("pexpect", reason="pexpect is in the test extra: pip install "
                                                "-e '.[test]'")

TIMEOUT = 20


def spawn(*args: str):
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COMPANION_DB": ""}
    child = pexpect.spawn(sys.executable, ["-m", "companion", "--ascii", *args], env=env,
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 160))
    return child


def type_line(child, line: str, then: str) -> None:
    child.sendline(line)
    child.expect_exact(then)


def test_play_undo_reveal_quit_and_resume_in_a_terminal(db_path):
    child = spawn("play", "klondike", "--physical", "--db", db_path)
    child.expect_exact("t1> ")
    type_line(child, "ah kd 2s qc 3d 4c 9h 5h", "too many cards")
    child.expect_exact("t1> ")
    type_line(child, "ah kd 2s qc 3d 4c 5h", "layout> ")
    type_line(child, "start", "move 1> ")
    type_line(child, "t4 t2", "Which card turned up on t4?")
    child.expect_exact("card on t4> ")
    type_line(child, "ah", "Ah is already face up at t1")
    type_line(child, "js", "move 2> ")
    type_line(child, "undo", "Took back t4=js.")
    child.expect_exact("card on t4> ")
    type_line(child, "jh", "move 2> ")
    type_line(child, "t6 t2", "4c cannot go on Qc")  # refused, with the reason
    child.expect_exact("move 2> ")
    type_line(child, "quit", "companion resume 1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    child = spawn("resume", "1", "--db", db_path)
    child.expect_exact("game 1, 1 move played")
    child.expect_exact("move 2> ")
    type_line(child, "s", "3 cards turned up on w")
    child.expect_exact("cards on w, bottom to top> ")
    type_line(child, "9s 8d 7c", "move 3> ")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    with_moves = json.loads(_show(db_path))
    assert with_moves["all_moves"] == ["t4 t2", "t4=jh", "s", "w=9s", "w=8d", "w=7c"]


def _show(db_path) -> str:
    import subprocess
    done = subprocess.run([sys.executable, "-m", "companion", "show", "1", "--db", db_path,
                           "--json"], capture_output=True, text=True, check=True)
    return done.stdout


def test_kill_9_in_the_middle_of_a_game_loses_no_accepted_move(db_path):
    pos = deal("klondike", 7)
    moves = []
    for _ in range(8):
        m = next(iter(pos.legal_moves))
        moves.append(str(m))
        pos.play(m)
    child = spawn("play", "klondike", "--seed", "7", "--db", db_path)
    child.expect_exact("move 1> ")
    for n, m in enumerate(moves, 2):
        type_line(child, m, f"move {n}> ")
    child.sendline("t1")  # typed, not yet accepted: the kill may come before or after it
    os.kill(child.pid, signal.SIGKILL)
    child.expect(pexpect.EOF)
    child.close()
    assert child.signalstatus == signal.SIGKILL
    stored = json.loads(_show(db_path))
    assert stored["all_moves"] == moves
    assert stored["position"] == pos.to_json()

    child = spawn("resume", "1", "--db", db_path)
    child.expect_exact(f"{len(moves)} moves played")
    child.expect_exact(f"move {len(moves) + 1}> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
