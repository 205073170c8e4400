"""One reading of a cell (xlgrade.cells): numbers, grades, whole numbers, yes/no, results and
dates in the forms an English grader types, day first."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import pytest

from xlgrade import cells
from xlgrade.errors import GradeError, ResultError, SettingError

SEPT_1 = dt.date(2025, 9, 1)


@pytest.mark.parametrize(
    "typed",
    [
        "1/9/25",
        "01/09/2025",
        "1/9/2025",
        "1.9.25",
        "01.09.2025",
        "1-9-2025",
        "1 Sept 2025",
        "1 Sep 2025",
        "1 sept. 2025",
        "1st September 2025",
        "1ST SEPTEMBER 2025",
        "1-Sep-25",
        "1 September 25",
        "Monday 1 September 2025",
        "Mon, 1 Sep 2025",
        "September 1, 2025",
        "Sept 1st 2025",
        "2025-09-01",
        "2025/09/01",
        "2025.9.1",
        "20250901",
        "01/09/2025 19:30",
        "2025-09-01T19:30:00",
        "  1/9/25  ",
        # 1 September 2025 is day 45901 counted from Excel's day 0, 30 December 1899:
        # 2025-09-01 − 1899-12-30 = 45 901 days.
        "45901",
        45901,
        45901.0,
        45901.8125,  # 19:30 on that day
        np.float64(45901),
        SEPT_1,
        dt.datetime(2025, 9, 1, 19, 30),
    ],
)
def test_every_form_of_1_september_2025_reads_the_same(typed: object) -> None:
    assert cells.date(typed) == SEPT_1


@pytest.mark.parametrize(
    ("typed", "day"),
    [
        ("3/4/25", dt.date(2025, 4, 3)),  # day first: 3 April, never 4 March
        ("12/11/2024", dt.date(2024, 11, 12)),
        # Two-digit years as Excel reads them typed: 00-29 are 20xx, 30-99 are 19xx.
        ("1/9/65", dt.date(1965, 9, 1)),  # a date of birth
        ("1/9/30", dt.date(1930, 9, 1)),
        ("1/9/29", dt.date(2029, 9, 1)),
        ("1/9/00", dt.date(2000, 9, 1)),
        ("29/2/2024", dt.date(2024, 2, 29)),
        ("31 May 2026", dt.date(2026, 5, 31)),
    ],
)
def test_dates_are_read_day_first(typed: str, day: dt.date) -> None:
    assert cells.date(typed) == day


@pytest.mark.parametrize(
    "typed",
    [
        "31/02/2026",  # February has no 31st
        "29/2/2025",  # nor a 29th in 2025
        "13/13/2025",
        "next June",
        "1 Smarch 2025",
        "Tuesday 1 September 2025",  # 1 September 2025 is a Monday
        "2025",  # a year alone is not a day
        "0",
        "-3",
        "1/9",
        True,
        -5.0,
        math.inf,
        3_000_000,  # past Excel's last day, 31 December 9999
    ],
)
def test_what_is_not_a_date_is_refused_quoting_it(typed: object) -> None:
    with pytest.raises(GradeError, match=r"is not a date$") as refused:
        cells.date(typed)
    assert str(refused.value).startswith(cells.quote(typed))


def test_a_date_value_is_its_day_as_the_date_reading_takes_it() -> None:
    evening = dt.datetime(2025, 9, 1, 19, 30)
    assert cells.day(evening) == dt.date(2025, 9, 1) == cells.date(evening)
    assert cells.day(dt.date(2025, 9, 1)) == dt.date(2025, 9, 1)
    # Text and serial numbers are the date reading's: the day of a value is only of a date.
    assert cells.day("2025-09-01") is None
    assert cells.day(45901.0) is None
    assert cells.day(None) is None


@pytest.mark.parametrize("typed", [None, "", "   ", math.nan])
def test_blank_cells_read_as_nothing(typed: object) -> None:
    assert cells.blank(typed)
    assert cells.date(typed) is None
    assert cells.number(typed) is None
    assert cells.grade(typed) is None
    assert cells.whole(typed) is None
    assert cells.yes_no(typed) is None
    assert cells.score(typed) is None
    assert cells.text(typed) == ""


@pytest.mark.parametrize(
    ("typed", "number"),
    [
        (142, 142.0),
        (142.5, 142.5),
        ("142", 142.0),
        (" 142.5 ", 142.5),
        ("1,234", 1234.0),
        ("1,234,567.5", 1234567.5),
        ("-40", -40.0),
        (np.int64(7), 7.0),
        (np.float32(2.5), 2.5),
    ],
)
def test_numbers(typed: object, number: float) -> None:
    assert cells.number(typed) == number


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("forty", "'forty' is not a number"),
        ("1,5", "'1,5' is not a number"),  # not a decimal comma, not thousands
        ("inf", "'inf' is not a finite number"),
        (math.inf, "inf is not a finite number"),
        (True, "TRUE is not a number"),
        (np.True_, "TRUE is not a number"),
        (SEPT_1, "2025-09-01 is a date, not a number"),
        ("[136]", "'[136]' is not a number"),  # brackets mark a grade, not any number
        ([1], "[1] is not a number"),
    ],
)
def test_what_is_not_a_number_is_refused(typed: object, why: str) -> None:
    with pytest.raises(GradeError) as refused:
        cells.number(typed)
    assert str(refused.value) == why


def test_a_grade_in_brackets_is_an_estimated_grade() -> None:
    # docs/rules.md §6: "Estimated grades are shown in brackets, as [136]".
    assert cells.grade("[136]") == 136.0
    assert cells.grade(" [ 136 ] ") == 136.0
    assert cells.grade(136) == 136.0
    for bad in ("[]", "[x]", "[136"):
        with pytest.raises(GradeError, match="is not a number"):
            cells.grade(bad)


def test_whole_numbers() -> None:
    assert cells.whole("3") == 3
    assert cells.whole(3.0) == 3
    assert cells.whole(0) == 0
    with pytest.raises(GradeError, match=r"^'2\.5' is not a whole number$"):
        cells.whole("2.5")
    with pytest.raises(GradeError, match=r"^-1 must not be negative$"):
        cells.whole(-1)


def test_board_numbers() -> None:
    assert cells.board("3") == 3
    assert cells.board(12.0) == 12
    assert cells.board(None) is None
    assert cells.board(cells.MAX_BOARD) == 999
    says = "is not a board number: a board is a whole number from 1 to 999"
    for bad, quoted in (
        (1.5, "1.5"),
        ("1.5", "'1.5'"),
        (0, "0"),
        (-2, "-2"),
        (1000, "1000"),
        ("abc", "'abc'"),
        (10**400, "1000000000000000…0000 (401 digits)"),
        ("9" * 400, "'" + "9" * 58 + "…' (400 characters)"),
    ):
        with pytest.raises(GradeError) as caught:
            cells.board(bad)
        assert str(caught.value) == f"{quoted} {says}"


def test_ecf_ratings() -> None:
    # Four-digit ratings since 2020 (docs/rules.md §12); 3500 is the highest read, and as far
    # below zero the lowest (no source gives a floor: the K method goes on below zero).
    assert cells.rating("1650") == 1650
    assert cells.rating("-20") == -20
    assert cells.rating(-3500.0) == -3500
    assert cells.rating(1823.0) == 1823
    assert cells.rating("") is None
    with pytest.raises(GradeError, match=r"^'5000' is not a rating \(-3500 to 3500\)$"):
        cells.rating("5000")
    with pytest.raises(GradeError, match=r"^-3501 is not a rating \(-3500 to 3500\)$"):
        cells.rating(-3501)


def test_rating_categories_and_months() -> None:
    # ECF rating categories: A, K, P (an unrated player has none); the Last rated month column.
    assert [cells.rating_category(c) for c in ("A", " k ", "p", None)] == ["A", "K", "P", None]
    with pytest.raises(GradeError, match=r"^'H' is not a rating category \(A, K or P\)$"):
        cells.rating_category("H")
    august = dt.date(2025, 8, 1)
    for typed in ("2025-08", "08/2025", "8/2025", "Aug 2025", "August 2025", dt.date(2025, 8, 19),
                  "19/08/2025", dt.datetime(2025, 8, 31, 19, 30)):  # fmt: skip
        assert cells.month(typed) == august, typed
    assert cells.month("  ") is None
    for bad in ("2025-13", "soon", "Augtober 2025"):
        with pytest.raises(GradeError, match="is not a month"):
            cells.month(bad)


@pytest.mark.parametrize(
    "typed",
    [True, 1, 1.0, np.True_, "TRUE", "true", "Yes", "y", "Y", "1", "J", "j", "jr", "Jnr",
     "Junior", "x", " yes "],
)  # fmt: skip
def test_yes(typed: object) -> None:
    assert cells.yes_no(typed) is True


@pytest.mark.parametrize("typed", [False, 0, 0.0, np.False_, "FALSE", "No", "n", "0"])
def test_no(typed: object) -> None:
    assert cells.yes_no(typed) is False


@pytest.mark.parametrize("typed", ["maybe", 2, "senior?", SEPT_1])
def test_neither_yes_nor_no_is_refused(typed: object) -> None:
    with pytest.raises(SettingError, match="is not yes or no"):
        cells.yes_no(typed)


@pytest.mark.parametrize(
    ("typed", "meaning"),
    [
        ("1", 1.0),
        (1.0, 1.0),
        ("W", 1.0),
        ("½", 0.5),
        ("=", 0.5),
        (0.5, 0.5),
        ("0", 0.0),
        ("L", 0.0),
        ("1-0", 1.0),  # a game row's result, from the first-named player's side
        ("0-1", 0.0),
        ("½-½", 0.5),
        ("+", cells.NotGraded("won by default")),
        ("1-0 def", cells.NotGraded("won by default")),
        ("0-1 def", cells.NotGraded("lost by default")),
        ("bye", cells.NotGraded("bye")),
    ],
)
def test_results_are_read_as_xlgrade_results_reads_them(typed: object, meaning: object) -> None:
    assert cells.score(typed) == meaning


def test_results_not_understood_are_refused() -> None:
    with pytest.raises(ResultError, match="not understood"):
        cells.score("yes please")
    with pytest.raises(ResultError, match=r"^result TRUE not understood$"):
        cells.score(True)
    with pytest.raises(ResultError, match="is a date, not a result"):
        cells.result_text(SEPT_1)
    assert cells.result_text("1-0") == "1-0"


def test_text_and_quotes() -> None:
    assert cells.text(142.0) == "142"
    assert cells.text(dt.datetime(2025, 9, 1, 0, 0)) == "2025-09-01"
    assert cells.text(SEPT_1) == "2025-09-01"
    assert cells.text(" Smith ") == "Smith"
    assert cells.quote("x") == "'x'"
    assert cells.quote(142.0) == "142"
    assert cells.quote(142.5) == "142.5"
    assert cells.quote(False) == "FALSE"
    assert cells.quote(dt.datetime(2025, 9, 1)) == "2025-09-01"
    assert cells.without_time_of_day("10/09/2025 19:30") == "10/09/2025"


@pytest.mark.parametrize(
    ("header", "known", "likely"),
    [
        ("Grading", ("Code", "Name", "Grade", "Estimated grade"), "Grade"),
        ("Home", ("Date", "Home player", "Result", "Away player", "Home points"), "Home player"),
        ("Away", ("Date", "Home player", "Result", "Away player"), "Away player"),
        ("Resuls", ("Home player", "Result"), "Result"),
        ("Grade", ("Code", "Grade"), None),  # a known header is not a mistake
        ("home_player", ("Home player",), None),
        ("Notes", ("Code", "Name", "Club", "Grade"), None),
        ("No", ("Name",), None),  # too short to guess from
    ],
)
def test_likely_header(header: str, known: tuple[str, ...], likely: str | None) -> None:
    assert cells.likely_header(header, known) == likely
