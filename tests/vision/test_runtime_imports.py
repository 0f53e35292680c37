"""Reading a photo needs none of the training code: the run-time modules of companion.vision
import nothing from the scene generator or the trainers, not even inside a function, so a
change to training cannot break `companion scan`, and the dependency graph has no cycle
through them."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.vision

TRAINING = {"synth", "train", "convnet", "designs", "refine_train"}
FOLDER = Path(companion.vision.__file__).parent


def _imported(path: Path) -> set[str]:
    """The companion.vision modules a file imports, relative or absolute, anywhere in it."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level == 1:
                out.update([mod.split(".")[0]] if mod else [a.name for a in node.names])
            elif mod.startswith("companion.vision."):
                out.add(mod.split(".")[2])
            elif mod == "companion.vision":
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names
                       if a.name.startswith("companion.vision."))
    return out


def test_the_run_time_modules_import_no_training_code():
    runtime = [p for p in FOLDER.glob("*.py") if p.stem not in TRAINING]
    assert len(runtime) >= 10
    for path in runtime:
        assert not (_imported(path) & TRAINING), (path.name, _imported(path) & TRAINING)


def test_the_trainers_are_where_make_model_calls_them():
    make = (FOLDER.parents[1] / "Makefile").read_text(encoding="utf-8")
    for module in ("convnet", "refine_train"):
        assert f"-m companion.vision.{module}" in make
        assert (FOLDER / f"{module}.py").is_file()
