"""The layers of ``companion``, read from the source with ``ast`` (issue #48, part 4).

From the bottom up: cards and errors; the rules (with PySolFC's numbered deals, a deal source
of the rules); the consumers of the rules — record, solver, vision, render and the seeds
catalogue — which do not depend on each other; the application layer, ``app`` (photo to
position, hint, verify, and the recorder's ``Session`` with the board, the hint and ``scan``
plugged in); the command line.

A module may import from its own package and from lower layers. Every other ``companion``
import, at the top of a module or inside a function, is a violation, and so is an import
cycle between packages. Today's violations are listed in :data:`ALLOWED`, one line each; the
list can only shrink: an entry whose import has gone fails the test too, so delete it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "companion"

UNITS: dict[str, int] = {
    # unit (the package, or a top-level module) -> layer
    "companion": 0,  # the package itself: its version
    "cards": 0,
    "paths": 0,  # where the files live: the game database, the calibrated decks
    "errors": 0,
    "rules": 1,
    "pysolfc": 1,  # PySolFC's numbered deals: a deal source beside the rules' own shuffle
    "record": 2,
    "solver": 2,
    "vision": 2,
    "render": 2,
    "seeds": 2,  # the seeds catalogue: fingerprints of the rules' deals
    "app": 3,  # the application layer: photo to position, hint, verify, the recorder's Session
    "cli": 4,
    "__main__": 4,
}

DOWNWARD: set[tuple[str, str]] = {
    # imports between units of one layer that go the right way
    ("cards", "errors"),
    ("pysolfc", "rules"),  # PySolFC's deals are laid out by the rules' deal plans
    ("__main__", "cli"),
}

ALLOWED: set[str] = {
    # importer -> imported module. Delete a line when its import goes; never add one lightly.
    # the rules name PySolFC's game numbers and deal its deck order (pysolfc -> rules is the
    # right way: it lays its deals out through the rules' deal plans)
    "companion.rules -> companion.pysolfc",
    "companion.rules.position -> companion.pysolfc",
    # the solver's survey fills the seeds catalogue's verdict column and parses its ranges
    "companion.solver.survey -> companion.seeds",
}

ALLOWED_CYCLES: set[frozenset[str]] = {
    frozenset({"rules", "pysolfc"}),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


FILES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The ``companion`` modules an import statement loads (``from pkg import sub`` names
    the submodule when there is one)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == "companion"]
    if node.level:
        base = module if FILES[module].name == "__init__.py" else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        base += f".{node.module}" if node.module else ""
    else:
        base = node.module or ""
    if base.split(".")[0] != "companion":
        return []
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in FILES else base for a in node.names]


def _loaded(tree: ast.Module) -> list[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``: imports for annotations
    only, which load nothing."""
    out, todo = [], [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) \
                    and child.test.id == "TYPE_CHECKING":
                todo.extend(child.orelse)
            else:
                todo.append(child)
    return out


def imports() -> list[tuple[str, str, int]]:
    """(importer, imported, line) for every ``companion`` import, wherever it sits (but
    under ``if TYPE_CHECKING:``)."""
    out = []
    for module, path in FILES.items():
        for node in _loaded(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                out.extend((module, target, node.lineno) for target in _targets(module, node))
    return out


def unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_every_unit_has_a_layer():
    assert {unit(m) for m in FILES} <= set(UNITS)


def _violations() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for importer, target, line in imports():
        a, b = unit(importer), unit(target)
        if a == b or UNITS[a] > UNITS[b] or (a, b) in DOWNWARD:
            continue
        where = f"{FILES[importer].relative_to(ROOT.parent)}:{line}"
        lines = found.setdefault(f"{importer} -> {target}", [])
        if where not in lines:
            lines.append(where)
    return found


def test_no_module_imports_upward_or_sideways():
    new = {k: v for k, v in _violations().items() if k not in ALLOWED}
    assert not new, ("imports from a higher layer or a sibling package (move the code to the "
                     "layer that owns it):\n" + "\n".join(f"{k}  ({', '.join(v)})"
                                                        for k, v in sorted(new.items())))


def test_the_allow_list_is_true():
    gone = ALLOWED - set(_violations())
    assert not gone, f"these imports are gone: delete their lines from ALLOWED: {sorted(gone)}"


def _cycles(edges: set[tuple[str, str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_between_packages():
    edges = {(unit(a), unit(b)) for a, b, _ in imports() if unit(a) != unit(b)}
    cycles = set(_cycles(edges))
    assert cycles <= ALLOWED_CYCLES, f"new cycles: {sorted(map(sorted, cycles - ALLOWED_CYCLES))}"
    assert cycles >= ALLOWED_CYCLES, (f"these cycles are broken: delete them from "
                                      f"ALLOWED_CYCLES: {sorted(map(sorted, ALLOWED_CYCLES - cycles))}")


def test_the_cycle_finder_finds_cycles():
    assert _cycles({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [frozenset("abc")]
    assert _cycles({("a", "b"), ("b", "c")}) == []


ALLOWED_MODULE_CYCLES: set[frozenset[str]] = {
    # modules that import each other (at the top or inside a function), each set one cycle
    frozenset({"companion.pysolfc", "companion.rules", "companion.rules.deal",
               "companion.rules.describe", "companion.rules.engine", "companion.rules.position",
               "companion.rules.variant"}),
    frozenset({"companion.cli", "companion.cli.common", "companion.cli.completion"}),
    frozenset({"companion.vision.model", "companion.vision.refine"}),
}


def test_no_new_import_cycle_between_modules():
    cycles = set(_cycles({(a, b) for a, b, _ in imports() if a != b}))
    new = cycles - ALLOWED_MODULE_CYCLES
    assert not new, f"new (or grown) cycles: {sorted(map(sorted, new))}"
    gone = ALLOWED_MODULE_CYCLES - cycles
    assert not gone, f"these cycles changed or broke: update ALLOWED_MODULE_CYCLES: {gone}"
