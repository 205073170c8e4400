"""The ECF rating's worksheet functions (issue 14), with the figures of docs/rules.md §12 and
hand arithmetic from FIDE's tables written in each test."""

from __future__ import annotations

import pytest
import xlgrade_udfs as xl


def test_expected_scores_by_the_column() -> None:
    # Table 8.1b: 0 → .50; 77 → .61; 500 counts as 400 → .92, and .08 for the lower side.
    got = xl.ECF_EXPECTED([[1600.0], [1680.0], [2000.0], [1500.0], [None]], [[1600.0], [1603.0],
                          [1500.0], [2000.0], [1500.0]])  # fmt: skip
    assert got == [[0.5], [0.61], [0.92], [0.08], [""]]


def test_the_k_methods_change_and_new_rating() -> None:
    # 1600 beating 1600 at k 20: 20 × (1 − .5) = 10 → 1610; 1680 beating 1603: 7.8 → 1688.
    assert xl.ECF_RATING_CHANGE(1600.0, [[1600.0]], [["1-0"]]) == 10
    assert xl.ECF_NEW_RATING(1600.0, [[1600.0]], [[1.0]]) == 1610
    assert xl.ECF_RATING_CHANGE(1680.0, 1603.0, 1.0) == pytest.approx(7.8)
    assert xl.ECF_NEW_RATING(1680.0, 1603.0, 1.0) == 1688
    # A junior's k 40: 40 × .5 = 20.
    assert xl.ECF_NEW_RATING(1600.0, [[1600.0]], [[1.0]], 40.0) == 1620
    # A win and a loss, 1600 v 1600 and 1792 (diff 192 → .25): 20 × (1 − .75) = 5 → 1605;
    # a default does not count.
    assert xl.ECF_NEW_RATING(1600.0, [[1600.0], [1792.0], [1500.0]], [[1], [0], ["+"]]) == 1605


def test_the_p_rating() -> None:
    # Opponents 1700, 1500, 1600, 1800 scoring 1, ½, 1, 0 and a draw v 1800: Ra 8400 / 5 =
    # 1680, p 3 / 5 = .60 → 72: 1752. Against a nominal 1000 (a junior of 10): Ra 7600 / 5 =
    # 1520 + 72 = 1592.
    opponents = [[1700.0], [1500.0], [1600.0], [1800.0]]
    results = [["1"], ["½"], ["W"], ["L"]]
    assert xl.ECF_P_RATING(opponents, results) == 1752
    assert xl.ECF_P_RATING(opponents, results, 1000.0) == 1592
    assert xl.ECF_P_RATING([[None]], [[None]]) == ""
    assert xl.ECF_P_RATING([[1500.0]], [["+"]]) == "not graded: no game counts"


def test_conversions() -> None:
    # 7.5 × 120 + 700 = 1600; 0.6 × 1500 + 700 = 1600; above 1750 equal; back (1450 − 700) / .6.
    assert xl.GRADE_TO_ECF_RATING([[120.0], [100.0], [None]]) == [[1600.0], [1450.0], [""]]
    assert xl.ECF_RATING_TO_FIDE(1500.0) == pytest.approx(1600)
    assert xl.ECF_RATING_TO_FIDE(2000.0) == 2000
    assert xl.FIDE_TO_ECF_RATING(1450.0) == 1250
    assert xl.FIDE_TO_ECF_RATING(1900.0) == 1900


def test_bad_cells_say_what_is_wrong() -> None:
    assert xl.ECF_EXPECTED("abc", 1600.0) == "#VALUE! rating 'abc' is not a number"
    assert xl.ECF_NEW_RATING(1600.0, [[1600.0]], [["x"]]).startswith("#VALUE! ")
    assert xl.GRADE_TO_ECF_RATING("x").startswith("#VALUE! grade")
    # Not ratings, in the cell: FIDE 500 gave -333.3, ECF 1000 gave 1300 (below FIDE's floor),
    # grade -10 gave 625.
    assert xl.FIDE_TO_ECF_RATING(500.0).startswith("#VALUE! rating 500 is below 1400")
    assert xl.ECF_RATING_TO_FIDE(1000.0).startswith("#VALUE! rating 1000 is below 1166.67")
    assert xl.GRADE_TO_ECF_RATING(-10.0) == "#VALUE! grade -10 is below 0: not a grade"
    assert xl.ECF_RATING_TO_FIDE(1749.0) == 1749  # 1749.4, published whole
    assert xl.ECF_EXPECTED(-3600.0, 1600.0) == (
        "#VALUE! rating -3600 is below -3500: not an ECF rating"
    )
