"""docs/workbook-layout.md, the documented contract of the workbook's sheets and columns, names
every sheet and header the code uses."""

import pytest

from tests.paths import DOCS
from xlgrade.season import CARD_HEADERS, EXCEPTION_HEADERS, LIST_HEADERS
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
        (layout.GRADING_LIST, layout.LIST_SHEET_HEADERS),
        (layout.RAPID_LIST, layout.LIST_SHEET_HEADERS),
        (layout.PLAYER_CARDS, layout.CARD_SHEET_HEADERS),
        ("Grading List (rated)", layout.RATING_LIST_SHEET_HEADERS),
        ("Player Cards (rated)", layout.RATING_CARD_SHEET_HEADERS),
        (layout.EXCEPTIONS, layout.EXCEPTIONS_HEADERS),
        (layout.DIVISIONS, layout.DIVISIONS_HEADERS),
        (layout.VIOLATIONS, layout.VIOLATIONS_HEADERS),
    ],
)
def test_every_header_is_documented(sheet: str, headers: tuple[str, ...]) -> None:
    assert sheet in ROWS, f"docs/workbook-layout.md has no row for {sheet!r}"
    columns = ROWS[sheet].split("|")[2]
    assert [c.strip().strip("`") for c in columns.split(",")] == list(headers)


def test_the_output_sheets_headers_are_the_seasons() -> None:
    """The layout takes each output header from the season's one definition, and the sheets
    the workbook writes use the layout's (re-exported by :mod:`xlgrade.workbook.outputs`)."""
    assert layout.LIST_SHEET_HEADERS[:-1] == LIST_HEADERS
    assert [h for h in layout.CARD_SHEET_HEADERS if h not in ("Grade", "Category")] == list(
        CARD_HEADERS
    )
    assert layout.EXCEPTIONS_HEADERS is EXCEPTION_HEADERS
    assert LIST_SHEET_HEADERS is layout.LIST_SHEET_HEADERS
    assert CARD_SHEET_HEADERS is layout.CARD_SHEET_HEADERS


def test_every_setting_is_documented() -> None:
    for row in layout.SETTING_ROWS:
        assert row.label in ROWS[layout.SETTINGS]
