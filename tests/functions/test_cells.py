"""How the worksheet functions read what Excel hands them: cells, ranges of every shape,
numpy arrays, broadcasting, blanks, and which errors become messages."""

import datetime as dt
from typing import Any

import numpy as np
import pytest
import xlgrade_udfs as xl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlgrade.workbook.excel_calls import OMITTED, classic_call, officejs_call, officejs_matrix


def test_a_single_cell_gives_a_single_value() -> None:
    assert xl.ECF_TO_ELO(150.0) == 2000.0


def test_a_one_by_one_range_gives_a_one_by_one_range() -> None:
    # With ndim=2 xlwings hands a single cell over as [[value]]; Excel shows [[v]] in the cell.
    assert xl.ECF_TO_ELO([[150.0]]) == [[2000.0]]


def test_integers_and_floats_alike() -> None:
    assert xl.GRADE_POINTS(142, 100, 1) == xl.GRADE_POINTS(142.0, 100.0, 1.0) == 152.0


def test_numpy_arrays_are_ranges() -> None:
    got = xl.GRADE_POINTS(np.array([[118.0], [118.0]]), np.array([[165.0], [70.0]]), 1.0)
    assert got == [[208.0], [128.0]]


def test_nan_in_an_array_is_refused_naming_the_argument() -> None:
    # No cell holds NaN: a blank is None (or "" from Office.js), so NaN is bad input.
    got = xl.GRADE_POINTS(118.0, np.array([[165.0], [np.nan]]), 1.0)
    assert got == "#VALUE! opponent_grade item 2 nan is not a finite number"


def test_a_two_dimensional_block() -> None:
    got = xl.ECF_TO_ELO([[100.0, 150.0], [None, 216.0]])
    assert got == [[1750.0, 2000.0], ["", 2328.0]]


def test_a_row_and_a_column_make_a_table() -> None:
    # Excel's array rule: a one-column range against a one-row range gives every pair.
    got = xl.GRADE_EXPECTED([[150.0], [130.0]], [[150.0, 140.0, 130.0]])
    assert got == [[0.5, 0.6, 0.7], [0.3, 0.4, 0.5]]


def test_ranges_that_do_not_fit() -> None:
    got = xl.GRADE_EXPECTED([[150.0], [130.0]], [[150.0], [140.0], [130.0]])
    assert got == (
        "#VALUE! own_grade is 2 rows × 1 column but opponent_grade is 3 rows × 1 column: "
        "give ranges of the same size"
    )


def test_ragged_rows() -> None:
    got = xl.ECF_TO_ELO([[100.0, 150.0], [None]])
    assert got == "#VALUE! grade: a range must be rows of cells of the same length"


def test_an_empty_range() -> None:
    assert xl.ECF_TO_ELO([]) == []
    assert xl.GRADE_POINTS(118.0, [], 1.0) == []


def test_true_and_one_are_different_results() -> None:
    # TRUE == 1.0 in Python, and both are dictionary keys alike; a result cell holding TRUE is
    # not a win.
    got = xl.GRADE_POINTS(142.0, 100.0, [[1.0], [True], [1.0]])
    assert got == [[152.0], ["#VALUE! result TRUE not understood"], [152.0]]


def test_a_column_of_many_results_reads_each_text() -> None:
    results = ["1", "½", "0", "=", "1-0", "0-1", "½-½", "1/2-1/2", "0.5-0.5", "=-=", "draw"]
    got = xl.GRADE_POINTS(142.0, 130.0, [[r] for r in results])
    assert got == [[180.0], [130.0], [80.0], [130.0], [180.0], [80.0]] + [[130.0]] * 5


def test_a_programming_error_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(xl.ecf, "season_grade", broken)
    with pytest.raises(ZeroDivisionError):
        xl.SEASON_GRADE(2405.0, 17.0)


def test_a_programming_error_in_bulk_points_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise TypeError("a bug")

    monkeypatch.setattr(xl.bulk_ecf, "game_points_array", broken)
    with pytest.raises(TypeError):
        xl.GRADE_POINTS(142.0, [[100.0]], 1.0)


def test_text_numbers_and_bracketed_estimates() -> None:
    # docs/rules.md §6: estimated grades are shown in brackets, as [136].
    assert xl.GRADE_POINTS("142", "[136]", "0") == 86.0


@pytest.mark.parametrize("value", [float("inf"), float("-inf")])
def test_infinite_numbers(value: float) -> None:
    # No cell holds an infinity: the call is refused, naming the argument.
    want = f"#VALUE! opponent_grade {value!r} is not a finite number"
    assert xl.GRADE_POINTS(142.0, [[value]], 1.0) == want
    assert xl.GRADE_POINTS(142.0, [[100.0], [value]], 1.0) == want.replace(
        "opponent_grade", "opponent_grade item 2"
    )


PAST = "is out of range: a number here is at most 1e+15 either side of 0"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (float("nan"), "nan is not a finite number"),
        (float("inf"), "inf is not a finite number"),
        (-1e16, f"-1e+16 {PAST}"),
        (10**400, f"1000000000000000…0000 (401 digits) {PAST}"),
    ],
)
@pytest.mark.parametrize("text", [False, True])
def test_a_long_column_is_checked_cell_by_cell_as_a_short_one(
    value: float, shown: str, text: bool
) -> None:
    # A column of 40 cells is checked at once, a short one cell by cell: the same message,
    # naming the row, whether the column holds numbers and blanks only or text as well.
    column: list[list[Any]] = [[100.0], [None]] * 20
    if text:
        column[4] = ["100"]
    assert xl.GRADE_POINTS(142.0, column, 1.0) == [[152.0], [""]] * 20  # 142 − 40, + 50 for the win
    column[29] = [value]
    assert xl.GRADE_POINTS(142.0, column, 1.0) == f"#VALUE! opponent_grade item 30 {shown}"
    assert xl.GRADE_POINTS(142.0, column[28:30], 1.0) == f"#VALUE! opponent_grade item 2 {shown}"


# One good call of every function, every argument given: the values of the sources' worked
# examples elsewhere in these tests (a team of 125, 120, 110, 74 counts 430 in Southend Minor).
CALLS: dict[str, tuple[Any, ...]] = {
    "GRADE_POINTS": (142, 100, 1, 40, True),
    "SEASON_GRADE": (2600, 18, 1000, 8, 1800, 12, 30),
    "GRADE_CATEGORY": (18, 8, 12, "bcf1997"),
    "JUNIOR_ENHANCEMENT": (12, True),
    "PERFORMANCE_GRADE": (150, 1),
    "GRADE_EXPECTED": (150, 140, "linear"),
    "ECF_TO_ELO": (150, "fide"),
    "ELO_TO_ECF": (2000, "fide"),
    "FIDE_TO_USCF": (2000,),
    "USCF_TO_FIDE": (2100,),
    "RATING_CLASS": (2000, "elo"),
    "ECF_CODE_VALID": ("210988J",),
    "ECF_CODE_LETTER": ("210988",),
    "ELO_EXPECTED": (2000, 1900, "table", "400-2022"),
    "ELO_DP": (0.75,),
    "ELO_K": (2000, 40, 20, "fide-2014", False, 5),
    "ELO_CHANGE": (2000, 1900, 1, 20, "400"),
    "ELO_NEW_RATING": (2000, 1900, 1, 20, "rapid-blitz"),
    "ELO_MARCH_2024": (1500,),
    "ELO_LISTED": (1450, 1400),
    "ELO_PERFORMANCE": (1900, 1),
    "ELO_INITIAL": ([[1900], [2000], [2100], [1800], [1950]], [[1], [0.5], [0], [1], [0.5]],
                    "fide-2024"),
    "ECF_EXPECTED": (1800, 1700),
    "ECF_RATING_CHANGE": (1800, 1700, 1, 20),
    "ECF_NEW_RATING": (1800, 1700, 1, 20),
    "ECF_P_RATING": (1700, 1, 1800),
    "GRADE_TO_ECF_RATING": (150,),
    "ECF_RATING_TO_FIDE": (1800,),
    "FIDE_TO_ECF_RATING": (2000,),
    "GLICKO": (1500, 200, 1400, 30, 1),
    "GLICKO2": (1500, 200, 0.06, 1400, 30, 1, 0.5),
    "BOARD_ORDER": ([[150], [160]], 20, [[150], [160]], [["no"], ["yes"]], 100, 10, None),
    "TEAM_TOTAL": ([[125], [120], [110], [74]], 75, 75, [[125], [120], [110], [74]]),
    "TEAM_ELIGIBLE": ([[125], [120], [110], [74]], 440, 125, 75, 75, 125,
                      [[125], [120], [110], [74]], 60, 2, 130),
    "SEASON_POINTS": ([["Date", "Home player", "Result", "Away player"],
                       ["2025-10-01", "Smith, John", "1-0", "Brown, Ann"]],
                      [["Name", "Grade"], ["Smith, John", 150], ["Brown, Ann", 130]],
                      [["Setting", "Value"], ["Season start", "2025-06-01"],
                       ["Season end", "2026-05-31"]], "home"),
    "LIST_RATING": ([["123456A"]], "September 2025",
                    [["Code", "List", "ECF rating"], ["123456A", "2025-09", 1850]], None),
}  # fmt: skip


def _cells(answer: Any) -> list[list[Any]]:
    """An answer as the cells Excel shows: a value is one cell."""
    return answer if isinstance(answer, list) else [[answer]]


def _parameters(name: str) -> list[str]:
    return [a.name for a in xl.FUNCTIONS[name].xlgrade_info.arguments]  # type: ignore[attr-defined]


def test_every_function_and_every_argument_has_a_call() -> None:
    assert sorted(CALLS) == sorted(xl.FUNCTIONS)
    for name, arguments in CALLS.items():
        assert len(arguments) == len(_parameters(name)), name


@pytest.mark.parametrize("name", sorted(CALLS))
def test_both_routes_answer_as_the_function_does(name: str) -> None:
    # Classic xlwings (ndim=2) and xlwings Lite (matrix) hand every value over as [[value]].
    arguments = CALLS[name]
    direct = _cells(xl.FUNCTIONS[name](*arguments))
    assert not str(direct[0][0]).startswith("#VALUE!"), direct
    assert _cells(classic_call(name, *arguments)) == direct
    assert officejs_call(name, *arguments) == direct


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_bad_value_gets_the_same_message_in_both_routes(name: str) -> None:
    for position in range(len(CALLS[name])):
        arguments = list(CALLS[name])
        arguments[position] = "zz?"
        direct = _cells(xl.FUNCTIONS[name](*arguments))
        assert _cells(classic_call(name, *arguments)) == direct, position
        assert officejs_call(name, *arguments) == direct, position


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_range_where_one_value_is_meant_is_refused_naming_the_argument(name: str) -> None:
    one = xl.FUNCTIONS[name].xlgrade_one_value  # type: ignore[attr-defined]
    for position, parameter in enumerate(_parameters(name)):
        if parameter not in one:
            continue
        arguments = list(CALLS[name])
        arguments[position] = [[arguments[position]], [arguments[position]]]
        want = f"#VALUE! {parameter} must be a single cell, not 2 rows × 1 column"
        assert xl.FUNCTIONS[name](*arguments) == want
        assert officejs_call(name, *arguments) == [[want]]


def test_floor_at_zero_as_the_shipped_formulas_pass_it() -> None:
    # GRADE_POINTS(..., FloorAtZero): the Settings cell itself, read as cells.yes_no reads it.
    # 20 − 50 = −30 for a loss to a 20: 0 with the floor, −30 without.
    for floor, want in ((True, 0.0), (False, -30.0), (None, 0.0), ("yes", 0.0), (0, -30.0),
                        ("n", -30.0), ("false", -30.0), ("FALSE", -30.0)):  # fmt: skip
        assert officejs_call("GRADE_POINTS", 40, 20, 0, 40, floor) == [[want]], floor
        assert classic_call("GRADE_POINTS", 40, 20, 0, 40, floor) == [[want]], floor


_UNUSABLE = st.one_of(
    st.sampled_from([float("inf"), -float("inf"), float("nan"), 1e308, -1e308, 1e16]),
    st.integers(min_value=10**16, max_value=10**400),
    st.floats(min_value=1.0000001e15, allow_infinity=False),
    st.just([[1.0, 2.0], [3.0]]),  # ragged
    st.just([[[1.0]], [[2.0]]]),  # ranges within a range
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=_UNUSABLE)
def test_a_value_no_rule_can_use_gets_a_message_naming_it(data: st.DataObject, value: Any) -> None:
    name = data.draw(st.sampled_from(sorted(CALLS)))
    parameters = _parameters(name)
    position = data.draw(st.integers(0, len(parameters) - 1))
    arguments = list(CALLS[name])
    arguments[position] = value
    routes = {
        "python": _cells(xl.FUNCTIONS[name](*arguments)),
        "classic": _cells(classic_call(name, *arguments)),
        "officejs": officejs_call(name, *arguments),
    }
    for route, answer in routes.items():
        message = answer[0][0]
        assert isinstance(message, str), (route, answer)
        assert message.startswith(f"#VALUE! {parameters[position]}"), (route, message)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_no_number_a_cell_holds_makes_a_function_raise(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(CALLS)))
    arguments = list(CALLS[name])
    position = data.draw(st.integers(0, len(arguments) - 1))
    arguments[position] = data.draw(
        st.one_of(st.floats(-xl.LARGEST, xl.LARGEST), st.integers(-10**15, 10**15),
                  st.booleans(), st.none(), st.text(max_size=5))
    )  # fmt: skip
    direct = _cells(xl.FUNCTIONS[name](*arguments))  # an answer or a message, never raised
    assert _cells(classic_call(name, *arguments)) == direct
    assert officejs_call(name, *arguments) == direct


def test_the_shapes_each_route_hands_over() -> None:
    # Office.js: rows of cells even for one value, a blank as "", a date as its serial
    # (1 January 2025 is day 45,658 after 30 December 1899), a whole number as JSON has it.
    assert officejs_matrix(150.0) == [[150]]
    assert officejs_matrix([[dt.date(2025, 1, 1), None], [1.5, "x"]]) == [[45658, ""], [1.5, "x"]]
    assert officejs_matrix([dt.datetime(2025, 1, 1, 12)]) == [[45658.5]]
    # An argument left out: its default in the classic route, null for Office.js.
    assert classic_call("GRADE_POINTS", 142, 100, 1, OMITTED, True) == [[152.0]]
    assert officejs_call("GRADE_POINTS", 142, 100, 1, OMITTED, True) == [[152.0]]
    # A date cell: COM hands the classic route a datetime.
    assert classic_call("JUNIOR_ENHANCEMENT", dt.date(2025, 1, 1)) == [
        ["#VALUE! age 2025-01-01 is a date; give the age in years"]
    ]
