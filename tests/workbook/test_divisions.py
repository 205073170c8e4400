"""The Divisions sheet (and ``divisions.csv``): read cell by cell with :mod:`xlgrade.cells`, each
unreadable cell said so; the Violations sheet a recalculation writes from it."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest

from tests.league import rows_by_header
from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.formats.folder import read_folder_cells, write_divisions
from xlgrade.model import Game, Player, Problem
from xlgrade.settings import Settings
from xlgrade.teams import NO_BREACH, NO_DIVISIONS, Division
from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.read import read_inputs, recalculate_tables

HEADER = list(layout.DIVISIONS_HEADERS)


def row(**cells: object) -> list[object]:
    """A Divisions row with the cells named by header (spaces as underscores)."""
    by_key = {layout.header_key(k): v for k, v in cells.items()}
    return [by_key.get(layout.header_key(h)) for h in HEADER]


def divisions(*rows: list[object], header: list[object] | None = None) -> tuple[dict, list]:
    inputs = read_inputs({layout.DIVISIONS: [header or HEADER, *rows]})
    found = [p for p in inputs.problems if p.sheet == layout.DIVISIONS]
    return inputs.divisions, found


def test_a_row_of_rules() -> None:
    read, problems = divisions(
        row(division="Minor", boards=4.0, max_total="440", max_grade=125.0, min_counting_grade=75),
        row(division="Open", board_order_tolerance="20", games_to_fix_to_higher_team=3.0,
            one_team_per_division="Yes"),
    )  # fmt: skip
    assert problems == []
    assert read == {
        "Minor": Division("Minor", 4, max_grade=125, max_total=440, min_counting_grade=75, row=2),
        "Open": Division("Open", board_order_tolerance=20, games_to_fix=3, one_team=True, row=3),
    }


def test_a_cell_that_cannot_be_read_leaves_out_its_rule() -> None:
    read, problems = divisions(row(division="Minor", max_total="lots", max_grade=125.0))
    assert read["Minor"].max_total is None
    assert read["Minor"].max_grade == 125
    assert problems == [
        Problem(
            "Divisions", 2, "bad rule", "cell F2 (Max total): 'lots' is not a number: not checked"
        )
    ]


def test_rows_left_out_and_why() -> None:
    read, problems = divisions(
        row(boards=4.0),
        row(division="Minor", max_players_over=1.0),
        row(division="Open", boards=6.0),
        row(division="Open", boards=4.0),
        row(),
    )
    assert list(read) == ["Open"]
    assert read["Open"].boards == 6
    assert [(p.row, p.what, p.why) for p in problems] == [
        (2, "incomplete row", "cell A2 (Division) is blank: its rules are not used"),
        (
            3,
            "bad division",
            "division 'Minor': 'Max players over' and 'Over grade' go together: give both or "
            "neither: the row is not used",
        ),
        (5, "duplicate division", "'Open' is also on row 4: the rules of row 4 are used"),
    ]


def test_a_mistyped_rule_column_stops_the_run() -> None:
    # Read as it is, the division would have no maximum total, in silence.
    inputs = read_inputs({layout.DIVISIONS: [["Division", "Max totl"], ["Minor", 440.0]]})
    assert [(p.what, p.why) for p in inputs.stopped] == [
        (
            "unknown column",
            "column 'Max totl' of the Divisions header is not known: did you mean 'Max total'? "
            "(read as it is, the column would be left out)",
        )
    ]


def test_strict_reading_stops_at_the_first_bad_rule() -> None:
    with pytest.raises(FormatError, match=r"divisions.csv: line 2: cell F2 \(Max total\): 'x'"):
        read_inputs(
            {layout.DIVISIONS: [HEADER, row(division="Minor", max_total="x")]},
            strict=True,
            places={layout.DIVISIONS: "divisions.csv"},
            row_word="line",
        )


def test_no_division_column() -> None:
    read, problems = divisions(["440"], header=["Max total"])
    assert read == {}
    assert [p.what for p in problems] == ["missing column"]


def test_a_book_without_a_divisions_sheet_has_no_rules() -> None:
    inputs = read_inputs({})
    assert inputs.divisions == {}
    assert all(p.sheet != layout.DIVISIONS for p in inputs.problems)


def test_divisions_csv_reads_as_the_sheet(tmp_path: Path) -> None:
    minor = Division("Southend Minor", 4, max_grade=125, max_total=440, min_counting_grade=75)
    open_ = Division("Open", board_order_tolerance=20, games_to_fix=3, one_team=True)
    path = write_divisions(tmp_path, [minor, open_])
    assert path.read_text(encoding="utf-8").splitlines() == [
        ",".join(HEADER),
        # The columns after "One team per division" (the 13th) are blank: no such rules.
        "Southend Minor,4,125,,,440,,75,,,,," + "," * (len(HEADER) - 13),
        "Open,,,,,,,,,,20,3,yes" + "," * (len(HEADER) - 13),
    ]
    read = read_inputs(read_folder_cells(tmp_path)).divisions
    assert read == {"Southend Minor": replace(minor, row=2), "Open": replace(open_, row=3)}


PLAYERS = (
    Player("Ash, Ann", grade=140.0, row=2),
    Player("Box, Bob", grade=112.0, row=3),
    Player("Kay, Kim", grade=134.0, row=4),
    Player("Elm, Eve", grade=100.0, row=5),
    Player("Fir, Fay", grade=100.0, row=6),
    Player("Oak, Olly", grade=100.0, row=7),
)
GAMES = tuple(
    Game(home, away, "1-0", dt.date(2025, 10, 6), "Division 1", "Redmire A v Hull A", board, row=n)
    for n, (board, home, away) in enumerate(
        ((1, "Ash, Ann", "Elm, Eve"), (2, "Box, Bob", "Fir, Fay"), (3, "Kay, Kim", "Oak, Olly")),
        start=2,
    )
)
SETTINGS = Settings(season_start=dt.date(2025, 6, 1), season_end=dt.date(2026, 5, 31))


def test_recalc_writes_the_violations(tmp_path: Path) -> None:
    book = tmp_path / "league.xlsm"
    notts = Division("Division 1", board_order_tolerance=20)
    book.write_bytes(build_workbook(PLAYERS, GAMES, SETTINGS, [notts]))
    assert main(["recalc", str(book)]) == 0
    sheet = read_sheets(book, [layout.VIOLATIONS])[layout.VIOLATIONS]
    # Board 3: 134 − 112 = 22 > 20.
    assert rows_by_header(sheet) == [
        {
            "Division": "Division 1",
            "Date": "2025-10-06",
            "Match": "Redmire A v Hull A",
            "Team": "Redmire A",
            "Board": 3.0,
            "Player": "Kay, Kim",
            "Rule": "board order",
            "Why": "board 3, Kay, Kim (134) is more than 20 above Box, Bob (112) on board 2",
        }
    ]


def test_the_violations_sheet_says_when_there_is_nothing(tmp_path: Path) -> None:
    raw = read_sheets(build_workbook(PLAYERS, GAMES, SETTINGS), layout.INPUT_SHEETS)
    assert recalculate_tables(raw)[layout.VIOLATIONS].rows == [(NO_DIVISIONS,)]
    lenient = Division("Division 1", board_order_tolerance=25)
    raw = read_sheets(build_workbook(PLAYERS, GAMES, SETTINGS, [lenient]), layout.INPUT_SHEETS)
    assert raw[layout.DIVISIONS][1][0] == "Division 1"
    assert recalculate_tables(raw)[layout.VIOLATIONS].rows == [(NO_BREACH,)]
