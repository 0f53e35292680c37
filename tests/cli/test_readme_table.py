"""The README's variants table lists every variant with the options the engine has, so that
it cannot drift from `companion variants` again."""

from __future__ import annotations

import re
from pathlib import Path

from companion.rules import load_variant, variant_keys

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_variants_table_names_every_variant_and_its_options():
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| [^|]+ \| [^|]+ \| ([^|]+) \|$",
                      README.read_text(encoding="utf-8"), flags=re.M)
    table = {key: re.findall(r"`([a-z_]+)`", cell) for key, cell in rows}
    assert list(table) == list(variant_keys())
    for key, names in table.items():
        assert names == [spec.name for spec in load_variant(key).option_specs], key
