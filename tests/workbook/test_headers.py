"""A header mistake stops the run instead of changing the grades: a missing required column, or
a header that is close to a known one (``Grading`` for ``Grade``, ``Home`` for ``Home
player``), on a book's sheet and in a CSV folder alike; a grade column nothing reads is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.league import build_league
from xlgrade.cli import main
from xlgrade.errors import HeaderError
from xlgrade.season import Table
from xlgrade.workbook import layout
from xlgrade.workbook.package import read_sheets, write_sheets
from xlgrade.workbook.read import grade_inputs, read_inputs

PLAYERS = [["Code", "Name", "Grading"], ["123456A", "Smith, John", 205]]
RESULTS = [["Date", "Home", "Result", "Away player"], ["2025-10-01", "123456A", "1-0", "X"]]


def test_a_header_close_to_a_known_one_stops_the_run_naming_the_likely_one() -> None:
    inputs = read_inputs({layout.PLAYERS: PLAYERS, layout.RESULTS: RESULTS})
    assert [(p.sheet, p.row, p.what, p.why) for p in inputs.stopped] == [
        (
            "Players",
            1,
            "unknown column",
            "column 'Grading' of the Players header is not known: did you mean 'Grade'? "
            "(read as it is, the column would be left out)",
        ),
        (
            "Results",
            1,
            "unknown column",
            "column 'Home' of the Results header is not known: did you mean 'Home player'? "
            "(read as it is, the column would be left out)",
        ),
    ]
    # Nothing is graded, and the Exceptions sheet says why.
    season = grade_inputs(inputs)
    assert season.accounting.rows == 0
    listed = [row[2] for row in season.exceptions_table().rows]
    assert listed.count("unknown column") == 2
    with pytest.raises(HeaderError, match=r"^Players: column 'Grading' of the Players header"):
        inputs.refuse_stopped()


def test_a_missing_required_column_stops_the_run() -> None:
    inputs = read_inputs({layout.RESULTS: [["Date", "Result", "Away player"]]})
    assert [(p.what, p.why) for p in inputs.stopped] == [
        ("missing column", "no column headed 'Home player' on the Results sheet")
    ]


def test_a_grade_column_nothing_reads_is_said_but_does_not_stop_the_run() -> None:
    rows = [["Name", "Grade", "Grade last year"], ["Smith, John", 150, 148]]
    inputs = read_inputs({layout.PLAYERS: rows})
    assert inputs.stopped == []
    assert [(p.what, p.why) for p in inputs.problems if p.sheet == layout.PLAYERS] == [
        (
            "column not read",
            "column 'Grade last year' of the Players header is not read (the grades read are "
            "'Grade', 'Estimated grade', 'Lapsed grade')",
        )
    ]
    assert inputs.players[0].grade == 150


def test_a_grader_s_own_columns_are_left_alone() -> None:
    rows = [["Name", "Grade", "Notes", "Email", "Team"], ["Smith, John", 150, "x", "y", "A"]]
    inputs = read_inputs({layout.PLAYERS: rows})
    assert [p for p in inputs.problems if p.sheet == layout.PLAYERS] == []


def test_recalc_says_so_and_leaves_the_book_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = build_league(tmp_path)
    assert main(["recalc", str(book)]) == 0  # the last good run
    players = read_sheets(book, [layout.PLAYERS])[layout.PLAYERS]
    header = ["Grading" if h == "Grade" else h for h in players[0]]
    write_sheets(book, {layout.PLAYERS: Table(tuple(map(str, header)), players[1:])})
    typo = book.read_bytes()
    capsys.readouterr()
    assert main(["recalc", str(book)]) == 1
    err = capsys.readouterr().err.splitlines()[-1]
    why = (
        "Error: Players: column 'Grading' of the Players header is not known: did you mean "
        "'Grade'? (read as it is, the column would be left out); nothing was graded and "
    )
    assert err == why + f"{book} was not changed: its lists are those of its last good run"
    assert book.read_bytes() == typo  # byte for byte: the lists of the last good run
    assert sorted(p.name for p in tmp_path.iterdir()) == [book.name]
    out = tmp_path / "out.xlsm"
    assert main(["recalc", str(book), "--out", str(out)]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == why + f"{out} was not written"
    assert not out.exists()
    assert book.read_bytes() == typo


def test_a_folder_with_a_header_mistake_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "players.csv").write_text("Name,Grading\nSmith J,150\nBrown A,120\n", "utf-8")
    # "Home" is another spelling a results CSV may use (xlgrade.formats.csvfile): read.
    (tmp_path / "results.csv").write_text(
        "Date,Home,Result,Away player\n2025-10-01,Smith J,1-0,Brown A\n", "utf-8"
    )
    assert main(["season", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"Error: {tmp_path / 'players.csv'}: column 'Grading' of the Players header is not "
        "known: did you mean 'Grade'? (read as it is, the column would be left out)\n"
    )
