"""The reading's thresholds and switches live in one frozen object
(`companion.vision.config.ReadConfig`), passed to the reading as ``config=``: a test or a
benchmark reads with `dataclasses.replace(DEFAULT, ...)`, never by patching a module
attribute. These keep it so: no module-level tunable comes back in the reading's modules."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
from pathlib import Path

import pytest

import companion.vision
from companion.vision import piles, read, scan
from companion.vision.config import DEFAULT, ReadConfig

FOLDER = Path(companion.vision.__file__).parent
MODULES = ("read.py", "detection.py", "ink.py", "lone.py", "resolve.py", "piles.py", "scan.py",
           "frame.py", "columns.py", "rows.py", "fans.py", "face_down.py", "infer.py",
           "second_look.py", "candidate.py")

# module constants that are no tunables: the words of notes the commands look for, lookup
# tables, where the upright crop shows its glyph and pip
NOT_TUNABLES = {"TOO_SMALL", "COPY_TOO_MANY", "TWIN_READ", "_TWIN_SUIT", "GLYPH_ROWS",
                "PIP_ROWS", "WINDOW_COLS", "LEAN_TURNS"}

ENTRY_POINTS = [read.read_cards, read.read_photo, read.resolve, read.ink_suits,
                piles.map_piles, piles.find_unread, piles.recheck_builds,
                piles.infer_from_build, piles.fill_gaps, piles.infer_from_foundations,
                scan.scan_photo]


def _tree(name):
    return ast.parse((FOLDER / name).read_text(encoding="utf-8"))


def test_the_config_is_frozen():
    assert ReadConfig() == DEFAULT
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT.threshold = 0.5
    changed = dataclasses.replace(DEFAULT, lone_pips=False)
    assert not changed.lone_pips and DEFAULT.lone_pips


@pytest.mark.parametrize("function", ENTRY_POINTS, ids=lambda f: f.__qualname__)
def test_every_reading_entry_point_takes_a_config(function):
    parameter = inspect.signature(function).parameters["config"]
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
    assert parameter.default is DEFAULT


@pytest.mark.parametrize("name", MODULES)
def test_no_module_level_tunable(name):
    """A module-level UPPERCASE name in the reading's modules is a note's words or a table,
    never a threshold or a switch (those are :class:`ReadConfig`'s fields); nor is any other
    module-level name given a number or a truth value."""
    found = set()
    for node in _tree(name).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        names = {t.id for target in targets for t in ast.walk(target) if isinstance(t, ast.Name)}
        number = node.value is not None and any(
            isinstance(v, ast.Constant) and isinstance(v.value, (bool, int, float))
            for v in ast.walk(node.value)) if names else False
        found |= {n for n in names - NOT_TUNABLES
                  if number or re.fullmatch(r"_?[A-Z][A-Z0-9_]*", n)}
    assert not found, found


@pytest.mark.parametrize("name", MODULES)
def test_a_function_using_the_config_is_given_it(name):
    """No function of the reading's modules reads a ``config`` it is not passed (a nested
    function may use its enclosing function's), so none reads a module-level one."""
    def visit(node, scope, where):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.Lambda)):
                a = child.args
                own = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
                visit(child, scope | own, getattr(child, "name", where))
            elif isinstance(child, ast.Name) and child.id == "config" \
                    and isinstance(child.ctx, ast.Load):
                assert "config" in scope, (name, where)
            else:
                visit(child, scope, where)
    visit(_tree(name), set(), "module")


def test_every_setting_is_used():
    source = "".join((FOLDER / n).read_text(encoding="utf-8") for n in MODULES)
    for f in dataclasses.fields(ReadConfig):
        assert re.search(rf"config\.{f.name}\b", source), f.name
