"""docs/workbook-layout.md, the documented contract of the workbook's sheets and columns, names
every sheet and header the code uses."""

import pytest

from tests.paths import DOCS
from xlgrade.season import EXCEPTION_HEADERS
from xlgrade.workbook import layout
from xlgrade.workbook.outputs import CARD_SHEET_HEADERS, LIST_SHEET_HEADERS

DOC = (DOCS / "workbook-layout.md").read_text(encoding="utf-8")
ROWS = {line.split("|")[1].strip(): line for line in DOC.splitlines() if line.startswith("| ")}


@pytest.mark.parametrize(
    ("sheet", "headers"),
    [
        (layout.SETTINGS, layout.SETTINGS_HEADERS),
        (layout.PLAYERS, layout.PLAYERS_HEADERS),
        (layout.RESULTS, layout.RESULTS_HEADERS),
        ("Results (computed)", layout.RESULTS_FORMULA_HEADERS),
        (layout.GRADING_LIST, LIST_SHEET_HEADERS),
        (layout.RAPID_LIST, LIST_SHEET_HEADERS),
        (layout.PLAYER_CARDS, CARD_SHEET_HEADERS),
        (layout.EXCEPTIONS, EXCEPTION_HEADERS),
        (layout.DIVISIONS, layout.DIVISIONS_HEADERS),
        (layout.VIOLATIONS, layout.VIOLATIONS_HEADERS),
    ],
)
def test_every_header_is_documented(sheet: str, headers: tuple[str, ...]) -> None:
    assert sheet in ROWS, f"docs/workbook-layout.md has no row for {sheet!r}"
    columns = ROWS[sheet].split("|")[2]
    assert [c.strip().strip("`") for c in columns.split(",")] == list(headers)


def test_every_setting_is_documented() -> None:
    for row in layout.SETTING_ROWS:
        assert row.label in ROWS[layout.SETTINGS]
