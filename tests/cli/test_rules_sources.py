"""What `companion variants VARIANT`, `companion rules VARIANT` and the README cite is in the
repository: a player who reads "source: ... see docs/rules.md" can open it (they used to cite
RULES.md 2.4 and ../shared/RULES.md, research notes that do not ship with the project)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.rules import load_variant, variant_keys

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "rules.md"


def cited_files(text: str) -> set[str]:
    """Every file a text names: ``name.md`` words, and markdown link targets that are not
    web addresses."""
    words = set(re.findall(r"[\w./-]*\.md\b", text))
    links = {t for t in re.findall(r"\]\(([^)\s]+)\)", text)
             if not re.match(r"[a-z]+:|#", t)}
    return words | links


@pytest.mark.parametrize("command", ["variants", "rules"])
def test_the_source_line_cites_a_file_that_ships(run, command):
    for key in variant_keys():
        code, out, err = run(command, key)
        assert code == 0, err
        line = next(ln for ln in out.splitlines() if ln.lower().startswith("source:"))
        assert load_variant(key).source in line, (key, line)
        assert "docs/rules.md" in line, (key, line)
        for name in cited_files(out):
            assert (REPO / name).is_file(), (key, name, line)


def test_json_source_is_the_variants_own():
    # --json keeps its form: the source as the catalogue has it, no research-note reference
    for key in variant_keys():
        assert "RULES.md" not in load_variant(key).source, key


def test_docs_rules_lists_every_variants_sources_and_explains_their_tags():
    text = DOC.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z0-9-]+)` \| [^|]+ \| (.+) \|$", text, flags=re.M))
    assert list(rows) == list(variant_keys())
    tags = set(re.findall(r"^\| (S\d|[A-Z][\w' &]+?)(?: N)? \|", text, flags=re.M))
    for key, source in rows.items():
        assert source == load_variant(key).source, key
        for tag in re.findall(r"\bS\d\b|PySolFC|Solvitaire|Wikipedia|Dick", source):
            assert any(t.startswith(tag) for t in tags), (key, tag)


def test_the_readme_links_only_to_files_in_the_repository():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    for name in cited_files(text):
        path = (REPO / name.partition("#")[0]).resolve()
        assert path.is_relative_to(REPO) and path.is_file(), name
