"""docs/workbook-layout.md, the documented contract of the workbook's sheets and columns, names
every sheet and header the code uses."""

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.paths import DOCS
from xlgrade import schema
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


def _settings_table() -> ModuleType:
    """docs/settings_table.py, the script that writes the page's settings part."""
    spec = importlib.util.spec_from_file_location("settings_table", DOCS / "settings_table.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_settings_part_is_written_from_the_table() -> None:
    """Stale when a setting was added, changed or removed in xlgrade/settings.py and
    ``python docs/settings_table.py`` was not run."""
    script = _settings_table()
    assert script.with_settings_part(DOC) == DOC, "run: python docs/settings_table.py"
    assert script.main(["--check"]) == 0


def test_the_columns_part_is_written_from_the_schema() -> None:
    """Stale when a column was added, changed or removed in xlgrade/schema.py and
    ``python docs/settings_table.py`` was not run."""
    script = _settings_table()
    assert script.with_columns_part(DOC) == DOC, "run: python docs/settings_table.py"
    for column in (*schema.PLAYERS_COLUMNS, *schema.RESULTS_COLUMNS):
        assert f"| `{column.header}` | `{column.field}`" in DOC, column.header
        for alias in column.aliases:  # the other headers a CSV file may give it
            assert f"`{alias}`" in DOC, alias


def test_every_setting_is_documented() -> None:
    for row in layout.SETTING_ROWS:
        assert row.label in ROWS, row.label
    assert ROWS["Tolerance (in code only, not on the sheet)"]  # the one setting not on it


def test_a_stale_settings_part_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = _settings_table()
    stale = DOC.replace("| Horizon | optional number | 40 |", "| Horizon | optional number | 45 |")
    assert stale != DOC
    assert script.with_settings_part(stale) == DOC
    page = tmp_path / "workbook-layout.md"
    page.write_text(stale, encoding="utf-8")
    script.PAGE = page
    assert script.main(["--check"]) == 1
    assert "out of date" in capsys.readouterr().out
    assert script.main([]) == 0
    assert page.read_text(encoding="utf-8") == DOC
    with pytest.raises(ValueError, match="no"):
        script.with_settings_part("no markers")


def test_every_divisions_column_is_described() -> None:
    """The page's *Divisions* section has a row for each column of the Divisions table."""
    from xlgrade.teams import DIVISION_COLUMNS

    section = DOC[DOC.index("\n## Divisions\n") :]
    described = {
        name.strip().strip("`")
        for line in section.splitlines()
        if line.startswith("| `")
        for name in line.split("|")[1].split(",")
    }
    assert [c.header for c in DIVISION_COLUMNS if c.header not in described] == []
