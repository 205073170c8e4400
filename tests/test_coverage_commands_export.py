"""``xlgrade export``: what the user sees for a book that is not one, a bad date, and a
workbook exported to CSV."""

import shutil
from pathlib import Path

import pytest

from xlgrade.cli import main

TEMPLATE = Path(__file__).parents[1] / "workbook" / "xlgrade-template.xlsm"


def test_a_file_that_is_not_a_book_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("not a league\n", encoding="utf-8")
    assert main(["export", str(notes), "--csv", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == (
        f"Error: {notes}: not a workbook (.xlsm, .xlsx) or a folder of CSV files\n"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("date", ["31/02/2025", "2025-13-01", "next Tuesday"])
def test_a_bad_event_date_is_refused(
    date: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = tmp_path / "league"
    league.mkdir()
    out = tmp_path / "league.txt"
    assert main(["export", str(league), "--ecf", str(out), "--event-date", date]) == 1
    assert capsys.readouterr().err == (
        f"Error: date {date!r} is not a date (dd/mm/yyyy or yyyy-mm-dd)\n"
    )
    assert not out.exists()


def test_the_empty_template_exports_no_player_and_no_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copy(TEMPLATE, book)
    before = book.read_bytes()
    out = tmp_path / "csv"
    assert main(["export", str(book), "--csv", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: settings, 0 players, 0 games written\n"
    assert sorted(path.name for path in out.iterdir()) == [
        "players.csv",
        "results.csv",
        "settings.csv",
    ]
    assert book.read_bytes() == before  # the book is only read
