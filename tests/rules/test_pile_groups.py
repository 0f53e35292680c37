"""The engine's piles by group (``Engine.groups``), the names its consumers read: the same
piles as the engine's own short names, and no module outside the engine reads those."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import companion
from companion.rules import load_variant, variant_keys

SHORT = {"T": "tableau", "R": "reserve", "F": "foundations", "P": "pyramid", "G": "grid",
         "S": "stock", "W": "waste", "X": "aside", "Tset": "tableau_set",
         "Rset": "reserve_set", "Fset": "foundation_set"}


@pytest.mark.parametrize("key", variant_keys())
def test_the_groups_are_the_engines_piles(key):
    eng = load_variant(key).engine()
    g = eng.groups
    for short, name in SHORT.items():
        assert getattr(g, name) == getattr(eng, short), name
    names = eng.names
    assert all(names[i][0] == "t" for i in g.tableau)
    assert all(names[i][0] == "f" for i in g.foundations)
    assert g.stock == (names.index("s") if "s" in names else -1)


def _engine_expr(node: ast.expr) -> bool:
    """``eng``, ``engine`` or ``<anything>.engine``: what names an engine in the code."""
    return (isinstance(node, ast.Name) and node.id in ("eng", "engine")) or \
        (isinstance(node, ast.Attribute) and node.attr == "engine")


def test_no_consumer_reads_the_engines_short_names():
    root = Path(companion.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        if path == root / "rules" / "engine.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Attribute) and node.attr in SHORT \
                    and _engine_expr(node.value):
                found.append(f"{path.relative_to(root)}:{node.lineno}: .{node.attr} "
                             f"(read .groups.{SHORT[node.attr]})")
    assert not found, "\n".join(found)
