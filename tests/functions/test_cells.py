"""How the worksheet functions read what Excel hands them: cells, ranges of every shape,
numpy arrays, broadcasting, blanks, and which errors become messages."""

import numpy as np
import pytest
import xlgrade_udfs as xl


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
    # GRADING-RULES.md §6: estimated grades are shown in brackets, as [136].
    assert xl.GRADE_POINTS("142", "[136]", "0") == 86.0


@pytest.mark.parametrize("value", [float("inf"), float("-inf")])
def test_infinite_numbers(value: float) -> None:
    # No cell holds an infinity: the call is refused, naming the argument.
    want = f"#VALUE! opponent_grade {value!r} is not a finite number"
    assert xl.GRADE_POINTS(142.0, [[value]], 1.0) == want
    assert xl.GRADE_POINTS(142.0, [[100.0], [value]], 1.0) == want.replace(
        "opponent_grade", "opponent_grade item 2"
    )
