"""Importing into a league workbook as a library call (xlgrade.workbook.importing): what comes
back is what the book then holds, and one write makes the whole book or none of it.

The book is the hand-typed league of tests/league.py: six players, Results rows 2 to 11. The
file imported is a results CSV of three games typed here, on dates in its season: a win
(graded), a default (kept, not graded: docs/rules.md §1) and a game against a player the
book does not have (unknown player), on Results rows 12, 13 and 14.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.league import build_league
from xlgrade.errors import RepeatedImportError
from xlgrade.formats.detect import read_any
from xlgrade.workbook import layout
from xlgrade.workbook.importing import import_into_book
from xlgrade.workbook.package import read_sheets

RESULTS_CSV = (
    "Date,Division,Home player,Result,Away player,Time control\n"
    "2026-01-10,Division 1,123456A,1-0,456789E,75\n"
    "2026-01-10,Division 1,345678L,0-1 def,567890A,75\n"
    "2026-01-10,Division 1,123456A,½-½,Nobody Known,75\n"
)


def test_the_values_returned_are_what_the_book_holds(tmp_path: Path) -> None:
    book = build_league(tmp_path)
    done = import_into_book(read_any(RESULTS_CSV, "three.csv"), book)
    assert done.target == str(book)
    assert done.rows == range(12, 15)
    assert done.excepted == {13: "default", 14: "unknown player"}
    assert (done.merged.added, done.repeated, done.notes) == ((), 0, ())
    # 10 + 3 rows: the league's default (row 9) and the two above are not graded.
    assert (done.summary.games, done.summary.graded, done.summary.not_graded) == (13, 10, 3)
    sheets = read_sheets(book, [layout.RESULTS, layout.EXCEPTIONS])
    assert [row[4] for row in sheets[layout.RESULTS][11:14]] == ["123456A", "345678L", "123456A"]
    on_sheet = {(r[1], r[2]) for r in sheets[layout.EXCEPTIONS][1:] if r[0] == layout.RESULTS}
    assert {(13, "default"), (14, "unknown player")} <= on_sheet
    assert len(sheets[layout.EXCEPTIONS]) - 2 == done.summary.exceptions  # header, summary


def test_a_second_import_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    book = build_league(tmp_path)
    imported = read_any(RESULTS_CSV, "three.csv")
    import_into_book(imported, book)
    once = book.read_bytes()
    with pytest.raises(RepeatedImportError) as error:
        import_into_book(imported, book)
    assert str(error.value) == (
        f"{book}: 3 of the 3 games to import have the same players and date (or event and "
        "round) as a game already there: was this file imported before? Nothing was added; "
        "--again adds the games all the same"
    )
    assert book.read_bytes() == once
    again = import_into_book(imported, book, again=True)
    assert (again.repeated, again.rows) == (3, range(15, 18))


def test_out_leaves_the_book_as_it_was(tmp_path: Path) -> None:
    book = build_league(tmp_path)
    before = book.read_bytes()
    done = import_into_book(read_any(RESULTS_CSV, "three.csv"), book, tmp_path / "out.xlsm")
    assert done.target == str(tmp_path / "out.xlsm")
    assert book.read_bytes() == before
    assert len(read_sheets(tmp_path / "out.xlsm", [layout.RESULTS])[layout.RESULTS]) == 1 + 13
