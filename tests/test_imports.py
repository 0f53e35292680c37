"""Import budget and import direction, checked in fresh interpreters."""

from __future__ import annotations

import subprocess
import sys


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def test_help_loads_no_engine_and_no_heavy_library():
    mods = _modules_after("from companion.cli import main\nmain(['--help'])")
    heavy = {m for m in mods if m.split(".")[0] in {"numpy", "cv2", "reportlab", "PIL"}}
    assert not heavy
    assert "companion.rules" not in mods


def test_rules_import_nothing_from_consumers():
    mods = _modules_after("import companion.rules\nfrom companion.rules import deal\n"
                          "deal('klondike', 1).legal_moves.count()")
    assert not {m for m in mods if m.startswith(("companion.cli", "companion.render", "click"))}
