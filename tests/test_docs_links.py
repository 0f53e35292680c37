"""Every link in the README and in docs/ leads to a file that ships with the project, and
every picture the README shows is there: a reader who follows one never meets a dead end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", REPO / "models" / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def _anchors(page: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown page."""
    out = set()
    for title in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.M):
        slug = title.strip().lower().replace(" ", "-")
        out.add("".join(ch for ch in slug if ch.isalnum() or ch in "-_"))
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_resolves(page):
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        name, _, anchor = target.partition("#")
        path = (page.parent / name).resolve() if name else page
        assert path.is_relative_to(REPO) and path.exists(), (page.name, target)
        if anchor and path.suffix == ".md":
            assert anchor in _anchors(path), (page.name, target)


def test_the_readme_shows_a_sheet_page_and_a_scan_debug_image():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^]]+\]\(([^)]+)\)", text)
    assert any("sheet" in p for p in pictures) and any("scan" in p for p in pictures)
    for p in pictures:
        assert (REPO / p).stat().st_size > 10_000, p
