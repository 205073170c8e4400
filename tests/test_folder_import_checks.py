"""``xlgrade import FILE --into FOLDER`` adds to a season folder: the rows already there and the
folder's own header spelling are kept, and a new folder gets the template's headers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from xlgrade.cli import main
from xlgrade.formats.folder import add_to_folder
from xlgrade.model import Game, Player, Problem

ROOT = Path(__file__).resolve().parent.parent
LEAGUE = ROOT / "examples" / "league"
TRF = ROOT / "tests" / "data" / "trf"
PLAYERS_HEADER = (
    "Code,Name,Club,Date of birth,Junior,Grade,Estimated grade,Previous games,Previous points,"
    "Earlier games,Earlier points,Lapsed grade"
)
RESULTS_HEADER = "Date,Division,Match,Board,Home player,Result,Away player,Time control"


def _league(tmp_path: Path) -> Path:
    folder = tmp_path / "league"
    shutil.copytree(LEAGUE, folder)
    return folder


def test_a_player_is_added_and_nothing_is_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _league(tmp_path)
    new = tmp_path / "newp.csv"
    new.write_text('name,code,grade\n"Newman, Paul",,150\n', encoding="utf-8")
    assert main(["import", str(new), "--into", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "newp.csv (players CSV): 1 players rows read",
        f"{folder}: 1 players added, 0 already there; 0 games and 0 problems added",
    ]
    before = (LEAGUE / "players.csv").read_bytes()
    assert (folder / "players.csv").read_bytes() == before + b',"Newman, Paul",,,,150,,,,,,\n'
    assert (folder / "results.csv").read_bytes() == (LEAGUE / "results.csv").read_bytes()
    assert (folder / "problems.csv").read_bytes() == b"sheet,row,what,why\r\n"


def test_a_trf_adds_its_games_to_the_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _league(tmp_path)
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder)]) == 0
    assert "13 players added, 0 already there; 56 games and 18 problems added" in (
        capsys.readouterr().out
    )
    old = (LEAGUE / "results.csv").read_text(encoding="utf-8")
    now = (folder / "results.csv").read_text(encoding="utf-8")
    assert now.startswith(old)
    added = now[len(old) :].splitlines()
    assert len(added) == 56
    assert added[0] == ",Mai 5 Plus 0 Turnier,Round 2,,mattderkuerschner,1-0,hansimpech,"
    assert len((folder / "players.csv").read_text(encoding="utf-8").splitlines()) == 41 + 13
    # Importing again adds the games again (the season excepts them as duplicates).
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder)]) == 0
    assert "0 players added, 13 already there; 56 games" in capsys.readouterr().out
    assert len((folder / "results.csv").read_text(encoding="utf-8").splitlines()) == 301 + 112


def test_a_new_folder_gets_the_template_headers(tmp_path: Path) -> None:
    folder = tmp_path / "new"
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder)]) == 0
    players = (folder / "players.csv").read_text(encoding="utf-8").splitlines()
    results = (folder / "results.csv").read_text(encoding="utf-8").splitlines()
    assert (players[0], len(players)) == (PLAYERS_HEADER, 14)
    assert (results[0], len(results)) == (RESULTS_HEADER, 57)


def test_the_folder_spelling_separator_and_line_ending_are_kept(tmp_path: Path) -> None:
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "players.csv").write_bytes(b"\xef\xbb\xbfname;ECF code\r\nSmith, J;123456A")
    (folder / "results.csv").write_bytes(b"white;black;score\r\n")
    add_to_folder(
        folder,
        [Player("Brown, A", code="210988J", club="Anytown", row=None)],
        [Game("Brown, A", "=Smith, J", "1-0", board=2, row=None)],
        [],
    )
    # The club has no column: one is added at the end of the header, under the template's name.
    assert (folder / "players.csv").read_bytes() == (
        b"\xef\xbb\xbfname;ECF code;Club\r\nSmith, J;123456A\r\nBrown, A;210988J;Anytown\r\n"
    )
    assert (folder / "results.csv").read_bytes() == (
        b"white;black;score;Board\r\nBrown, A;'=Smith, J;1-0;2\r\n"
    )
    assert (folder / "problems.csv").read_bytes() == b"sheet,row,what,why\r\n"


def test_problems_are_added_after_the_earlier_ones(tmp_path: Path) -> None:
    folder = tmp_path / "f"
    add_to_folder(folder, [], [], [Problem("a.trf", 3, "bye", "round 1: bye")])
    add_to_folder(folder, [], [], [Problem("b.trf", None, "absent", "-x")])
    assert (folder / "problems.csv").read_bytes() == (
        b"sheet,row,what,why\r\na.trf,3,bye,round 1: bye\r\nb.trf,,absent,'-x\r\n"
    )


def test_a_header_without_a_needed_column_adds_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _league(tmp_path)
    (folder / "results.csv").write_text("Date,Home,Result\n", encoding="utf-8")
    players = (folder / "players.csv").read_bytes()
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {folder}: results.csv: line 1: header 'Date,Home,Result' has no column "
        "'Away player': nothing was added\n"
    )
    assert (folder / "players.csv").read_bytes() == players
    assert not (folder / "problems.csv").exists()


def test_a_file_is_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "league.csv"
    target.write_text("x\n", encoding="utf-8")
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(target)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {target}: not a folder, nor a workbook (.xlsm, .xlsx)\n"
    )


def test_the_help_example_names_a_file_that_exists(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["import", "--help"])
    out = capsys.readouterr().out
    assert "xlgrade import tests/data/trf/san_viator_2018.trf --into league.xlsm" in out
    assert (ROOT / "tests/data/trf/san_viator_2018.trf").is_file()


def test_a_new_folder_gets_the_season_its_games_were_played_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # San Viator 2018: round 1 on 8 April 2018 (the report's 132 line, "18/04/08"), so the
    # grading season 1 June 2017 to 31 May 2018.
    folder = tmp_path / "new"
    assert main(["import", str(TRF / "san_viator_2018.trf"), "--into", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[2] == (
        f"{folder / 'settings.csv'}: written for the 2017-18 season (2017-06-01 to 2018-05-31), "
        "the one the imported games start in; the other settings are the defaults"
    )
    assert (folder / "settings.csv").read_text(encoding="utf-8").splitlines()[:4] == [
        "Setting,Value",
        "Season name,2017-18",
        "Season start,2017-06-01",
        "Season end,2018-05-31",
    ]
    assert main(["season", str(folder)]) == 0
    assert "date outside season" not in capsys.readouterr().out


def test_a_folder_with_settings_keeps_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _league(tmp_path)
    before = (folder / "settings.csv").read_bytes()
    assert main(["import", str(TRF / "san_viator_2018.trf"), "--into", str(folder)]) == 0
    assert "settings.csv: written" not in capsys.readouterr().out
    assert (folder / "settings.csv").read_bytes() == before


def test_an_undated_file_imported_twice_is_pointed_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t6"
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder)]) == 0
    assert "imported before" not in capsys.readouterr().out
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder)]) == 0
    assert (
        f"check: 56 of the 56 games imported have the same players and date (or event and "
        f"round) as a game already in {folder}: was this file imported before?"
    ) in capsys.readouterr().out.splitlines()
