"""docs/commands.md is generated from the click commands (companion/cli/reference.py), so it
cannot drift from `--help`: a command whose help changed fails here until it is regenerated."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import click

from companion.cli import COMMANDS, cli
from companion.cli.reference import REGENERATE, generate

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "commands.md"


def test_the_command_reference_is_current():
    assert DOC.read_text(encoding="utf-8") == generate(), \
        f"docs/commands.md is out of date with the commands' help: run {REGENERATE}"


def test_the_reference_is_the_same_whatever_the_terminal_and_the_machine(tmp_path):
    # generated elsewhere: another terminal width, home, database and locale
    env = {**os.environ, "COLUMNS": "40", "LINES": "10", "HOME": str(tmp_path),
           "XDG_DATA_HOME": str(tmp_path / "data"), "COMPANION_DB": str(tmp_path / "x.db"),
           "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-m", "companion.cli.reference"], cwd=tmp_path,
                         env=env, capture_output=True, check=True).stdout
    assert out.decode("utf-8") == generate()
    text = generate()
    for local in (str(ROOT), str(Path.home()), str(tmp_path), os.getcwd()):
        assert local not in text


def test_every_command_and_every_option_has_its_section():
    text = generate()
    sections = dict(re.findall(r"^#+ (companion[a-z ]*)\n(.*?)(?=^#+ companion|\Z)", text,
                               flags=re.M | re.S))
    assert list(sections) == ["companion"] + [f"companion {name}" for name in COMMANDS]
    ctx = click.Context(cli, info_name="companion")
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        rows = re.findall(r"^\| `([^`]+)` \|", sections[f"companion {name}"], flags=re.M)
        names = {word for row in rows for word in re.split(r"[ ,/]+", row)}
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden and "--help" not in param.opts:
                assert set(param.opts + param.secondary_opts) <= names, (name, param.opts)


def test_the_contents_links_lead_to_headings():
    text = generate()
    anchors = {re.sub(r"[^a-z0-9 _-]", "", h.lower()).replace(" ", "-")
               for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}
    links = re.findall(r"\]\(#([^)]+)\)", text)
    assert len(links) == len(COMMANDS)
    assert set(links) <= anchors


def test_write_replaces_the_file(tmp_path):
    from companion.cli.reference import main
    target = tmp_path / "commands.md"
    target.write_text("stale", encoding="utf-8")
    assert main(["--write", str(target)]) == 0
    assert target.read_bytes() == generate().encode("utf-8")
