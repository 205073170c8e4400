"""Reading the input sheets' cells (xlgrade.workbook.read): every cell that cannot be read is a
problem naming the sheet, the row, the cell and its header and quoting the value; cells Excel
hands over as numbers or dates are read as Excel means them.

Excel's date serials: day 1 is 1900-01-01 and, past the 1900 leap-year slip, serial 45292 is
2024-01-01; so 45443 is 2024-05-31 and 45566 is 2024-10-01.
"""

import datetime as dt
import math
from pathlib import Path
from typing import Any

import pytest

from xlgrade.cli import main
from xlgrade.errors import FormatError
from xlgrade.model import EarlierSeason, Problem
from xlgrade.workbook.package import read_sheets
from xlgrade.workbook.read import grade_inputs, read_inputs
from xlgrade.workbook.recalc import read_book_inputs

SETTINGS_HEADER = ["Setting", "Value", "Meaning"]


def test_missing_sheets_are_problems_not_errors() -> None:
    inputs = read_inputs({})
    assert inputs.problems == [
        Problem("Settings", None, "missing sheet", "the book has no sheet named 'Settings'"),
        Problem("Players", None, "missing sheet", "the book has no sheet named 'Players'"),
        Problem("Results", None, "missing sheet", "the book has no sheet named 'Results'"),
    ]
    assert (inputs.players, inputs.games) == ([], [])


def test_missing_columns_are_named() -> None:
    inputs = read_inputs(
        {"Settings": [["Setting"]], "Players": [["Code", "Club"]], "Results": [["Date", "Result"]]}
    )
    assert inputs.problems == [
        Problem("Settings", 1, "missing column", "no column headed 'Value' on the Settings sheet"),
        Problem("Players", 1, "missing column", "no column headed 'Name' on the Players sheet"),
        Problem(
            "Results", 1, "missing column", "no column headed 'Home player' on the Results sheet"
        ),
        Problem(
            "Results", 1, "missing column", "no column headed 'Away player' on the Results sheet"
        ),
    ]


def test_settings_are_read_as_their_kind() -> None:
    rows = [
        SETTINGS_HEADER,
        ["Season name", 2025.0, None],
        ["Season start", dt.datetime(2023, 6, 1), None],
        ["Season end", 45443.0, None],
        ["Horizon", "none", None],
        ["Minimum games", "25", None],
        ["Category rules", "ECF2015", None],
        ["Floor at zero", "no", None],
        ["Junior age date", None, None],
        [None, "a row with no setting is passed over", None],
    ]
    inputs = read_inputs({"Settings": rows})
    settings = inputs.settings
    assert settings.season_name == "2025"
    assert settings.season_start == dt.date(2023, 6, 1)
    assert settings.season_end == dt.date(2024, 5, 31)
    assert settings.horizon is None
    assert settings.min_games == 25
    assert settings.category_rules == "ecf2015"
    assert settings.floor_at_zero is False
    assert settings.junior_age_date is None
    assert [p for p in inputs.problems if p.sheet == "Settings"] == []


def test_bad_settings_quote_the_cell() -> None:
    rows = [
        SETTINGS_HEADER,
        ["Colour", "blue", None],
        ["Minimum games", "2.5", None],
        ["Borrowing rule", "newest", None],
        ["Floor at zero", "maybe", None],
        ["Season start", "next June", None],
        ["Horizon", "inf", None],
    ]
    problems = [p for p in read_inputs({"Settings": rows}).problems if p.sheet == "Settings"]
    assert problems == [
        Problem("Settings", 2, "unknown setting", "setting 'Colour' is not known"),
        Problem(
            "Settings",
            3,
            "bad setting",
            "cell B3 (Value): '2.5' is not a whole number: the default is used",
        ),
        Problem(
            "Settings",
            4,
            "bad setting",
            "cell B4 (Value): 'newest' is not one of pro_rata, most_recent: the default is used",
        ),
        Problem(
            "Settings",
            5,
            "bad setting",
            "cell B5 (Value): 'maybe' is not yes or no: the default is used",
        ),
        Problem(
            "Settings",
            6,
            "bad setting",
            "cell B6 (Value): 'next June' is not a date: the default is used",
        ),
        Problem(
            "Settings",
            7,
            "bad setting",
            "cell B7 (Value): 'inf' is not a finite number: the default is used",
        ),
    ]


def test_the_header_may_stand_below_blank_rows_and_cells_are_cleaned() -> None:
    rows = [
        [None, None, None],
        ["", "  ", None],
        ["Name", "Grade", "Date of birth"],
        ["  Smith,   John ", 142.0, dt.datetime(2010, 5, 1)],
        [None, math.nan, "  "],
        ["Brown, Alan", "1,234", "1 May 2010"],
        ["Green, Mary", None, 40000.0],
    ]
    inputs = read_inputs({"Players": rows})
    players = inputs.players
    assert [(p.name, p.grade, p.date_of_birth, p.row) for p in players] == [
        ("Smith, John", 142.0, dt.date(2010, 5, 1), 4),
        ("Brown, Alan", 1234.0, dt.date(2010, 5, 1), 6),
        # 39814 is 2009-01-01, so 40000 is day 187 of 2009.
        ("Green, Mary", None, dt.date(2009, 7, 6), 7),
    ]
    assert [p for p in inputs.problems if p.sheet == "Players"] == []


def test_bad_player_cells_quote_the_cell() -> None:
    header = ["Name", "Grade", "Junior", "Previous games", "Previous points"]
    rows = [
        header,
        ["A", True, None, None, None],
        ["B", dt.time(10, 0), None, None, None],
        ["C", 120, "perhaps", None, None],
        ["D", 120, None, 12, None],
        ["E", 120, None, None, 1500],
        ["F", 120, "yes", 12, 1500],
    ]
    inputs = read_inputs({"Players": rows})
    assert [p for p in inputs.problems if p.sheet == "Players"] == [
        Problem("Players", 2, "bad grade", "cell B2 (Grade): TRUE is not a number: left out"),
        Problem(
            "Players",
            3,
            "bad grade",
            "cell B3 (Grade): datetime.time(10, 0) is not a number: left out",
        ),
        Problem(
            "Players",
            4,
            "bad junior flag",
            "cell C4 (Junior): 'perhaps' is not yes or no: left out",
        ),
        Problem(
            "Players",
            5,
            "incomplete season",
            "cell E5 (Previous points) is blank but previous season's other total is given: "
            "that season left out",
        ),
        Problem(
            "Players",
            6,
            "incomplete season",
            "cell D6 (Previous games) is blank but previous season's other total is given: "
            "that season left out",
        ),
    ]
    # Every player is kept, with only the values that could not be read left out.
    assert [(p.name, p.grade, p.junior, p.previous) for p in inputs.players] == [
        ("A", None, False, None),
        ("B", None, False, None),
        ("C", 120, False, None),
        ("D", 120, False, None),
        ("E", 120, False, None),
        ("F", 120, True, EarlierSeason(12, 1500)),
    ]


def test_results_rows_are_read_and_bad_ones_quoted() -> None:
    header = ["Date", "Board", "Home player", "Result", "Away player"]
    rows = [
        header,
        [45566.0, "3", "Smith, John", "1-0", "Brown, Alan"],
        [None, None, None, None, None],
        [None, None, "Smith, John", dt.datetime(2025, 10, 1), "Brown, Alan"],
        [dt.date(2024, 10, 8), 1, "Smith, John", "½-½", "Brown, Alan"],
    ]
    inputs = read_inputs({"Results": rows})
    assert [(g.date, g.board, g.home, g.result, g.away, g.row) for g in inputs.games] == [
        (dt.date(2024, 10, 1), 3, "Smith, John", "1-0", "Brown, Alan", 2),
        (dt.date(2024, 10, 8), 1, "Smith, John", "½-½", "Brown, Alan", 5),
    ]
    assert [p for p in inputs.problems if p.sheet == "Results"] == [
        Problem(
            "Results",
            4,
            "bad result",
            "cell D4 (Result): '2025-10-01' is a date, not a result; format the cell as text",
        )
    ]


def test_a_date_cell_with_a_time_of_day_is_its_day() -> None:
    rows = [
        ["Home player", "Result", "Away player", "Date"],
        ["Smith", "1-0", "Brown", "10/09/2025 19:30"],
        ["Smith", "1-0", "Brown", "2025-09-17 00:00:00"],
    ]
    inputs = read_inputs({"Results": rows})
    assert [g.date for g in inputs.games] == [dt.date(2025, 9, 10), dt.date(2025, 9, 17)]


def test_a_player_with_a_code_and_no_name_is_kept_under_his_code() -> None:
    rows = [["Code", "Name", "Grade"], ["935507J", None, 150], [None, None, 120]]
    inputs = read_inputs({"Players": rows})
    assert [(p.code, p.name, p.grade) for p in inputs.players] == [("935507J", "935507J", 150)]
    assert [(p.row, p.what, p.why) for p in inputs.problems if p.sheet == "Players"] == [
        (2, "no name", "cell B2 (Name) is blank: listed under the code '935507J'"),
        (3, "no name", "cell B3 (Name) is blank"),
    ]


def test_error_cells_are_read_as_the_error_they_show(tmp_path: Path) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    players = book.active
    players.title = "Players"
    players.append(["Code", "Name", "Grade"])
    players.append(["470892B", "Jarvis, Robert", "#N/A"])  # openpyxl stores it as an error
    results = book.create_sheet("Results")
    results.append(["Date", "Home player", "Result", "Away player"])
    results.append(["#VALUE!", "470892B", "1-0", "Smith"])
    path = tmp_path / "errors.xlsx"
    book.save(path)
    raw = read_sheets(path, ["Players", "Results"])
    assert raw["Players"][1] == ["470892B", "Jarvis, Robert", "#N/A"]
    assert raw["Results"][1][0] == "#VALUE!"
    inputs = read_inputs(raw)
    assert [p.why for p in inputs.problems if p.what != "missing sheet"] == [
        "cell C2 (Grade): '#N/A' is not a number: left out",
        "cell A2 (Date): '#VALUE!' is not a date",
    ]


def _league_book() -> Any:
    """Three players and four games, as openpyxl builds a book (an ``openpyxl.Workbook``)."""
    import openpyxl

    book = openpyxl.Workbook()
    settings = book.active
    settings.title = "Settings"
    settings.append(SETTINGS_HEADER)
    settings.append(["Season start", dt.datetime(2025, 6, 1), None])
    settings.append(["Season end", dt.datetime(2026, 5, 31), None])
    players = book.create_sheet("Players")
    players.append(["Name", "Grade"])
    for name, grade in (("Able, Ann", 120), ("Best, Bob", 130), ("Cole, Cy", 140)):
        players.append([name, grade])
    results = book.create_sheet("Results")
    results.append(["Date", "Board", "Home player", "Result", "Away player"])
    results.append([dt.datetime(2025, 10, 1), 1, "Able, Ann", "1-0", "Best, Bob"])
    results.append([None, 2, "Best, Bob", "½-½", "Cole, Cy"])
    results.append([None, 3, "Cole, Cy", "0-1", "Able, Ann"])
    results.append([dt.datetime(2025, 11, 5), 1, "Able, Ann", "0-1", "Nobody"])
    return book


def test_a_date_merged_over_a_matchs_rows_is_the_date_of_each_noted(tmp_path: Path) -> None:
    book = _league_book()
    book["Results"].merge_cells("A2:A4")  # the date typed once over the match's three boards
    book["Results"].merge_cells("A5:A7")  # over row 5 and two empty rows
    path = tmp_path / "merged.xlsx"
    book.save(path)
    raw = read_sheets(path, ["Results"])
    assert [row[0] for row in raw["Results"][1:]] == [dt.date(2025, 10, 1)] * 3 + [
        dt.date(2025, 11, 5)
    ]
    season = grade_inputs(read_book_inputs(path.read_bytes(), path))
    # Rows 2 to 4 are graded, on 1 October; row 5 (an unknown player) is not, its one line.
    assert season.accounting.standard_graded == 3
    assert season.accounting.rows == 4
    assert [(p.row, p.what, p.why) for p in season.problems if p.sheet == "Results"] == [
        (3, "merged cell", "cell A3 (Date) is merged with A2 above it: read as A2's 2025-10-01"),
        (4, "merged cell", "cell A4 (Date) is merged with A2 above it: read as A2's 2025-10-01"),
        (5, "unknown player", "no player is called 'Nobody'"),
    ]
    assert main(["recalc", str(path)]) == 0


def test_a_hidden_row_is_graded_and_noted(tmp_path: Path) -> None:
    book = _league_book()
    book["Results"].row_dimensions[3].hidden = True  # a graded row
    book["Results"].row_dimensions[5].hidden = True  # a row with an unknown player
    book["Players"].row_dimensions[2].hidden = True
    book["Results"]["A3"] = dt.datetime(2025, 10, 1)
    book["Results"]["A4"] = dt.datetime(2025, 10, 1)
    path = tmp_path / "hidden.xlsx"
    book.save(path)
    season = grade_inputs(read_book_inputs(path.read_bytes(), path))
    assert season.accounting.standard_graded == 3  # rows 2, 3 (hidden) and 4
    lines = [(p.sheet, p.row, p.what, p.why) for p in season.problems if p.sheet != "Settings"]
    assert lines == [
        ("Players", 2, "hidden row", "row 2 is hidden: it is read all the same"),
        ("Results", 3, "hidden row", "row 3 is hidden: it is read all the same"),
        (
            "Results",
            5,
            "unknown player",
            "no player is called 'Nobody'; also row 5 is hidden: it is read all the same",
        ),
    ]
    assert season.accounting.balanced


def test_merged_cells_that_overlap_past_the_limit_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from xlgrade.workbook import package

    book = _league_book()
    book["Results"].merge_cells("A2:A4")
    path = tmp_path / "merged.xlsx"
    book.save(path)
    monkeypatch.setattr(package, "MAX_SHEET_CELLS", 1)  # the merge fills 2 cells
    with pytest.raises(FormatError) as caught:
        read_sheets(path, ["Results"])
    assert str(caught.value) == (
        f"{path}: sheet 'Results': its merged cells overlap, covering more than 1 cells"
    )
