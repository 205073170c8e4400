"""The union's book: its Leagues, Identities and Publish sheets read back, its leagues graded
as one season by ``xlgrade recalc``, its output sheets written again and the grader's own
sheets kept."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import openpyxl
import pytest

from tests.paths import EXAMPLES
from xlgrade.cli import main
from xlgrade.errors import GradingError
from xlgrade.workbook.union import is_union_book, read_union_book


@pytest.fixture
def book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The example union's book, written beside copies of its two leagues."""
    for name in ("league", "league-calder", "union"):
        shutil.copytree(EXAMPLES / name, tmp_path / name)
    path = tmp_path / "union" / "union.xlsx"
    assert main(["season", str(tmp_path / "union"), "--book", str(path),
                 "--list", "union", "--list", "club:Todmorden"]) == 0  # fmt: skip
    capsys.readouterr()
    return path


def rows(path: Path, sheet: str) -> list[tuple[object, ...]]:
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        return list(wb[sheet].iter_rows(values_only=True))
    finally:
        wb.close()


def test_the_book_names_its_leagues_by_their_place_beside_it(book: Path) -> None:
    assert is_union_book(book)
    leagues = rows(book, "Leagues")
    assert leagues[0] == ("League", "Source", "County", "Players", "Result rows")
    assert leagues[1] == ("Airedale League", "../league", "West Yorkshire", 40, 300)
    assert leagues[2] == ("Calder Valley League", "../league-calder", "West Yorkshire", 14, 21)
    assert rows(book, "Publish")[1:] == [("union", None, None), ("club", "Todmorden", None)]
    union, published = read_union_book(book)
    assert [lg.name for lg in union.leagues] == ["Airedale League", "Calder Valley League"]
    assert [p.title for p in published] == ["union", "club Todmorden"]


def test_recalc_applies_the_decisions_kept_in_the_book_and_keeps_the_graders_sheets(
    book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wb = openpyxl.load_workbook(book)
    wb["Identities"].append(
        ("Calder Valley League", "Cox, P", "Airedale League", "Cox, Peter", "different")
    )
    wb.create_sheet("My notes").append(("kept",))
    wb.save(book)
    assert main(["recalc", str(book)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[1] == "7 players joined across leagues (Joins), 0 not decided (Undecided)"
    assert rows(book, "Undecided") == [
        ("League", "Row", "Name", "Code", "Club", "Why", "Candidates", "Rows held back")
    ]
    assert rows(book, "My notes") == [("kept",)]
    # The decision is kept for the next run.
    assert rows(book, "Identities")[1][4] == "different"
    cards = rows(book, "Player Cards")
    games = [row for row in cards if row[1] == "Cox, P" and isinstance(row[3], dt.datetime)]
    assert len(games) == 4
    assert {row[-1] for row in games} == {"Calder Valley League"}


def test_a_league_row_without_a_source_is_refused_naming_the_sheet_and_row(book: Path) -> None:
    wb = openpyxl.load_workbook(book)
    wb["Leagues"].append(("Wharfedale", None, None))
    wb.save(book)
    with pytest.raises(
        GradingError, match=r"sheet Leagues row 4: a league needs a League and a Source"
    ):
        read_union_book(book)


def test_a_list_to_publish_that_is_not_one_is_refused(book: Path) -> None:
    wb = openpyxl.load_workbook(book)
    wb["Publish"].append(("league", None, None))
    wb.save(book)
    with pytest.raises(GradingError, match=r"sheet Publish row 4: a list to publish has a Scope"):
        read_union_book(book)


def test_a_league_book_is_not_a_union_book() -> None:
    assert not is_union_book(EXAMPLES.parent / "workbook" / "example-league.xlsx")


def test_the_union_template_filled_in_is_recalculated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("league", "league-calder"):
        shutil.copytree(EXAMPLES / name, tmp_path / name)
    path = tmp_path / "union.xlsx"
    assert main(["template", "--union", str(path)]) == 0
    assert rows(path, "Leagues") == [("League", "Source", "County")]
    assert rows(path, "Publish") == [("Scope", "Name", "Categories"), ("union", None, None)]
    assert main(["recalc", str(path)]) != 0  # no league yet
    assert "sheet Leagues: no league listed" in capsys.readouterr().err
    wb = openpyxl.load_workbook(path)
    wb["Leagues"].append(("Calder Valley League", "league-calder", "West Yorkshire"))
    wb["Leagues"].append(("Airedale League", "league", "West Yorkshire"))
    wb.save(path)
    assert main(["recalc", str(path)]) == 0
    printed = capsys.readouterr().out.splitlines()
    # The same union as examples/union, the leagues the other way round.
    assert printed[0].startswith("47 players of 2 leagues (Calder Valley League, Airedale")
    assert "321 result rows: 294 graded" in printed[0]
    assert rows(path, "Grading List")[0][-1] == "Leagues"


def test_the_union_template_is_an_xlsx_and_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["template", "--union", str(tmp_path / "u.xlsm")]) == 1
    assert "name the union's book .xlsx" in capsys.readouterr().err
    assert main(["template", "--union", "--example", str(tmp_path / "u.xlsx")]) == 1
    assert "no --classic, no --example" in capsys.readouterr().err
