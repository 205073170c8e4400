"""The worksheet functions as xlwings Lite registers and calls them (``xlwings.server``): the
metadata Excel reads, and calls with numbers, blanks, text, ranges and error cells as Office.js
sends them. Expected values are the sources' (docs/rules.md, the YCA leaflets), worked out
by hand in the comments."""

from __future__ import annotations

import inspect
from types import ModuleType
from typing import Any

import pytest
import xlgrade_udfs as xl

from tests.functions.officejs import excel_call
from tests.functions.test_contract import CONTRACT

NA: dict[str, Any] = {"type": "Error", "errorType": "NotAvailable", "basicValue": "#N/A"}
"""An ``#N/A`` cell as Office.js passes it to a custom function."""


@pytest.fixture(scope="module")
def meta(lite: ModuleType) -> dict[str, dict[str, Any]]:
    from xlwings import server

    registered = server.custom_functions_meta(lite)
    return {function["name"]: function for function in registered["functions"]}


def test_every_function_is_registered_and_no_other(meta: dict[str, dict[str, Any]]) -> None:
    assert sorted(meta) == sorted(CONTRACT)
    assert sorted(meta) == sorted(xl.FUNCTIONS)


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_metadata_is_the_one_definition(name: str, meta: dict[str, dict[str, Any]]) -> None:
    function = meta[name]
    info = xl.FUNCTIONS[name].xlgrade_info  # type: ignore[attr-defined]
    assert function["id"] == name
    assert function["description"] == info.description
    assert function["result"] == {"dimensionality": "matrix", "type": "any"}
    parameters = function["parameters"]
    shown = ", ".join(f"[{p['name']}]" if p.get("optional") else p["name"] for p in parameters)
    assert shown == CONTRACT[name]
    for parameter, argument in zip(parameters, info.arguments, strict=True):
        assert parameter["name"] == argument.name
        assert parameter["description"] == argument.doc
        assert parameter["dimensionality"] == "matrix"  # a cell or a whole column
        assert parameter["type"] == "any"
        assert parameter.get("optional", False) is argument.optional


def test_the_classic_functions_are_left_unregistered_for_lite(lite: ModuleType) -> None:
    # Two registrations, two objects: the Lite function calls the one definition.
    for name, function in xl.FUNCTIONS.items():
        registered = getattr(lite, name)
        assert registered is not function
        assert inspect.unwrap(registered) is function
        assert inspect.signature(registered) == inspect.signature(function)


def test_grade_points_of_one_game(lite: ModuleType) -> None:
    # docs/rules.md §2 (YCA horizon table): own 118 v 165 is 47 above, so 165 counts as
    # 118 + 40 = 158; a win is 158 + 50 = 208. Horizon and floor left out: 40, floor on.
    assert excel_call(lite, "GRADE_POINTS", [[118.0]], [[165.0]], [[1.0]], None, None) == [[208.0]]


def test_a_blank_or_left_out_horizon_is_40_and_none_turns_it_off(lite: ModuleType) -> None:
    # 118 v 165 with the horizon 40: 158 + 50 = 208; without it 165 + 50 = 215.
    blank = excel_call(lite, "GRADE_POINTS", [[118.0]], [[165.0]], [[1.0]], [[""]], None)
    assert blank == [[208.0]]
    off = excel_call(lite, "GRADE_POINTS", [[118.0]], [[165.0]], [[1.0]], [["none"]], None)
    assert off == [[215.0]]
    left_out = excel_call(lite, "GRADE_POINTS", [[118.0]], [[165.0]], [["1-0"]], None, None)
    assert left_out == [[208.0]]


def test_a_whole_column_in_one_call(lite: ModuleType) -> None:
    # Rows: a draw v 130 (130 + 0); a blank result (blank); a default (not graded); text that
    # is no result; a loss v 70 from 118 (70 is 48 below: counts 78; 78 − 50 = 28).
    own = [[118.0], [118.0], [118.0], [118.0], [118.0]]
    opponents = [[130.0], [130.0], [130.0], [130.0], [70.0]]
    results = [["½-½"], [""], ["1-0 def"], ["2-0"], [0.0]]
    assert excel_call(lite, "GRADE_POINTS", own, opponents, results, None, None) == [
        [130.0],
        [""],
        ["not graded: won by default"],
        ["#VALUE! result '2-0' not understood"],
        [28.0],
    ]


def test_an_error_cell_is_quoted_not_taken_for_a_blank(lite: ModuleType) -> None:
    answer = excel_call(lite, "GRADE_POINTS", [[NA]], [[165.0]], [[1.0]], None, None)
    assert answer == [["#VALUE! own_grade '#N/A' is not a number"]]


def test_ranges_of_different_sizes_are_refused_with_a_message(lite: ModuleType) -> None:
    answer = excel_call(lite, "GRADE_POINTS", [[118.0], [118.0]], [[1.0], [2.0], [3.0]], [[1.0]])
    assert answer == [
        [
            "#VALUE! own_grade is 2 rows × 1 column but opponent_grade is 3 rows × 1 column: "
            "give ranges of the same size"
        ]
    ]


def test_season_grade(lite: ModuleType) -> None:
    # docs/rules.md §3: 2405 points over 17 games, nothing to borrow: 141.47… → 141.
    assert excel_call(lite, "SEASON_GRADE", [[2405.0]], [[17.0]], *[None] * 5) == [[141]]


def test_text_numbers_and_bad_text(lite: ModuleType) -> None:
    # ECF_TO_ELO 'national': 8 × 150 + 600 = 1800; a grade typed as text counts.
    assert excel_call(lite, "ECF_TO_ELO", [["150"]], [["national"]]) == [[1800.0]]
    assert excel_call(lite, "ECF_TO_ELO", [["abc"]], None) == [
        ["#VALUE! grade 'abc' is not a number"]
    ]


def test_performance_grade_over_a_range(lite: ModuleType) -> None:
    # docs/rules.md §6: opponents 120 (win: 170) and 140 (loss: 90): (170 + 90) / 2 = 130.
    answer = excel_call(lite, "PERFORMANCE_GRADE", [[120.0], [140.0]], [[1.0], [0.0]])
    assert answer == [[130]]


def test_glicko_spills_a_row(lite: ModuleType) -> None:
    # Glickman's worked example (r 1500, RD 200 v 1400/30 won, 1550/100 lost, 1700/300 lost):
    # r' ≈ 1464, RD' ≈ 151.4.
    answer = excel_call(
        lite,
        "GLICKO",
        [[1500.0]],
        [[200.0]],
        [[1400.0], [1550.0], [1700.0]],
        [[30.0], [100.0], [300.0]],
        [[1.0], [0.0], [0.0]],
    )
    ((rating, rd),) = answer
    assert rating == pytest.approx(1464, abs=0.5)
    assert rd == pytest.approx(151.4, abs=0.05)
