"""The buttons as xlwings Lite scripts, run through ``xlwings.server.custom_scripts_call`` on
the book as Lite hands it over (every sheet's values and its Excel tables), the actions they
return applied to those values, and every cell compared with what the command line writes for
the same book: ``xlgrade recalc`` for Recalculate season, ``xlgrade import FILE --into BOOK``
for Import, ``xlgrade new-season`` for New season. Lite's Files ▸ Import/Export folder is a
temporary folder here."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import errno
import os
import re
import shutil
import stat
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.functions.officejs import MADRID, Grid, book_payload, book_tables, import_files
from xlgrade.cli import main
from xlgrade.formats.csvfile import write_players_csv
from xlgrade.generate import generate_league
from xlgrade.model import Player
from xlgrade.workbook import layout, lite, live
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.relationships import sheet_parts


def _apply(
    sheets: dict[str, Grid],
    actions: list[dict[str, Any]],
    resized: dict[tuple[str, int], str] | None = None,
    formulas: dict[tuple[str, int, int], str] | None = None,
) -> dict[str, Grid]:
    """The sheets after the script's actions, as Excel would apply them; an action this test
    does not know fails it. A table resized is noted in ``resized``: (sheet, index) → range;
    a formula written in ``formulas``: (sheet, row, column) from 0 → its text (the values
    are Excel's to work out: the grid keeps what the cell showed)."""
    names = list(sheets)
    out = {name: [list(row) for row in grid] for name, grid in sheets.items()}

    def area(action: dict[str, Any]) -> tuple[Grid, int, int, int, int]:
        grid = out[names[action["sheet_position"]]]
        return (grid, action["start_row"], action["start_column"], action["row_count"],
                action["column_count"])  # fmt: skip

    def fit(grid: Grid, rows: int, columns: int) -> None:
        while len(grid) < rows:
            grid.append([])
        for row in grid:
            row.extend([None] * (columns - len(row)))

    for action in actions:
        func = action["func"]
        if func == "addSheet":
            index, name = action["args"]
            names.insert(index, name)
            out[name] = []
        elif func == "sheetClearContents":
            out[names[action["sheet_position"]]] = []
        elif func == "rangeClearContents":
            grid, top, left, rows, columns = area(action)
            fit(grid, top + rows, left + columns)
            for r in range(top, top + rows):
                for c in range(left, left + columns):
                    grid[r][c] = None
        elif func == "setValues":
            grid, top, left, _, _ = area(action)
            values = action["values"]
            fit(grid, top + len(values), left + max(len(v) for v in values))
            for r, row in enumerate(values):
                for c, value in enumerate(row):
                    grid[top + r][left + c] = None if value == "" else _typed(value)
        elif func == "setFormula":
            (row,) = action["values"]
            (text,) = row
            key = (names[action["sheet_position"]], action["start_row"], action["start_column"])
            if formulas is not None:
                formulas[key] = text
        elif func == "resizeTable" and resized is not None:
            index, address = action["args"]
            resized[(names[action["sheet_position"]], index)] = address
        else:
            pytest.fail(f"an action the test does not apply: {func}")
    return {name: out[name] for name in names}


_FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""How text Excel takes as typed starts when Excel reads it as a formula (Office.js's
``Range.values``, as typing does: a leading ``=``, ``+`` or ``-`` starts a formula, ``@`` an
implicit intersection; a tab or a carriage return is where OWASP's CSV-injection list ends)."""


def _typed(value: object) -> object:
    """A value set by ``setValues`` as Excel stores it: a text after the prefix ``'`` is that
    text (the prefix is not part of the value); a text Excel would read as a formula fails the
    test, since it would run."""
    if isinstance(value, str):
        if value.startswith("'"):
            return value[1:]
        assert not value.startswith(_FORMULA), f"a formula handed to Excel: {value!r}"
    return value


def _cells(grid: Grid) -> dict[tuple[int, int], object]:
    """The non-blank cells of a grid, numbers as floats and dates as ISO text (as a script
    writes them)."""
    found: dict[tuple[int, int], object] = {}
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value is None or value == "":
                continue
            if isinstance(value, dt.datetime) and value.time() == dt.time(0):
                value = value.date().isoformat()  # a date cell, as a script writes it
            elif isinstance(value, dt.date):
                value = value.isoformat()
            elif isinstance(value, bool):
                pass
            elif isinstance(value, int | float):
                value = float(value)
            found[(r, c)] = value
    return found


@pytest.fixture(scope="module")
def league_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Grid], Path]:
    """The Lite template filled with the example league (not recalculated), its sheets' values,
    and a copy that ``xlgrade recalc`` recalculated."""
    folder = tmp_path_factory.mktemp("lite-scripts")
    league = generate_league()
    book = folder / "league.xlsx"
    book.write_bytes(lite.build_lite_workbook(league.players, league.games, league.settings))
    sheets = read_sheets(book, list(sheet_parts(book.read_bytes())))
    done = folder / "recalculated.xlsx"
    assert main(["recalc", str(book), "--out", str(done)]) == 0
    return sheets, done


def _run(
    module: ModuleType,
    script: str,
    sheets: dict[str, Grid],
    tables: dict[str, list[tuple[str, str]]] | None = None,
    resized: dict[tuple[str, int], str] | None = None,
    formulas: dict[tuple[str, int, int], str] | None = None,
) -> dict[str, Grid]:
    import xlwings as xw
    from xlwings import server

    book = xw.Book(json=book_payload(sheets, tables))
    returned = asyncio.run(
        server.custom_scripts_call(module, script, typehint_to_value={xw.Book: book})
    )
    return _apply(sheets, returned.json()["actions"], resized, formulas)


def test_recalculate_season_writes_what_xlgrade_recalc_writes(
    lite: ModuleType, league_book: tuple[dict[str, Grid], Path]
) -> None:
    sheets, done = league_book
    after = _run(lite, "recalculate_season", sheets)
    expected = read_sheets(done, list(layout.OUTPUT_SHEETS))
    assert len(_cells(expected[layout.GRADING_LIST])) > 200  # 40 players' lines to compare
    for name in layout.OUTPUT_SHEETS:
        assert _cells(after[name]) == _cells(expected[name]), name
    for name in (layout.SETTINGS, layout.PLAYERS, layout.RESULTS):
        assert after[name] == sheets[name]  # the inputs are not touched


def test_recalculate_season_rates_a_rated_book_as_xlgrade_recalc_does(
    lite: ModuleType, tmp_path: Path
) -> None:
    from xlgrade.settings import RATING_2020
    from xlgrade.workbook.lite import build_lite_workbook

    league = generate_league()
    rated = [dataclasses.replace(p, rating=1500.0 + 10 * i) for i, p in enumerate(league.players)]
    settings = dataclasses.replace(league.settings, system=RATING_2020)
    book = tmp_path / "rated.xlsx"
    book.write_bytes(build_lite_workbook(rated, league.games, settings))
    sheets = read_sheets(book, list(sheet_parts(book.read_bytes())))
    done = tmp_path / "done.xlsx"
    assert main(["recalc", str(book), "--out", str(done)]) == 0
    after = _run(lite, "recalculate_season", sheets)
    expected = read_sheets(done, list(layout.OUTPUT_SHEETS))
    assert tuple(expected[layout.GRADING_LIST][0]) == layout.RATING_LIST_SHEET_HEADERS
    for name in layout.OUTPUT_SHEETS:
        assert _cells(after[name]) == _cells(expected[name]), name


def test_a_header_mistake_keeps_the_last_lists_and_says_why_in_the_pane(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheets, _ = league_book
    done = _run(lite, "recalculate_season", sheets)  # the last good run
    capsys.readouterr()
    players = [list(row) for row in done[layout.PLAYERS]]
    players[0][players[0].index("Grade")] = "Grading"
    typo = done | {layout.PLAYERS: players}
    after = _run(lite, "recalculate_season", typo)
    # Every sheet but Exceptions is as it was, cell for cell: the lists of the last good run.
    assert {n: g for n, g in after.items() if n != layout.EXCEPTIONS} == {
        n: g for n, g in typo.items() if n != layout.EXCEPTIONS
    }
    why = (
        "column 'Grading' of the Players header is not known: did you mean 'Grade'? (read as "
        "it is, the column would be left out)"
    )
    listed = [row[:4] for row in after[layout.EXCEPTIONS] if any(v is not None for v in row)]
    assert listed[0] == ["Sheet", "Row", "What", "Why"]
    assert ["Players", 1, "unknown column", why] in listed
    assert listed[-1] == [None, None, "summary", live.KEPT_LISTS]
    assert capsys.readouterr().out == (
        f"Error: Players: {why}; {live.KEPT_LISTS}, and the Exceptions sheet says why\n"
    )


def test_check_results_lists_a_cell_that_cannot_be_read(
    lite: ModuleType, league_book: tuple[dict[str, Grid], Path]
) -> None:
    sheets, _ = league_book
    players = [list(row) for row in sheets[layout.PLAYERS]]
    grade = players[0].index("Grade")
    players[1][grade] = "abc"
    after = _run(lite, "check_results", sheets | {layout.PLAYERS: players})
    listed = after[layout.EXCEPTIONS]
    assert listed[0][:4] == ["Sheet", "Row", "What", "Why"]
    (row,) = [r for r in listed[1:] if r[0] == layout.PLAYERS and r[1] in (2, 2.0)]
    assert "'abc'" in " ".join(str(v) for v in row)
    assert after[layout.GRADING_LIST] == sheets[layout.GRADING_LIST]  # nothing graded


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """xlwings Lite's Files ▸ Import/Export folder."""
    folder = tmp_path / "data"
    folder.mkdir()
    monkeypatch.setattr(live, "LITE_FILES", str(folder))
    return folder


@pytest.mark.parametrize("kind", ["trf", "players", "results"])
def test_import_writes_what_xlgrade_import_writes(
    kind: str,
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheets, _ = league_book
    book = tmp_path / "league.xlsx"
    shutil.copy(league_book[1].with_name("league.xlsx"), book)
    tables = book_tables(book)
    source = import_files(tmp_path)[kind]
    shutil.copy(source, files / source.name)
    resized: dict[tuple[str, int], str] = {}
    after = _run(lite, "import_file", sheets, tables, resized)
    said = capsys.readouterr().out.splitlines()
    assert main(["import", str(source), "--into", str(book)]) == 0
    told = capsys.readouterr().out.splitlines()
    expected = read_sheets(book, list(sheet_parts(book.read_bytes())))
    assert len(expected[layout.PLAYERS]) + len(expected[layout.RESULTS]) > sum(
        len(sheets[name]) for name in (layout.PLAYERS, layout.RESULTS)
    )  # rows were added
    assert ("Import notes" in expected) == (kind == "trf")  # the byes and absences
    for name in (layout.PLAYERS, layout.RESULTS, *layout.OUTPUT_SHEETS, "Import notes"):
        assert _cells(after.get(name, [])) == _cells(expected.get(name, [])), name
    # A table grows over its new rows, so that the looked-up columns fill them in.
    for sheet in (layout.PLAYERS, layout.RESULTS):
        ((_, ref),) = tables[sheet]
        start, end = ref.split(":")
        grown = f"{start}:{end.rstrip('0123456789')}{len(expected[sheet])}"
        if len(expected[sheet]) > len(sheets[sheet]):
            assert resized[(sheet, 0)].replace("$", "") == grown
        else:
            assert (sheet, 0) not in resized
    # The file's accounting and what was added, in the command line's words.
    assert said[0] == told[0]
    assert said[1] == told[1].removeprefix(f"{book}: ")


_INJECTED = ("=HYPERLINK(\"http://x\",\"y\")", "+44 Club", "-Minus, Ann", "@SUM(A1)",
             "\t=1+1", "\r-2", "'Quoted, Bo")  # fmt: skip
"""Names and matches as a file may hold them: each would run as a formula in Excel (a tab or a
carriage return before one is read off with the spaces), or lose its ``'`` as the prefix."""


@pytest.mark.parametrize("kind", ["players", "results"])
def test_import_hands_excel_text_never_a_formula(
    kind: str,
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import csv

    sheets, _ = league_book
    book = tmp_path / "league.xlsx"
    shutil.copy(league_book[1].with_name("league.xlsx"), book)
    source = files / f"{kind}.csv"
    with source.open("w", encoding="utf-8", newline="") as stream:
        writer = csv.writer(stream)
        if kind == "players":
            writer.writerow(["Name", "Grade"])
            writer.writerows([name, 100 + i] for i, name in enumerate(_INJECTED))
        else:
            league = generate_league()
            home, away = league.players[0].name, league.players[1].name
            writer.writerow(["Date", "Match", "Home player", "Result", "Away player"])
            writer.writerows([f"2026-03-{i + 2:02d}", match, home, "1-0", away]
                             for i, match in enumerate(_INJECTED))  # fmt: skip
    # _apply fails the test on any text handed to Excel that it would take for a formula.
    after = _run(lite, "import_file", sheets, book_tables(book), {})
    assert not capsys.readouterr().out.startswith("Error")
    assert main(["import", str(source), "--into", str(book)]) == 0
    expected = read_sheets(book, list(sheet_parts(book.read_bytes())))
    sheet, heading = (layout.PLAYERS, "Name") if kind == "players" else (layout.RESULTS, "Match")
    at = expected[sheet][0].index(heading)
    texts = [row[at] for row in after[sheet][1:] if len(row) > at]
    for text in _INJECTED:
        assert text.strip() in texts, text  # as text, whole, in the Lite book
    assert [row[at] for row in after[sheet]] == [row[at] for row in expected[sheet]]
    for name in (layout.PLAYERS, layout.RESULTS, *layout.OUTPUT_SHEETS):
        assert _cells(after.get(name, [])) == _cells(expected.get(name, [])), name


def test_import_of_rows_the_sheets_have_no_column_for_writes_nothing(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheets, _ = league_book
    players = [list(row) for row in sheets[layout.PLAYERS]]
    # The Players table typed from row 3, with no Club column (its header cleared).
    club = players[0].index("Club")
    players[0][club] = None
    changed = sheets | {layout.PLAYERS: [[None] * len(players[0]), [None] * len(players[0]),
                                         *players]}  # fmt: skip
    (files / "club.csv").write_text(
        write_players_csv([Player("Newman, Ann", club="Beeton", grade=101.0)]), encoding="utf-8"
    )
    assert _run(lite, "import_file", changed) == changed
    assert capsys.readouterr().out == (
        "Error: the Players sheet has no column headed 'Club' for the value 'Beeton' of new "
        "row 1; add the column and import again\n"
    )
    # A long value is quoted shortened, with its length (58 characters and "…" of 100).
    (files / "club.csv").write_text(
        write_players_csv([Player("Newman, Ann", club="B" * 100, grade=101.0)]), encoding="utf-8"
    )
    assert _run(lite, "import_file", changed) == changed
    assert capsys.readouterr().out == (
        "Error: the Players sheet has no column headed 'Club' for the value "
        f"'{'B' * 58}…' (100 characters) of new row 1; add the column and import again\n"
    )


def test_import_of_several_files_writes_what_xlgrade_import_of_each_writes(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A union's grader drops a congress (the TRF), a club's new players and a league's
    return games at once: the players CSV goes first, then the others by name, as
    ``xlgrade import`` of each in turn would add them."""
    sheets, _ = league_book
    book = tmp_path / "league.xlsx"
    shutil.copy(league_book[1].with_name("league.xlsx"), book)
    tables = book_tables(book)
    sources = import_files(tmp_path)
    for source in sources.values():
        shutil.copy(source, files / source.name)
    after = _run(lite, "import_file", sheets, tables, {})
    said = capsys.readouterr().out.splitlines()
    for kind in ("players", "results", "trf"):  # new-players, return-games, san_viator
        assert main(["import", str(sources[kind]), "--into", str(book)]) == 0
    capsys.readouterr()
    expected = read_sheets(book, list(sheet_parts(book.read_bytes())))
    for name in (layout.PLAYERS, layout.RESULTS, *layout.OUTPUT_SHEETS, "Import notes"):
        assert _cells(after.get(name, [])) == _cells(expected.get(name, [])), name
    firsts = [line.split(" (")[0] for line in said if " CSV): " in line or "(TRF): " in line]
    assert firsts == ["new-players.csv", "return-games.csv", "san_viator_2018.trf"]


def test_import_with_no_file_or_two_bad_files_writes_nothing(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheets, _ = league_book
    files.rmdir()  # Files ▸ Import/Export has never been used in this book
    assert _run(lite, "import_file", sheets) == sheets
    assert "Error: no file to import: drop the TRF" in capsys.readouterr().out
    files.mkdir()
    (files / "a.trf").write_text("x")
    (files / "b.csv").write_text("x")
    (files / "2026-27.xlsx").write_text("a book New season wrote: not imported")
    # What the one writer leaves of a New season cut short: its temporary and lock files.
    (files / ".xlgrade-2027-28.xlsx-abcd1234.tmp").write_bytes(b"PK")
    (files / ".2027-28.xlsx.xlgrade-lock").write_bytes(b"")
    # Neither can be read: the first is named, and nothing is written.
    assert _run(lite, "import_file", sheets) == sheets
    assert capsys.readouterr().out.startswith("Error: a.trf: ")


def test_import_of_a_file_imported_before_writes_nothing(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheets, _ = league_book
    shutil.copy(MADRID, files / MADRID.name)
    once = _run(lite, "import_file", sheets)
    capsys.readouterr()
    assert _run(lite, "import_file", once) == once
    assert "games to import have the same players and date" in capsys.readouterr().out


def test_import_of_a_file_that_cannot_be_read_names_it(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheets, _ = league_book
    (files / "notes.txt").write_text("Dear grader,\nhere are the results\n")
    assert _run(lite, "import_file", sheets) == sheets
    out = capsys.readouterr().out
    assert out.startswith("Error: notes.txt: line 1:"), out


def test_import_of_a_file_not_in_utf8_says_how_it_was_read(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheets, _ = league_book
    (files / "new.csv").write_bytes('Name,Grade\n"Müller, Karl",120\n'.encode("cp1252"))
    after = _run(lite, "import_file", sheets)
    assert "note: new.csv: not UTF-8 (byte 0xFC on line 2 is not UTF-8): read as Windows-1252" in (
        capsys.readouterr().out
    )
    names = [row[sheets[layout.PLAYERS][0].index("Name")] for row in after[layout.PLAYERS]]
    assert "Müller, Karl" in names


def test_new_season_writes_the_book_xlgrade_new_season_writes(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    sheets, _ = league_book
    after = _run(lite, "new_season", sheets)
    assert after == sheets  # this book is not changed
    out = tmp_path / "cli.xlsx"
    assert main(["new-season", str(league_book[1].with_name("league.xlsx")), str(out)]) == 0
    (written,) = files.iterdir()
    assert written.name == "2026-27.xlsx"
    # The same book but for its own ids (each book made has its own).
    assert _same_but_ids(written.read_bytes(), out.read_bytes())
    said = capsys.readouterr().out
    assert "Wrote 2026-27.xlsx, next season's book: download it" in said
    # In the book, the running engine is the book's own: carried, and named in the pane.
    from xlgrade.workbook import lite as book_code

    assert book_code.book_engine(written.read_bytes()) == book_code.engine_zip()
    assert f"It carries this book's engine ({book_code.running_engine()}), the code" in said
    _run(lite, "new_season", sheets)  # a second run does not overwrite the first book
    assert sorted(p.name for p in files.iterdir()) == ["2026-27 (2).xlsx", "2026-27.xlsx"]


@pytest.mark.parametrize("locks", ["none", "flock does nothing"])
def test_new_season_goes_through_the_one_writer_where_files_cannot_be_locked(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    locks: str,
) -> None:
    # Pyodide's Emscripten file system: sys.platform "emscripten", and fcntl missing or its
    # flock a stub that does nothing.
    import fcntl

    from xlgrade.formats import files as writer

    monkeypatch.setattr(writer.sys, "platform", "emscripten")
    if locks == "none":
        monkeypatch.setitem(sys.modules, "fcntl", None)
    else:
        monkeypatch.setattr(fcntl, "flock", lambda handle, operation: None)
    written: list[str] = []
    whole = writer.write_whole
    monkeypatch.setattr(
        live, "write_whole", lambda data, path: (written.append(path), whole(data, path))
    )
    sheets, _ = league_book
    _run(lite, "new_season", sheets)
    assert [Path(p).name for p in written] == ["2026-27.xlsx"]
    out = tmp_path / "cli.xlsx"
    assert main(["new-season", str(league_book[1].with_name("league.xlsx")), str(out)]) == 0
    (book,) = files.iterdir()  # the book alone: no lock file, no temporary file
    assert _same_but_ids(book.read_bytes(), out.read_bytes())
    assert "Wrote 2026-27.xlsx" in capsys.readouterr().out


def test_new_season_in_pyodide_writes_a_book_the_grader_can_read_and_download(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Pyodide 0.27: umask 0o777 (a file made as it says has mode 000, which neither Python
    # nor pyodide.FS.readFile reads), no os.link, no fcntl.
    from xlgrade.formats import files as writer

    monkeypatch.setattr(writer.sys, "platform", "emscripten")
    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.delattr(writer.os, "link")
    sheets, _ = league_book
    before = os.umask(0o777)
    try:
        _run(lite, "new_season", sheets)
    finally:
        os.umask(before)
    (book,) = files.iterdir()
    assert stat.S_IMODE(book.stat().st_mode) == 0o644  # read and written by its owner, read by all
    out = tmp_path / "cli.xlsx"
    assert main(["new-season", str(league_book[1].with_name("league.xlsx")), str(out)]) == 0
    assert _same_but_ids(book.read_bytes(), out.read_bytes())


def test_new_season_onto_a_full_disk_writes_nothing_and_says_why(
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from xlgrade.formats import files as writer

    def full(handle: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(writer.os, "fsync", full)
    sheets, _ = league_book
    assert _run(lite, "new_season", sheets) == sheets
    assert list(files.iterdir()) == []  # no book, no part of one, no lock file
    assert capsys.readouterr().out == (
        "Error: No space left on device: 2026-27.xlsx; nothing was written\n"
    )


def _same_but_ids(one: bytes, other: bytes) -> bool:
    """Whether two Lite books are the same but for their own ids."""
    from xlgrade.workbook.build import members_of

    first, second = members_of(one), members_of(other)
    part = "xl/webextensions/webextension1.xml"
    ids = [lite.book_ids(book) for book in (one, other)]
    assert ids[0] != ids[1]
    texts = [members[part].decode() for members in (first, second)]
    for index, found in enumerate(ids):
        assert found is not None
        texts[index] = texts[index].replace(str(found.extension).upper(), "EXTENSION")
        texts[index] = texts[index].replace(str(found.workbook), "WORKBOOK")
    rest = [{k: v for k, v in members.items() if k != part} for members in (first, second)]
    return texts[0] == texts[1] and rest[0] == rest[1]


@pytest.mark.parametrize(
    "script", ["recalculate_season", "check_results", "import_file", "new_season"]
)
def test_every_script_writes_the_live_formulas_as_excel_is_given_them(
    script: str,
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Excel parses a formula written through Office.js as typed, so a call it had stored
    # unlinked from the add-in's function is linked again: one press mends the book.
    from xlgrade.workbook import formulas

    sheets, _ = league_book
    written: dict[tuple[str, int, int], str] = {}
    _run(lite, script, sheets, formulas=written)
    capsys.readouterr()
    header = [layout.header_key(h) for h in sheets[layout.RESULTS][0]]
    home, away = (header.index(layout.header_key(h)) for h in formulas.POINTS_HEADERS)
    assert written == {
        (layout.LISTS, 1, 4): "=GRADE_POINTS(100,100,1)",
        (layout.RESULTS, 1, home): formulas.points_formula("Home points", "lite", stored=False),
        (layout.RESULTS, 1, away): formulas.points_formula("Away points", "lite", stored=False),
    }
    for text in written.values():
        assert "_xldudf_" not in text
        assert text.startswith("=")


def test_the_live_formulas_are_written_under_their_headers_where_they_stand(
    lite: ModuleType, league_book: tuple[dict[str, Grid], Path]
) -> None:
    # Moved by the grader (a column put before them, the table lower) and one header
    # renamed: the formula goes under the header that is there; nothing else is written.
    sheets, _ = league_book
    moved = {name: [list(row) for row in grid] for name, grid in sheets.items()}
    moved[layout.RESULTS] = [[], *[["", *row] for row in moved[layout.RESULTS]]]
    header = moved[layout.RESULTS][1]
    header[header.index("Away points")] = "Away side's points"
    written: dict[tuple[str, int, int], str] = {}
    _run(lite, "check_results", moved, formulas=written)
    assert sorted(written) == [
        (layout.LISTS, 1, 4),
        (layout.RESULTS, 2, [layout.header_key(h) for h in header].index("homepoints")),
    ]


def test_a_book_of_another_layout_gets_no_formulas(
    lite: ModuleType, league_book: tuple[dict[str, Grid], Path]
) -> None:
    # A Lists sheet without the probe's header (a book of an older layout, or the grader's
    # own sheet of that name), or none: nothing is written, the script runs as before.
    sheets, _ = league_book
    other = {name: [list(row) for row in grid] for name, grid in sheets.items()}
    other[layout.LISTS][0][4] = "Functions missing"
    without = {name: grid for name, grid in sheets.items() if name != layout.LISTS}
    for book in (other, without):
        written: dict[tuple[str, int, int], str] = {}
        _run(lite, "recalculate_season", book, formulas=written)
        assert written == {}


def test_every_button_keeps_the_live_columns_through_a_season(
    lite: ModuleType, files: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The Lite template, then Import of each kind of file (the first onto the template's blank
    # row), Recalculate season, New season and an Import into next season's book: after each,
    # the points formulas are written at the first Results row under their headers, as Excel
    # is given them, nothing is written over the rows they spill into, and the Results table
    # they read covers every row. Next season's book, a file, holds them as Excel stores them.
    from tests.workbook.test_live_columns import _assert_live, _chain_files
    from xlgrade.workbook import formulas
    from xlgrade.workbook.lite import build_lite_workbook

    chain = _chain_files(tmp_path)
    template = tmp_path / "league.xlsx"
    template.write_bytes(build_lite_workbook())
    sheets = read_sheets(template, list(sheet_parts(template.read_bytes())))
    tables = book_tables(template)

    def press(script: str, book: dict[str, Grid]) -> dict[str, Grid]:
        written: dict[tuple[str, int, int], str] = {}
        resized: dict[tuple[str, int], str] = {}
        after = _run(lite, script, book, tables, resized, written)
        assert "Error" not in capsys.readouterr().out, script
        header = [layout.header_key(h) for h in after[layout.RESULTS][0]]
        for name in formulas.POINTS_HEADERS:
            column = header.index(layout.header_key(name))
            text = formulas.points_formula(name, "lite", stored=False)
            assert written[(layout.RESULTS, 1, column)] == text, script
            assert {row[column] for row in after[layout.RESULTS][1:] if column < len(row)} <= {
                None
            }, script  # no value where the formula spills
        ((name, _),) = tables[layout.RESULTS]
        if (layout.RESULTS, 0) in resized:
            tables[layout.RESULTS] = [(name, resized[(layout.RESULTS, 0)].replace("$", ""))]
        last = int(re.sub(r"^.*:[A-Z]+", "", tables[layout.RESULTS][0][1]))
        player = after[layout.RESULTS][0].index("Home player")
        rows = [n for n, row in enumerate(after[layout.RESULTS], start=1) if row[player]]
        assert last >= max(rows), script  # the table, and so the formulas, cover every game
        return after

    for kind in ("trf", "ecf", "players", "results"):
        for old in files.iterdir():
            old.unlink()
        shutil.copy(chain[kind], files / chain[kind].name)
        sheets = press("import_file", sheets)
    assert len(sheets[layout.RESULTS]) > 400  # 56 + 396 + 2 games
    for old in files.iterdir():
        old.unlink()
    sheets = press("recalculate_season", sheets)
    press("new_season", sheets)
    (following,) = files.iterdir()
    _assert_live(following)
    nextbook = tmp_path / following.name
    shutil.move(following, nextbook)
    sheets = read_sheets(nextbook, list(sheet_parts(nextbook.read_bytes())))
    tables = book_tables(nextbook)
    shutil.copy(chain["next"], files / chain["next"].name)
    press("import_file", sheets)


@pytest.mark.parametrize("missing", [layout.PLAYERS, layout.RESULTS])
@pytest.mark.parametrize("script", ["recalculate_season", "import_file", "new_season"])
def test_a_book_without_its_players_or_results_sheet_stops_every_button_that_writes(
    script: str,
    missing: str,
    lite: ModuleType,
    league_book: tuple[dict[str, Grid], Path],
    files: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Graded without the sheet, Recalculate season wiped the lists and New season wrote a
    # book of 0 players, with no word in the pane: now nothing is written, and the pane says why.
    sheets, _ = league_book
    done = _run(lite, "recalculate_season", sheets)  # the last good run's lists
    capsys.readouterr()
    (files / "club.csv").write_text(
        write_players_csv([Player("Newman, Ann", club="Beeton", grade=101.0)]), encoding="utf-8"
    )
    without = {name: grid for name, grid in done.items() if name != missing}
    written: dict[tuple[str, int, int], str] = {}
    assert _run(lite, script, without, formulas=written) == without
    assert written == {}  # not even the live formulas
    assert capsys.readouterr().out == (
        f"Error: league.xlsx: not a league workbook: it has no sheet named '{missing}' "
        "(renamed or deleted? name it back); nothing was graded or written\n"
    )
    assert [p.name for p in files.iterdir()] == ["club.csv"]  # no next season's book


def test_check_results_lists_a_missing_sheet(
    lite: ModuleType, league_book: tuple[dict[str, Grid], Path]
) -> None:
    sheets, _ = league_book
    done = _run(lite, "recalculate_season", sheets)
    without = {name: grid for name, grid in done.items() if name != layout.RESULTS}
    after = _run(lite, "check_results", without)
    listed = [row[:4] for row in after[layout.EXCEPTIONS] if any(v is not None for v in row)]
    assert ["Results", None, "missing sheet", "the book has no sheet named 'Results'"] in listed
    assert {n: g for n, g in after.items() if n != layout.EXCEPTIONS} == {
        n: g for n, g in without.items() if n != layout.EXCEPTIONS
    }  # the lists are those of the last good run
