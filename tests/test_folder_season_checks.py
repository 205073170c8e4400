"""``xlgrade season FOLDER`` reads every folder xlgrade writes, refuses a folder it cannot
grade with the reason, and prints the Players and Settings cells it could not read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from xlgrade.cli import main
from xlgrade.model import Problem
from xlgrade.workbook.read import read_inputs

ROOT = Path(__file__).resolve().parent.parent
LEAGUE = ROOT / "examples" / "league"
TRF = ROOT / "tests" / "data" / "trf"
SUMMARY = (
    "300 result rows: 281 graded, 2 rapidplay, 17 not graded (2 bad code, 2 date outside "
    "season, 3 default, 2 duplicate disagrees, 2 duplicate game, 2 result not understood, "
    "1 self pairing, 1 time control not gradable, 2 unknown player)"
)


def _season(folder: Path, capsys: pytest.CaptureFixture[str], *more: str) -> list[str]:
    assert main(["season", str(folder), *more]) == 0
    return capsys.readouterr().out.splitlines()


def test_an_exported_folder_grades_as_the_original(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    copy = tmp_path / "copy"
    assert main(["export", str(LEAGUE), "--csv", str(copy)]) == 0
    capsys.readouterr()
    shutil.copy(LEAGUE / "settings.csv", copy / "settings.csv")
    original = _season(LEAGUE, capsys)
    assert original[-1] == SUMMARY
    assert _season(copy, capsys) == original


def test_an_imported_folder_is_read_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "imported"
    assert main(["import", str(TRF / "san_viator_2018.trf"), "--into", str(folder)]) == 0
    capsys.readouterr()
    (folder / "settings.csv").write_text(
        "Setting,Value\nSeason start,2018-01-01\nSeason end,2018-12-31\nUnanchored grade,100\n",
        encoding="utf-8",
    )
    out = _season(folder, capsys)
    assert out[-1] == "411 result rows: 396 graded, 0 rapidplay, 15 not graded (15 default)"
    assert "missing column" not in "\n".join(_season(folder, capsys, "--exceptions"))


def test_a_folder_in_the_lower_case_spelling_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "players.csv").write_text(
        "name,code,grade\nSmith J,,150\nBrown A,,120\n", encoding="utf-8"
    )
    (folder / "results.csv").write_text(
        "home,away,result,date,event\nSmith J,Brown A,1-0,2025-10-01,Div 1\n", encoding="utf-8"
    )
    out = _season(folder, capsys)
    assert out[-2] == "1 result rows: 1 graded, 0 rapidplay, 0 not graded"
    assert out[-1] == (
        f"note: {folder / 'settings.csv'} not found: default settings used "
        "(season 2025-06-01 to 2026-05-31)"
    )


def test_an_empty_folder_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["season", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"Error: {tmp_path}: no players.csv and no results.csv: a season folder holds "
        "players.csv and results.csv (and settings.csv, else the default settings are used)\n"
    )
    (tmp_path / "players.csv").write_text("Name\n", encoding="utf-8")
    assert main(["season", str(tmp_path)]) == 1
    assert capsys.readouterr().err.startswith(f"Error: {tmp_path}: no results.csv: ")


def test_a_missing_column_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "players.csv").write_text("Name\nSmith J\n", encoding="utf-8")
    (tmp_path / "results.csv").write_text("Home,Opponent,Score\nA,B,1-0\n", encoding="utf-8")
    (tmp_path / "settings.csv").write_text("Name,Value\n", encoding="utf-8")
    assert main(["season", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {tmp_path / 'settings.csv'}: no column headed 'Setting' (the header row is "
        f"'Name,Value'); {tmp_path / 'results.csv'}: no column headed 'Away player' (the "
        "header row is 'Home,Opponent,Score')\n"
    )


def test_bad_player_cells_keep_the_player_and_are_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "league"
    shutil.copytree(LEAGUE, folder)
    text = (folder / "players.csv").read_text(encoding="utf-8")
    old = '470892B,"Jarvis, Robert",Whinmoor Chess Club,,,124,,7,935,12,1705'
    assert old in text
    bad = '470892B,"Jarvis, Robert",Whinmoor Chess Club,,,12O,,seven,935,12,1705'
    (folder / "players.csv").write_text(text.replace(old, bad), encoding="utf-8")
    out = _season(folder, capsys)
    assert out[-4:] == [
        SUMMARY,  # no game of his is now an unknown player's
        "2 cells of players.csv could not be read (--exceptions lists them all):",
        "  players.csv row 2: cell F2 (Grade): '12O' is not a number: left out",
        "  players.csv row 2: cell H2 (Previous games): 'seven' is not a number: previous "
        "season left out",
    ]
    card = _season(folder, capsys, "--card", "470892B")
    assert card[0] == "Jarvis, Robert — grade at the start of the season: ungraded"
    exceptions = _season(folder, capsys, "--exceptions")
    assert any("'12O' is not a number: left out" in line for line in exceptions)


def test_many_bad_cells_are_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = "".join(f"P{i},x{i}\n" for i in range(12))
    (tmp_path / "players.csv").write_text("Name,Grade\n" + rows, encoding="utf-8")
    (tmp_path / "results.csv").write_text("Home player,Result,Away player\n", encoding="utf-8")
    (tmp_path / "settings.csv").write_text("Setting,Value\nHorizon,far\n", encoding="utf-8")
    out = _season(tmp_path, capsys)
    assert out[-12:] == [
        "13 cells of settings.csv and players.csv could not be read (--exceptions lists them "
        "all):",
        "  settings.csv row 2: cell B2 (Value): 'far' is not a number",
        *[f"  players.csv row {i + 2}: cell B{i + 2} (Grade): 'x{i}' is not a number: left out"
          for i in range(9)],
        "  … and 3 more",
    ]  # fmt: skip


def test_an_unreadable_date_is_a_bad_date_problem() -> None:
    header = ["Date", "Home player", "Result", "Away player"]
    inputs = read_inputs({"Results": [header, ["31/02/2026", "A", "1-0", "B"]]})
    assert inputs.games == []
    assert [p for p in inputs.problems if p.sheet == "Results"] == [
        Problem("Results", 2, "bad date", "cell A2 (Date): '31/02/2026' is not a date")
    ]


def test_a_lapsed_grade_column_is_read() -> None:
    rows = [["Name", "Lapsed grade"], ["Smith J", "131"]]
    [player] = read_inputs({"Players": rows}).players
    assert (player.name, player.grade, player.lapsed_grade) == ("Smith J", None, 131.0)


def test_an_empty_rapid_list_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    # The example league has two rapid games: one game a player is category *, which the list
    # does not publish by default.
    assert main(["season", str(LEAGUE), "--rapid"]) == 0
    assert capsys.readouterr().out.splitlines()[2] == (
        "(no player has enough of the 2 graded games for a category the list publishes; set "
        "'List category *' to list them)"
    )


def test_a_csv_export_grades_as_its_book_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Next season's book has next season's dates: its CSV export carries them, so the folder
    # grades the same rows as the book.
    book = tmp_path / "next.xlsm"
    assert main(["new-season", str(ROOT / "workbook" / "example-league.xlsm"), str(book)]) == 0
    folder = tmp_path / "csv"
    assert main(["export", str(book), "--csv", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{folder}: settings, 40 players, 0 games written"
    )
    settings = (folder / "settings.csv").read_text(encoding="utf-8").splitlines()
    assert settings[1:4] == [
        "Season name,2026-27",
        "Season start,2026-06-01",
        "Season end,2027-05-31",
    ]


def test_a_horizon_turned_off_stays_off_in_a_csv_export(tmp_path: Path) -> None:
    from xlgrade.model import Settings
    from xlgrade.workbook.build import build_workbook

    book = tmp_path / "off.xlsm"
    book.write_bytes(build_workbook((), (), Settings(horizon=None)))
    folder = tmp_path / "csv"
    assert main(["export", str(book), "--csv", str(folder)]) == 0
    assert "Horizon,none" in (folder / "settings.csv").read_text(encoding="utf-8").splitlines()


def test_a_folder_of_semicolon_files_grades_as_the_comma_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import csv
    import io

    folder = tmp_path / "semicolons"
    folder.mkdir()
    for name in ("players.csv", "results.csv", "settings.csv"):
        rows = list(csv.reader(io.StringIO((LEAGUE / name).read_text(encoding="utf-8"))))
        out = io.StringIO()
        csv.writer(out, delimiter=";", lineterminator="\r\n").writerows(rows)
        (folder / name).write_text(out.getvalue(), encoding="utf-8", newline="")
    assert main(["season", str(LEAGUE)]) == 0
    commas = capsys.readouterr().out
    assert main(["season", str(folder)]) == 0
    assert capsys.readouterr().out == commas
