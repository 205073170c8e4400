"""``xlgrade season`` of several leagues, or of a union's folder: one list, the joins, the
undecided, the lists at each scope written as CSV files and as the union's book, and the
errors naming the league, the file and the line."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import openpyxl
import pytest

from tests.paths import EXAMPLES, ROOT
from xlgrade.cli import main

CALDER = "Calder Valley League"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["season", *args])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_the_union_folder_is_one_list_naming_each_players_leagues(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, str(EXAMPLES / "union"))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Grading list 2025-26, union (Airedale League, Calder Valley League)"
    assert lines[1].split()[-1] == "Leagues"
    townend = next(line for line in lines if "Townend, Catherine" in line)
    assert townend.endswith("Airedale League, Calder Valley League")
    # 300 rows of the Airedale League and 21 of the Calder Valley League.
    assert lines[-2].startswith("321 result rows: ")
    assert lines[-1] == "7 players joined across leagues (--joins), 1 not decided (--undecided)"


def test_the_undecided_player_and_the_rows_he_holds_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run(capsys, str(EXAMPLES / "union"), "--undecided")
    assert code == 0
    (line,) = out.splitlines()[1:]
    assert "Cox, P" in line
    assert "'Cox, Peter' of 'Redmire Chess Club' (Airedale League Players row 8)" in line
    # Cox, P plays on lines 4, 7, 14 and 15 of the Calder Valley League's results.csv.
    held = "; ".join(f"{CALDER} row {row}" for row in (4, 7, 14, 15))
    assert line.endswith(held)


def test_the_graders_decision_grades_him_on_every_later_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    union = tmp_path / "union"
    shutil.copytree(EXAMPLES / "union", union)
    for name in ("league", "league-calder"):
        shutil.copytree(EXAMPLES / name, tmp_path / name)
    shutil.copy(EXAMPLES / "cox-is-not-cox.csv", union / "identities.csv")
    code, out = run(capsys, str(union))
    assert code == 0
    assert out.splitlines()[-1].endswith("0 not decided (--undecided)")
    code, out = run(capsys, str(union), "--card", "Cox, P")
    lines = out.splitlines()
    assert lines[2] == "Game  Res  OppsGrade  Points  League"
    games = [line for line in lines if line[:4].strip().isdigit() and line.endswith(CALDER)]
    assert len(games) == 4
    assert lines[-1] == f"Leagues: {CALDER}"


def test_the_joins_say_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, str(EXAMPLES / "union"), "--joins")
    assert code == 0
    horsfall = [line for line in out.splitlines() if "Horsfall" in line]
    assert len(horsfall) == 2
    assert horsfall[1].endswith("the names agree (initials) and the same club")


def test_leagues_given_one_by_one_are_named_as_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys,
        f"Airedale={EXAMPLES / 'league'}",
        f"Calder={EXAMPLES / 'league-calder'}",
        "--list",
        "league:Calder",
    )
    assert code == 0
    assert out.splitlines()[0] == "Grading list 2025-26, league Calder (Airedale, Calder)"


def test_the_lists_written_as_csv_files_and_as_the_unions_book(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    book = tmp_path / "union.xlsx"
    code, out = run(
        capsys, str(EXAMPLES / "union"), "--list", "union", "--list", f"league:{CALDER}",
        "--list", "club:Todmorden", "--csv", str(tmp_path / "lists"), "--book", str(book),
    )  # fmt: skip
    assert code == 0, out
    written = sorted(p.name for p in (tmp_path / "lists").iterdir())
    assert written == [
        "cards.csv", "exceptions.csv", "grading-list-club-todmorden.csv",
        "grading-list-league-calder-valley-league.csv", "grading-list.csv", "joins.csv",
        "rapid-list-club-todmorden.csv", "rapid-list-league-calder-valley-league.csv",
        "rapid-list.csv", "undecided.csv",
    ]  # fmt: skip
    club = list(
        csv.DictReader(
            io.StringIO((tmp_path / "lists" / "grading-list-club-todmorden.csv").read_text())
        )
    )
    # Todmorden's players on the Calder Valley League's Players table: Ashworth, Mitchell
    # (Illingworth is ungraded with too few games for a category).
    assert [row["Name"] for row in club] == ["Ashworth, Peter", "Mitchell, Ruth"]
    wb = openpyxl.load_workbook(book)
    assert wb.sheetnames[:4] == ["Leagues", "Identities", "Publish", "Grading List"]
    assert {"Player Cards", "Exceptions", "Joins", "Undecided"} <= set(wb.sheetnames)
    assert f"List league {CALDER}"[:31] in wb.sheetnames
    leagues = list(wb["Leagues"].iter_rows(values_only=True))
    assert leagues[1][0] == "Airedale League"
    assert leagues[2][3] == 14


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--list", "region:North"], "Error: --list 'region:North': the scope is one of"),
        (["--list", "league"], "Error: --list 'league': name the league (league:NAME)"),
        (["--categories", "A,Q"], "Error: --categories: 'Q' is not a category"),
        (["--list", "county:Lancs"], "Error: no league of the union is in the county 'Lancs'"),
    ],
)
def test_bad_options_are_refused_naming_them(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out = run(capsys, str(EXAMPLES / "union"), *args)
    assert code != 0
    assert message in out


def test_a_union_option_for_one_league_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, str(EXAMPLES / "league"), "--joins")
    assert code != 0
    assert "--joins: for a union of leagues" in out


def test_a_leagues_file_without_a_source_column_is_refused_naming_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "leagues.csv").write_text("League,Path\nNorth,../north\n", encoding="utf-8")
    code, out = run(capsys, str(tmp_path))
    assert code != 0
    assert f"{tmp_path / 'leagues.csv'}: line 1: no 'Source' column" in out


def test_a_league_that_cannot_be_read_is_named_with_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "leagues.csv").write_text(
        f"League,Source\nAiredale,{EXAMPLES / 'league'}\nNorth,missing\n", encoding="utf-8"
    )
    code, out = run(capsys, str(tmp_path))
    assert code != 0
    assert f"{tmp_path / 'leagues.csv'}: line 3 (league 'North'): " in out
    assert "no such workbook, folder or file" in out


def test_a_decision_that_is_not_one_is_refused_naming_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    decisions = tmp_path / "identities.csv"
    decisions.write_text(
        "League,Player,Other league,Other player,Decision\nA,x,B,y,maybe\n", encoding="utf-8"
    )
    code, out = run(capsys, str(EXAMPLES / "union"), "--decisions", str(decisions))
    assert code != 0
    assert f"{decisions}: line 2: a decision names" in out
    assert "'maybe'" in out


def test_a_code_the_ecf_list_names_another_player_is_held_back(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # examples/ratings-2025-08.csv has 470892B as 'Jarvis, Adam'; both leagues say Robert.
    code, out = run(capsys, str(EXAMPLES / "union"), "--undecided",
                    "--ecf-list", str(EXAMPLES / "ratings-2025-08.csv"))  # fmt: skip
    assert code == 0
    jarvis = [line for line in out.splitlines() if "470892B" in line]
    assert len(jarvis) == 2
    assert "code 470892B is 'Jarvis, Adam' on the ECF's list, not 'Robert Jarvis'" in jarvis[1]


def test_a_league_sent_as_an_ecf_results_file_is_joined_as_its_folder_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ecf = tmp_path / "calder.txt"
    assert main(["export", str(EXAMPLES / "league-calder"), "--ecf", str(ecf),
                 "--event-code", "ABC123", "--event-name", "Calder Cup",
                 "--minutes-for-game", "90", "--results-officer", "A Grader",
                 "--results-officer-address", "1 Street", "--treasurer", "T",
                 "--treasurer-address", "2 Street"]) == 0  # fmt: skip
    capsys.readouterr()
    code, out = run(capsys, f"Airedale={EXAMPLES / 'league'}", f"Calder={ecf}")
    assert code == 0
    # The same seven players joined and Cox, P not decided, as from the folder; the file
    # leaves out the folder's unknown 'Horsfall, William' row, so 300 + 20 rows.
    assert out.splitlines()[-1] == (
        "7 players joined across leagues (--joins), 1 not decided (--undecided)"
    )
    assert out.splitlines()[-2].startswith("320 result rows: ")


def test_a_congress_sent_as_a_trf_is_a_league_of_the_union(
    capsys: pytest.CaptureFixture[str],
) -> None:
    trf = ROOT / "tests" / "data" / "trf" / "san_viator_2018.trf"
    code, out = run(capsys, f"Airedale={EXAMPLES / 'league'}", f"Madrid={trf}")
    assert code == 0
    assert out.splitlines()[0].endswith("union (Airedale, Madrid)")
