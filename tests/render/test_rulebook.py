"""docs/variants.md is the rules of every variant as the engine plays them: regenerated, it
must not differ from the committed page, so the docs cannot drift from the rules."""

from __future__ import annotations

from pathlib import Path

from companion.render.rulebook import book
from companion.rules import load_variant, variant_keys

PAGE = Path(__file__).resolve().parents[2] / "docs" / "variants.md"


def test_the_committed_rule_book_is_what_the_engine_says_today():
    assert PAGE.read_text(encoding="utf-8") == book(), (
        "docs/variants.md is out of date: run `make docs` "
        "(python -m companion.render.rulebook --write docs/variants.md)")


def test_every_variant_has_its_rules_moves_and_options_in_the_book():
    text = book()
    for key in variant_keys():
        v = load_variant(key)
        section = text.split(f"\n## {v.name}\n", 1)[1].split("\n## ", 1)[0]
        assert f"`{key}`" in section
        for line in v.describe():
            assert f"- {line}" in section, (key, line)
        for o in v.option_specs:
            assert f"| `{o.name}` |" in section, (key, o.name)
