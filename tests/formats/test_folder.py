"""``xlgrade season FOLDER`` (or BOOK) reads every folder xlgrade writes, refuses a folder it cannot
grade with the reason, and prints the Players and Settings cells it could not read.

``xlgrade import FILE --into FOLDER`` adds to a season folder: the rows already there and the
folder's own header spelling are kept, and a new folder gets the template's headers.

A folder file that cannot be exported is named.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from tests.paths import ROOT, TRF
from xlgrade.cli import main
from xlgrade.formats.folder import add_to_folder
from xlgrade.model import Game, Player, Problem
from xlgrade.workbook.read import read_inputs

LEAGUE = ROOT / "examples" / "league"
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


def test_a_book_grades_as_the_folder_it_exports_and_is_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "league.xlsm"
    shutil.copy(ROOT / "workbook" / "example-league.xlsm", book)
    before = book.read_bytes()
    assert main(["export", str(book), "--csv", str(tmp_path / "out")]) == 0
    capsys.readouterr()
    from_book = _season(book, capsys)
    # The example book's own season, as the summary line of its Exceptions sheet has it.
    assert from_book[-1].startswith("300 result rows: 284 graded, 2 rapidplay, 14 not graded")
    assert _season(tmp_path / "out", capsys) == from_book
    card = _season(book, capsys, "--card", "Jarvis, Robert")
    assert card == _season(tmp_path / "out", capsys, "--card", "Jarvis, Robert")
    assert book.read_bytes() == before


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
        f"note: {folder / 'settings.csv'} not found: default settings used, for the 2025-26 "
        "season (2025-06-01 to 2026-05-31), the one the games were played in"
    )


def test_a_file_of_the_folder_names_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = LEAGUE / "results.csv"
    assert main(["season", str(results)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {results} is a file but not a workbook (.xlsm, .xlsx): xlgrade season reads a "
        "league workbook or a folder that holds players.csv and results.csv (and "
        f"settings.csv); did you mean {LEAGUE}?\n"
    )
    alone = tmp_path / "notes.txt"
    alone.write_text("x\n", encoding="utf-8")
    assert main(["season", str(alone)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {alone} is a file but not a workbook (.xlsm, .xlsx): xlgrade season reads a "
        "league workbook or a folder that holds players.csv and results.csv (and "
        "settings.csv)\n"
    )


def test_an_empty_folder_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["season", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"Error: {tmp_path}: no players.csv and no results.csv: a season folder holds "
        "players.csv and results.csv (and settings.csv, else the default settings are used; "
        "divisions.csv holds the divisions' rules)\n"
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
    assert out[-3:] == [
        SUMMARY,  # no game of his is now an unknown player's
        "2 cells of players.csv could not be read (--exceptions lists them all):",
        # One line a row, its first cell first, the other after it (as on --exceptions).
        "  players.csv row 2: cell F2 (Grade): '12O' is not a number: left out; also cell H2 "
        "(Previous games): 'seven' is not a number: previous season left out",
    ]
    card = _season(folder, capsys, "--card", "470892B")
    assert card[0] == "Jarvis, Robert — grade at the start of the season: ungraded"
    exceptions = _season(folder, capsys, "--exceptions")
    assert [line for line in exceptions if line.startswith("Players    2")] == [
        "Players    2  bad grade                  cell F2 (Grade): '12O' is not a number: left "
        "out; also cell H2 (Previous games): 'seven' is not a number: previous season left out"
    ]


def test_many_bad_cells_are_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = "".join(f"P{i},x{i}\n" for i in range(12))
    (tmp_path / "players.csv").write_text("Name,Grade\n" + rows, encoding="utf-8")
    (tmp_path / "results.csv").write_text("Home player,Result,Away player\n", encoding="utf-8")
    (tmp_path / "settings.csv").write_text("Setting,Value\nHorizon,far\n", encoding="utf-8")
    out = _season(tmp_path, capsys)
    assert out[-12:] == [
        "13 cells of settings.csv and players.csv could not be read (--exceptions lists them "
        "all):",
        "  settings.csv row 2: cell B2 (Value): 'far' is not a number: the default is used",
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
    # Next season's book has next season's dates, and this season's divisions' rules: its CSV
    # export carries them, so the folder grades the same rows as the book.
    book = tmp_path / "next.xlsm"
    assert main(["new-season", str(ROOT / "workbook" / "example-league.xlsm"), str(book)]) == 0
    folder = tmp_path / "csv"
    assert main(["export", str(book), "--csv", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"{folder}: settings, divisions, 40 players, 0 games written"
    )
    settings = (folder / "settings.csv").read_text(encoding="utf-8").splitlines()
    assert settings[1:4] == [
        "Season name,2026-27",
        "Season start,2026-06-01",
        "Season end,2027-05-31",
    ]


def test_a_horizon_turned_off_stays_off_in_a_csv_export(tmp_path: Path) -> None:
    from xlgrade.settings import Settings
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


PLAYERS_HEADER = (
    "Code,Name,Club,Date of birth,Junior,Grade,Estimated grade,Previous games,Previous points,"
    "Earlier games,Earlier points,Lapsed grade,ECF rating,ECF category,ECF rapid rating,"
    "ECF rapid category,Last rated month,ECF results in 12 months,"
    "ECF rapid results in 12 months,ECF P games,ECF P score,ECF P opposition,"
    "ECF rapid P games,ECF rapid P score,ECF rapid P opposition,Estimated rating,"
    "Latest ECF rating,Registered team,Registered from,FIDE rating,ECF member,"
    "League registered"
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
    # Importing again with --again adds the games again (the season excepts them as
    # duplicates).
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder), "--again"]) == 0
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
    # A cell holding a separator of another locale (the comma here) is quoted.
    assert (folder / "players.csv").read_bytes() == (
        b'\xef\xbb\xbfname;ECF code;Club\r\nSmith, J;123456A\r\n"Brown, A";210988J;Anytown\r\n'
    )
    assert (folder / "results.csv").read_bytes() == (
        b'white;black;score;Board\r\n"Brown, A";"\'=Smith, J";1-0;2\r\n'
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
        "the one the games were played in; the other settings are the defaults"
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


def test_an_undated_file_imported_twice_is_refused_unless_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "t6"
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder)]) == 0
    assert "already there (" not in capsys.readouterr().out
    files = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {folder}: 56 of the 56 games to import have the same players and date (or "
        "event and round) as a game already there: was this file imported before? Nothing was "
        "added; --again adds the games all the same\n"
    )
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files
    assert main(["import", str(TRF / "2020_06.trf"), "--into", str(folder), "--again"]) == 0
    assert (
        "note: 56 of the 56 games imported were already there (the same players and date, or "
        "event and round); added again as --again asks"
    ) in capsys.readouterr().out.splitlines()


def test_an_unreadable_folder_file_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "players.csv").write_text("Name\nA\nB\n", encoding="utf-8")
    (tmp_path / "results.csv").write_text(
        "Home player,Result,Away player,Date\nA,1-0,B,31/02/2026\n", encoding="utf-8"
    )
    assert main(["export", str(tmp_path), "--csv", str(tmp_path / "out")]) == 1
    assert capsys.readouterr().err == (
        "Error: results.csv: line 2: cell D2 (Date): '31/02/2026' is not a date\n"
    )


def test_the_rating_columns_are_read_and_a_bad_one_is_named(tmp_path: Path) -> None:
    from xlgrade.formats.folder import read_folder

    folder = tmp_path / "rated"
    folder.mkdir()
    (folder / "players.csv").write_text(
        "Name,ECF rating,ECF category,ECF rapid rating,ECF rapid category,Last rated month\n"
        '"Able, Ann",1650,k,1580,P,Aug 2025\n"Best, Bob",1600,H,,,soon\n',
        encoding="utf-8",
    )
    read = read_folder(folder, strict=False)
    ann, bob = read.players
    assert (ann.rating, ann.rating_category, ann.rapid_rating, ann.rapid_category) == (
        1650, "K", 1580, "P",
    )  # fmt: skip
    assert ann.last_rated_month == dt.date(2025, 8, 1)
    assert (bob.rating, bob.rating_category, bob.last_rated_month) == (1600, None, None)
    assert [(p.row, p.what, p.why) for p in read.unread] == [
        (
            3,
            "bad rating",
            "cell C3 (ECF category): 'H' is not a rating category (A, K or P): left out",
        ),
        (3, "bad date", "cell F3 (Last rated month): 'soon' is not a month: left out"),
    ]


def test_a_folder_with_blank_season_cells_grades_the_season_of_its_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # docs/rules.md §11: a season runs 1 June to 31 May. 1 October 2026 and 1 March 2027
    # are in 2026-27, 1 October 2025 in 2025-26: the season holding most of the games is
    # 2026-27, and the game of 2025 is outside it.
    folder = tmp_path / "blank"
    folder.mkdir()
    (folder / "settings.csv").write_text(
        "Setting,Value\nSeason name,\nSeason start,\nSeason end,\n", encoding="utf-8"
    )
    (folder / "players.csv").write_text(
        'Code,Name,Grade\n,"Able, Ann",150\n,"Best, Bob",130\n', encoding="utf-8"
    )
    (folder / "results.csv").write_text(
        RESULTS_HEADER + "\n"
        '01/10/2026,Div 1,M1,1,"Able, Ann",1-0,"Best, Bob",\n'
        '01/03/2027,Div 1,M2,1,"Best, Bob",½-½,"Able, Ann",\n'
        '01/10/2025,Div 1,M0,1,"Able, Ann",0-1,"Best, Bob",\n',
        encoding="utf-8",
    )
    note = (
        "Season start and Season end are blank (cells B3 and B4): the 2026-27 season "
        "(2026-06-01 to 2027-05-31), the one holding most of the games (2 of the 3 dated "
        "games; the others are outside it)"
    )
    out = _season(folder, capsys)
    assert out[0] == "Grading list 2026-27"
    assert out[-2:] == [
        "3 result rows: 2 graded, 0 rapidplay, 1 not graded (1 date outside season)",
        f"note: settings.csv: {note}",
    ]
    exceptions = _season(folder, capsys, "--exceptions")
    assert any(line.startswith("Settings    3  season from the games") for line in exceptions)
    assert any("2025-10-01 is outside the season 2026-06-01 to 2027-05-31" in line
               for line in exceptions)  # fmt: skip
