"""docs/rules.md, the rules the engine follows: every section the code, the worksheet functions
and the documents cite is a heading of it, and nothing sends the reader outside the
repository for a rule or a source."""

import re
from pathlib import Path

import pytest

from tests.paths import DOCS, ROOT

RULES = DOCS / "rules.md"
SECTIONS = frozenset(
    re.findall(r"^#{2,4} §([0-9]+[a-z]?(?:\.[0-9]+)?)\. ", RULES.read_text("utf-8"), re.M)
)
"""The section numbers docs/rules.md has headings for ("1", …, "11b", …, "13")."""

CITING = ("xlgrade", "udfs", "docs", "benchmarks", "examples", "tests")
"""Where citations are looked for, with the documents at the top of the repository."""

_CITATION = re.compile(
    r"docs/rules\.md[\s#]*((?:§[0-9]+[a-z]?(?:\.[0-9]+)?(?:\s*(?:–|-|to|and|,)\s*)?)+)"
)
_SECTION = re.compile(r"§([0-9]+[a-z]?(?:\.[0-9]+)?)")
_OUTSIDE = re.compile(
    "|".join(
        [
            r"GRADING[-]RULES",  # the specification outside the repository
            r"/work/",
            r"\.\./shared/",
            r"shared/reference",
            r"[a-z0-9-]+-(?:leaflet|ratings|systems|horizon|examples)\.txt",
        ]
    )
)
"""References to a file outside the repository (written so that they do not match
themselves)."""


def _texts() -> list[Path]:
    files = sorted(ROOT.glob("*.md"))
    for top in CITING:
        files += sorted(p for p in (ROOT / top).rglob("*") if p.suffix in (".py", ".md"))
    return [p for p in files if p != Path(__file__)]


def _cited(text: str) -> list[str]:
    return [s for m in _CITATION.finditer(text) for s in _SECTION.findall(m.group(1))]


def test_the_sections_are_numbered_as_cited() -> None:
    assert {str(n) for n in range(1, 14)} | {"11b"} <= SECTIONS


@pytest.mark.parametrize(
    ("text", "sections"),
    [
        ("(docs/rules.md §13)", ["13"]),
        ("docs/rules.md\n    §2 to §6", ["2", "6"]),
        ("(docs/rules.md §2–§7)", ["2", "7"]),
        ("docs/rules.md §3, §5) on", ["3", "5"]),
        ("# docs/rules.md\n# §11b", ["11b"]),
        ("docs/rules.md §… through", []),
    ],
)
def test_a_citation_is_read_with_every_section_it_names(text: str, sections: list[str]) -> None:
    assert _cited(text) == sections


def test_every_cited_section_is_in_the_document() -> None:
    missing = [
        f"{path.relative_to(ROOT)}: §{section}"
        for path in _texts()
        for section in _cited(path.read_text("utf-8"))
        if section not in SECTIONS
    ]
    assert missing == []


def test_the_document_cites_its_own_sections() -> None:
    text = RULES.read_text("utf-8")
    assert set(_SECTION.findall(text)) <= SECTIONS


def test_nothing_refers_to_a_file_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _texts()
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
        if _OUTSIDE.search(line)
    ]
    assert found == []
