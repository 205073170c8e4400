"""Books in Excel's 1904 date system (``<workbookPr date1904="1"/>``), read and written by every
command: recalc, import, season, export and new-season.

The 1904 book is made as Excel or LibreOffice would save it: the small league's book opened by
openpyxl and saved again in the 1904 system (``wb.epoch = CALENDAR_MAC_1904``), so that every
date cell holds a 1904 serial. Reference serials are hand arithmetic: 1 January 2025 is 45,658
in the 1900 system (days since 30 December 1899: 125 years of 365 days plus 31 leap days, 1904
to 2024, plus 2), and the 1904 system counts 1,462 days fewer (1 January 1904 is 1,462 days after
30 December 1899: four years of 365 days plus 1 leap day, plus 1).
"""

from __future__ import annotations

import csv
import datetime as dt
import re
import warnings
from pathlib import Path

import pytest

from tests.league import GAMES, build_league, members, rows_by_header
from xlgrade import cells
from xlgrade.cli import main
from xlgrade.formats.csvfile import write_results_csv
from xlgrade.model import Game
from xlgrade.workbook import layout
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.relationships import book_date1904, sheet_parts

JAN_1_2025_1900 = 45_658
SYSTEMS_APART = 1_462
OCT_1_2025 = dt.date(2025, 10, 1)
OCT_1_2025_1904 = JAN_1_2025_1900 + 273 - SYSTEMS_APART  # Jan..Sep: 31+28+31+30+31+30+31+31+30


def test_a_serial_is_read_in_either_system() -> None:
    assert cells.serial_date(JAN_1_2025_1900) == dt.date(2025, 1, 1)
    assert cells.serial_date(JAN_1_2025_1900 - SYSTEMS_APART, date1904=True) == dt.date(2025, 1, 1)
    assert cells.serial_date(0, date1904=True) == dt.date(1904, 1, 1)
    assert cells.date(45_658.75, date1904=True) == dt.date(2029, 1, 2)
    with pytest.raises(cells.GradeError, match="is not a date"):
        cells.serial_date(0)  # day 0 is no day of the 1900 system
    with pytest.raises(cells.GradeError, match="is not a date"):
        cells.serial_date(-1, date1904=True)


def test_a_date_is_written_in_either_system() -> None:
    assert cells.date_serial(dt.date(2025, 1, 1)) == JAN_1_2025_1900
    assert cells.date_serial(dt.date(2025, 1, 1), date1904=True) == JAN_1_2025_1900 - SYSTEMS_APART
    noon = dt.datetime(2025, 1, 1, 12)
    assert cells.date_serial(noon, date1904=True) == JAN_1_2025_1900 - SYSTEMS_APART + 0.5


def _book_1904(folder: Path) -> Path:
    import openpyxl  # type: ignore[import-untyped]
    from openpyxl.utils.datetime import CALENDAR_MAC_1904  # type: ignore[import-untyped]

    source = build_league(folder, "league-1900.xlsm")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # openpyxl's words on the print areas it keeps
        book = openpyxl.load_workbook(source, keep_vba=True)
    book.epoch = CALENDAR_MAC_1904
    target = folder / "league.xlsm"
    book.save(target)
    return target


@pytest.fixture
def book(tmp_path: Path) -> Path:
    path = _book_1904(tmp_path)
    data = path.read_bytes()
    assert book_date1904(data)
    results = members(data)[sheet_parts(data)[layout.RESULTS]].decode()
    assert f"<v>{OCT_1_2025_1904}</v>" in results  # the first game's date, a 1904 serial
    return path


def _values(data: bytes, sheet: str) -> str:
    return members(data)[sheet_parts(data)[sheet]].decode()


def test_recalc_writes_player_cards_dates_in_the_books_system(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["recalc", str(book)]) == 0
    data = book.read_bytes()
    cards = rows_by_header(read_sheets(data, [layout.PLAYER_CARDS])[layout.PLAYER_CARDS])
    played = sorted({row["Date"] for row in cards if row["Date"] is not None})
    graded = {game.date for game in GAMES if "def" not in game.result}  # a default is not played
    assert played == sorted(graded)
    # The first game's card line holds the 1904 serial, not the 1900 one (1,462 more).
    part = _values(data, layout.PLAYER_CARDS)
    assert f"<v>{OCT_1_2025_1904}</v>" in part
    assert f"<v>{OCT_1_2025_1904 + SYSTEMS_APART}</v>" not in part


def test_import_writes_game_dates_in_the_books_system(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "results.csv"
    played = dt.date(2025, 12, 3)
    game = Game("123456A", "456789E", "1-0", played, "Division 1", "Match 9", 1, "75")
    new.write_text(write_results_csv([game]), encoding="utf-8")
    assert main(["import", str(new), "--into", str(book)]) == 0
    out = capsys.readouterr()
    assert "outside" not in out.out + out.err
    data = book.read_bytes()
    rows = rows_by_header(read_sheets(data, [layout.RESULTS])[layout.RESULTS])
    assert [row["Date"] for row in rows if row["Match"] == "Match 9"] == [played]
    serial = cells.date_serial(played, date1904=True)
    assert serial == JAN_1_2025_1900 + 336 - SYSTEMS_APART  # 3 December is day 337 of 2025
    assert f"<v>{serial}</v>" in _values(data, layout.RESULTS)


def test_season_and_export_read_the_books_dates(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["season", str(book)]) == 0
    assert "9 graded" in capsys.readouterr().out  # as the 1900 book: no date outside the season
    out = tmp_path / "exported"
    assert main(["export", str(book), "--csv", str(out)]) == 0
    with (out / "results.csv").open(encoding="utf-8-sig", newline="") as stream:
        dates = [row["Date"] for row in csv.DictReader(stream)]
    assert dates == [game.date.isoformat() for game in GAMES if game.date]


def test_new_season_carries_the_books_dates_on(
    book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "next.xlsm"
    assert main(["new-season", str(book), str(out)]) == 0
    settings = read_sheets(out.read_bytes(), [layout.SETTINGS])[layout.SETTINGS]
    found = {str(row[0]): row[1] for row in settings if row and row[0]}
    start = next(value for key, value in found.items() if re.match("season start", key, re.I))
    assert cells.date(start) == dt.date(2026, 9, 1)  # the 1904 book's 1 September 2025, a year on
    players = rows_by_header(read_sheets(out.read_bytes(), [layout.PLAYERS])[layout.PLAYERS])
    born = [row["Date of birth"] for row in players if row["Date of birth"]]
    assert [cells.date(value) for value in born] == [dt.date(2010, 3, 4)]
