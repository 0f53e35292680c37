"""pyproject.toml in the form today's setuptools builds without a deprecation warning."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_the_license_is_an_spdx_string_and_the_build_needs_a_setuptools_that_reads_it():
    # issue 49: `license = { text = "MIT" }` printed setuptools' deprecation block twice on
    # every `pip install -e .` (`make demo`); the SPDX string needs setuptools >= 77
    data = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert data["project"]["license"] == "MIT"
    (setuptools,) = [r for r in data["build-system"]["requires"] if r.startswith("setuptools")]
    least = re.fullmatch(r"setuptools\s*>=\s*(\d+)(\.\d+)*", setuptools)
    assert least and int(least.group(1)) >= 77, setuptools
