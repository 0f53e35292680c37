"""TAB completion as each shell asks for it (click's `_COMPANION_COMPLETE` mechanism): the
scripts `companion completion SHELL` prints, and what TAB offers for commands, options,
variants, rule options and game ids; and that a TAB never prints an error."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion.cli import COMPLETE_VAR, main

ROOT = Path(__file__).resolve().parents[2]


def test_the_variable_is_the_one_click_derives_from_the_console_script():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["scripts"]
    assert list(scripts) == ["companion"]
    assert COMPLETE_VAR == "_COMPANION_COMPLETE"


@pytest.fixture
def complete(monkeypatch, capsys):
    """What TAB offers after ``line`` (a trailing space: a new, empty word), as bash asks:
    (exit code, [(value, kind)], stderr)."""
    def _complete(line: str, shell: str = "bash"):
        words = line.split()
        cword = len(words) if line.endswith(" ") else len(words) - 1
        monkeypatch.setenv(COMPLETE_VAR, f"{shell}_complete")
        monkeypatch.setenv("COMP_WORDS", line)
        monkeypatch.setenv("COMP_CWORD", str(cword))
        code = main([])
        out, err = capsys.readouterr()
        lines = out.splitlines()
        if shell == "zsh":  # type, value, help: three lines an item
            return code, lines[1::3], err
        # bash: "type,value"; fish: "type,value<TAB>help"
        return code, [ln.split(",", 1)[1].split("\t")[0] for ln in lines if ln], err
    return _complete


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_gets_a_script_that_calls_companion_back(run, shell):
    code, out, err = run("completion", shell)
    assert code == 0, err
    assert "_companion_completion" in out
    assert f"{COMPLETE_VAR}={shell}_complete" in out
    if shell == "fish":  # a description with a comma in it is not cut short
        assert 'string split -m 1 "," $completion' in out


def test_the_install_lines_of_completion_help_are_in_the_docs(run):
    _, out, _ = run("completion", "--help")
    lines = [ln.strip() for ln in out.splitlines()
             if ln.strip().startswith(("eval ", "companion completion fish >"))]
    assert len(lines) == 3
    docs = (ROOT / "docs" / "completion.md").read_text(encoding="utf-8")
    for line in lines:
        assert line in docs


def test_an_unknown_shell_is_a_usage_error(run):
    code, _, err = run("completion", "tcsh")
    assert code == 2
    assert "bash" in err and "Traceback" not in err


def test_commands_complete(complete):
    code, values, _ = complete("companion de")
    assert code == 0
    assert values == ["deal"]


def test_variant_names_and_aliases_complete(complete):
    _, values, _ = complete("companion deal kl")
    assert values[0] == "klondike"
    assert "klondike3" in values          # an alias, once something is typed
    _, values, _ = complete("companion deal ")
    assert "spider" in values and "klondike3" not in values


def test_options_complete(complete):
    _, values, _ = complete("companion deal klondike --se")
    assert values == ["--seed"]


def test_rule_options_complete_as_pairs_for_the_variant_typed(complete):
    _, values, _ = complete("companion deal klondike --option dr")
    assert values == ["draw=1", "draw=3"]
    _, values, _ = complete("companion solve golf --seed 3 -o ")
    assert values == ["kings_block=true", "kings_block=false"]
    _, values, _ = complete("companion hint --variant klondike --option pa")
    assert values == ["passes=unlimited"]
    # zsh and fish keep `draw=` as one word
    _, values, _ = complete("companion deal klondike --option draw=", shell="zsh")
    assert values[:2] == ["draw=1", "draw=3"]


def test_rule_options_need_the_variant_first(complete):
    code, values, err = complete("companion deal --option ")
    assert (code, values, err) == (0, [], "")


def test_game_ids_complete_from_the_database(run, complete, tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("s\n", encoding="utf-8")
    for variant in ("klondike", "golf"):
        code, _, err = run("play", variant, "--seed", "42", "--moves-file", str(moves), "-q")
        assert code == 0, err
    _, values, _ = complete("companion resume ")
    assert values == ["2", "1"]           # the most recent first
    _, values, _ = complete("companion hint ")
    assert values[:3] == ["2", "1", "wish"]
    _, values, err = complete(f"companion show --db {tmp_path / 'other.sqlite3'} ")
    assert values == [] and err == ""


@pytest.mark.parametrize("line", [
    "companion resume ",                          # no database yet
    "companion show --db /nonexistent/folder/games.sqlite3 ",
    "companion show --db {garbage} ",             # a file that is not a database
    "companion nosuchcommand --f",
    "companion deal nosuchvariant --option ",
    "companion deal klondike --seed abc --",
    "companion check klondike --position {garbage} s --",
])
def test_a_tab_never_prints_an_error(complete, tmp_path, line):
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\x00not a database" * 10)
    code, values, err = complete(line.format(garbage=garbage))
    assert code == 0
    assert err == ""
    assert all(v.startswith("--") for v in values)


def _companion_on_path(tmp_path: Path) -> dict:
    """An environment whose PATH starts with a ``companion`` that runs this checkout, as the
    completion scripts call ``companion`` by name."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "companion"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m companion "$@"\n', encoding="utf-8")
    exe.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def test_the_console_entry_answers_the_shell(tmp_path):
    env = {**_companion_on_path(tmp_path), COMPLETE_VAR: "bash_complete",
           "COMP_WORDS": "companion deal kl", "COMP_CWORD": "2"}
    out = subprocess.run(["companion"], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "plain,klondike" in out.stdout.splitlines()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_the_bash_script_completes_in_bash(tmp_path):
    env = _companion_on_path(tmp_path)
    script = subprocess.run(["companion", "completion", "bash"], env=env, capture_output=True,
                            text=True, timeout=60, check=True).stdout
    (tmp_path / "companion.bash").write_text(script, encoding="utf-8")
    probe = (f'source "{tmp_path / "companion.bash"}"\n'
             'COMP_WORDS=(companion deal kl); COMP_CWORD=2\n'
             '_companion_completion companion\n'
             'printf "%s\\n" "${COMPREPLY[@]}"\n')
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c", probe], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "klondike" in out.stdout.split()
