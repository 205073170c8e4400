"""Opening a league from a workbook or a folder (xlgrade.workbook.league): the one place that
decides "book or folder?" for the commands that read a league."""

import shutil
from pathlib import Path

import pytest

from tests.paths import ROOT
from xlgrade.errors import GradingError, HeaderError
from xlgrade.workbook.league import is_book, open_league

BOOK = ROOT / "workbook" / "example-league.xlsm"
FOLDER = ROOT / "examples" / "league"


def test_a_book_and_the_folder_of_the_same_league_open_alike() -> None:
    # The example league is shipped both ways: 40 players and 300 results rows in each
    # (examples/make_example_league.py writes both from one season).
    book, folder = open_league(BOOK), open_league(FOLDER)
    assert (book.book, folder.book) == (True, False)
    assert len(book.inputs.players) == len(folder.inputs.players) == 40
    assert len(book.inputs.games) == len(folder.inputs.games) == 300
    assert [p.name for p in book.inputs.players] == [p.name for p in folder.inputs.players]
    assert book.places["Players"] == f"{BOOK} sheet Players"
    assert folder.places["Results"] == str(FOLDER / "results.csv")
    assert book.has_settings
    assert folder.has_settings
    assert book.notes == folder.notes == []


def test_a_folder_without_settings_is_graded_with_the_defaults_and_says_so(
    tmp_path: Path,
) -> None:
    for name in ("players.csv", "results.csv"):
        shutil.copy(FOLDER / name, tmp_path / name)
    league = open_league(tmp_path)
    assert not league.has_settings
    [note] = league.notes
    assert note.startswith(f"note: {tmp_path / 'settings.csv'} not found: default settings used")
    # The missing file is said in the note, not left as a problem of the season's rows.
    assert not [p for p in league.inputs.problems if p.what == "missing sheet"]


def test_a_folder_without_results_is_refused_naming_the_file(tmp_path: Path) -> None:
    shutil.copy(FOLDER / "players.csv", tmp_path / "players.csv")
    with pytest.raises(GradingError, match=r"no results\.csv: a season folder holds"):
        open_league(tmp_path)


def test_a_file_beside_a_season_points_to_its_folder(tmp_path: Path) -> None:
    for name in ("players.csv", "results.csv"):
        shutil.copy(FOLDER / name, tmp_path / name)
    with pytest.raises(GradingError) as raised:
        open_league(tmp_path / "players.csv", command="xlgrade season")
    message = str(raised.value)
    assert message.startswith(f"{tmp_path / 'players.csv'} is a file but not a workbook")
    assert "xlgrade season reads a league workbook or a folder" in message
    assert message.endswith(f"did you mean {tmp_path}?")


def test_a_path_that_is_not_there_is_named(tmp_path: Path) -> None:
    with pytest.raises(GradingError, match="no such workbook or folder"):
        open_league(tmp_path / "nothing")


def test_a_mistyped_header_stops_it_naming_the_file(tmp_path: Path) -> None:
    shutil.copytree(FOLDER, tmp_path / "league")
    players = tmp_path / "league" / "players.csv"
    text = players.read_text(encoding="utf-8")
    players.write_text(text.replace("Grade,", "Grading,", 1), encoding="utf-8")
    with pytest.raises(HeaderError, match=r"players\.csv: column 'Grading'"):
        open_league(tmp_path / "league")


def test_a_book_is_known_by_its_ending() -> None:
    assert is_book("league.xlsm")
    assert is_book("LEAGUE.XLSX")
    assert not is_book("league.csv")
    assert not is_book("league")
