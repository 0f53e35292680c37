"""The solver package's layout: modules of a readable size, ``search`` a façade that only
re-exports, imports at the top of each module and no import cycles among them (issue 48)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import companion

SOLVER = Path(companion.__file__).parent / "solver"
MODULES = sorted(p.stem for p in SOLVER.glob("*.py") if p.stem != "__init__")
MOST_LINES = 800  # (the target for a module)
# Modules written before the split that still import inside functions (optional libraries,
# imports put off until needed): issue 48's part 4 moves the rest to the top.
LATE_IMPORTS = {"hints", "peers", "survey"}


def tree(name: str) -> ast.Module:
    return ast.parse((SOLVER / f"{name}.py").read_text(encoding="utf-8"))


def siblings(name: str) -> set[str]:
    """The modules of the package ``name`` imports (``from .x import``, ``from . import x``)."""
    out = set()
    for node in ast.walk(tree(name)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names if a.name in MODULES)
    return out


@pytest.mark.parametrize("name", MODULES)
def test_no_module_is_too_long(name):
    lines = len((SOLVER / f"{name}.py").read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{name}.py has {lines} lines"


def test_search_only_re_exports():
    module = tree("search")
    exported = set()
    for k, node in enumerate(module.body):
        if k == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.ImportFrom) and (node.level == 1 or node.module == "__future__"):
            if node.level:
                exported.update(a.asname or a.name for a in node.names)
            continue
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__all__"]:
            assert set(ast.literal_eval(node.value)) == exported
            continue
        raise AssertionError(f"search.py line {node.lineno}: not a re-export")
    assert exported


@pytest.mark.parametrize("name", sorted(set(MODULES) - LATE_IMPORTS))
def test_imports_are_at_the_top(name):
    for node in tree(name).body:
        for inner in ast.walk(node):
            if isinstance(inner, (ast.Import, ast.ImportFrom)) and inner is not node:
                raise AssertionError(f"{name}.py line {inner.lineno}: an import inside a body")


def test_no_import_cycles():
    graph = {name: siblings(name) & set(MODULES) for name in MODULES}
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(name, path):
        state[name] = 1
        for nxt in sorted(graph[name]):
            if state.get(nxt) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path + [name, nxt]))
            if nxt not in state:
                visit(nxt, path + [name])
        state[name] = 2

    for name in MODULES:
        if name not in state:
            visit(name, [])


# Each module imported alone in a fresh interpreter, the package's __init__ (which imports
# them all through ``search``) stubbed out: it imports with its own dependencies only.
ALONE = """
import importlib, sys, types
import companion
solver = companion.__path__[0] + "/solver"
failed = []
for name in sys.argv[1:]:
    for k in [k for k in sys.modules if k.startswith("companion.solver")]:
        del sys.modules[k]
    stub = types.ModuleType("companion.solver")
    stub.__path__ = [solver]
    sys.modules["companion.solver"] = stub
    try:
        importlib.import_module("companion.solver." + name)
    except Exception as e:
        failed.append(f"{name}: {e!r}")
print("; ".join(failed))
"""


def test_each_module_imports_alone():
    out = subprocess.run([sys.executable, "-c", ALONE, *MODULES], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == ""
