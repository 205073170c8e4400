"""The worksheet functions' public contract: names, argument order, optional arguments, and the
help Excel's function wizard shows (issue 5's table)."""

import importlib.util
import inspect
import sys
import types
from pathlib import Path
from typing import Any

import pytest
import xlgrade_udfs as xl

# Issue 5: name → arguments in order; an optional argument is in brackets. GRADE_POINTS'
# floor_at_zero and ELO_K's games_in_period were added after it, at the end, as were the ELO
# functions' rule (issue 31).
CONTRACT = {
    "GRADE_POINTS": "own_grade, opponent_grade, result, [horizon], [floor_at_zero]",
    "SEASON_GRADE": "points, games, [prev_points], [prev_games], [earlier_points], "
    "[earlier_games], [min_games]",
    "GRADE_CATEGORY": "games, [prev_games], [earlier_games], [rule_set]",
    "JUNIOR_ENHANCEMENT": "age, [is_junior]",
    "PERFORMANCE_GRADE": "opponent_grades, results",
    "GRADE_EXPECTED": "own_grade, opponent_grade, [model]",
    "ECF_TO_ELO": "grade, [formula]",
    "ELO_TO_ECF": "rating, [formula]",
    "FIDE_TO_USCF": "rating",
    "USCF_TO_FIDE": "rating",
    "RATING_CLASS": "value, [scale]",
    "ECF_CODE_VALID": "code",
    "ECF_CODE_LETTER": "six_digits",
    "ELO_EXPECTED": "rating, opponent_rating, [method], [rule]",
    "ELO_DP": "fraction",
    "ELO_K": "rating, games_played, age, [policy], [reached_2400], [games_in_period]",
    "ELO_CHANGE": "rating, opponent_ratings, results, k, [rule]",
    "ELO_NEW_RATING": "rating, opponent_ratings, results, k, [rule]",
    "ELO_PERFORMANCE": "opponent_ratings, results",
    "ELO_INITIAL": "opponent_ratings, results, [method]",
    # Issue 31: FIDE's editions (each rule argument added at the end).
    "ELO_MARCH_2024": "rating",
    "ELO_LISTED": "rating, [floor]",
    "GLICKO": "rating, rd, opponent_ratings, opponent_rds, results",
    "GLICKO2": "rating, rd, volatility, opponent_ratings, opponent_rds, results, [tau]",
    # Issue 15: a captain's team sheet.
    "BOARD_ORDER": (
        "grades, tolerance, [estimates], [juniors], [junior_allowance], [adjacent], [higher_by]"
    ),
    "TEAM_TOTAL": "grades, [min_counting], [ungraded], [estimates]",
    "TEAM_ELIGIBLE": (
        "grades, [max_total], [max_grade], [min_counting], [ungraded], [max_average], "
        "[estimates], [min_average], [top_boards], [max_top_average]"
    ),
    # Issue 32: a rating from the list a division names.
    "LIST_RATING": "codes, edition, ratings, [rapid]",
    # Issue 14: the ECF rating since 2020.
    "ECF_EXPECTED": "rating, opponent_rating",
    "ECF_RATING_CHANGE": "rating, opponent_ratings, results, [k]",
    "ECF_NEW_RATING": "rating, opponent_ratings, results, [k]",
    "ECF_P_RATING": "opponent_ratings, results, [nominal]",
    "GRADE_TO_ECF_RATING": "grade",
    "ECF_RATING_TO_FIDE": "rating",
    "FIDE_TO_ECF_RATING": "rating",
    # Issue 30: the Results sheet's live points, as the season grades each row.
    "SEASON_POINTS": "results, players, season_settings, side",
}


def signature_text(function: Any) -> str:
    parts = []
    for p in inspect.signature(function).parameters.values():
        parts.append(p.name if p.default is inspect.Parameter.empty else f"[{p.name}]")
    return ", ".join(parts)


def test_every_function_of_the_table_and_no_other() -> None:
    assert sorted(xl.FUNCTIONS) == sorted(CONTRACT)


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_argument_order(name: str) -> None:
    function = getattr(xl, name)
    assert xl.FUNCTIONS[name] is function
    assert signature_text(function) == CONTRACT[name]


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_help_for_the_function_wizard(name: str) -> None:
    function = getattr(xl, name)
    info = function.xlgrade_info
    assert info.name == name
    assert info.category == "xlgrade"
    assert info.description == function.__doc__.strip().splitlines()[0]
    assert 10 < len(info.description) <= 255
    assert "\n" not in info.description
    assert [a.name for a in info.arguments] == list(inspect.signature(function).parameters)
    assert [a.optional for a in info.arguments] == [
        p.default is not inspect.Parameter.empty
        for p in inspect.signature(function).parameters.values()
    ]
    for argument in info.arguments:
        assert 5 < len(argument.doc) <= 255, argument.name


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_optional_arguments_default_to_blank(name: str) -> None:
    # xlwings passes a left-out optional argument as the Python default and a blank cell as
    # None; both mean "the default", except GRADE_POINTS' horizon, where a blank Horizon cell
    # means no horizon (the template's Settings sheet) and leaving it out means 40.
    for p in inspect.signature(getattr(xl, name)).parameters.values():
        if p.default is not inspect.Parameter.empty:
            assert p.default == (40.0 if (name, p.name) == ("GRADE_POINTS", "horizon") else None)


def _load_with(xlwings: types.ModuleType | None, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fresh copy of the module, imported with ``xlwings`` standing in for the package."""
    monkeypatch.setitem(sys.modules, "xlwings", xlwings)  # None makes the import fail
    path = Path(xl.__file__)
    spec = importlib.util.spec_from_file_location("xlgrade_udfs_copy", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "xlgrade_udfs_copy", module)
    spec.loader.exec_module(module)
    return module


def test_imports_without_xlwings(monkeypatch: pytest.MonkeyPatch) -> None:
    module = _load_with(None, monkeypatch)
    assert module.xw is None
    assert sorted(module.FUNCTIONS) == sorted(CONTRACT)
    assert module.GRADE_POINTS.xlgrade_info.description == xl.GRADE_POINTS.xlgrade_info.description
    assert module.SEASON_GRADE(2405.0, 17.0) == 141


def _recording_xlwings() -> types.ModuleType:
    """A stand-in for xlwings on Windows, whose decorators record what they were given the way
    ``xlwings.udfs`` does (``__xlfunc__``)."""
    fake = types.ModuleType("xlwings")

    def record(f: Any) -> dict[str, Any]:
        if not hasattr(f, "__xlfunc__"):
            f.__xlfunc__ = {"args": {}, "ret": {"doc": f.__doc__}, "category": "xlwings"}
        return f.__xlfunc__  # type: ignore[no-any-return]

    def func(f: Any = None, **options: Any) -> Any:
        def inner(g: Any) -> Any:
            record(g)["category"] = options.get("category", "xlwings")
            return g

        return inner if f is None else inner(f)

    def arg(name: str, **options: Any) -> Any:
        def inner(g: Any) -> Any:
            record(g)["args"][name] = options
            return g

        return inner

    fake.func = func  # type: ignore[attr-defined]
    fake.arg = arg  # type: ignore[attr-defined]
    return fake


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_xlwings_receives_the_help(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module = _load_with(_recording_xlwings(), monkeypatch)
    function = getattr(module, name)
    registered = function.__xlfunc__
    assert registered["category"] == "xlgrade"
    assert registered["ret"]["doc"] == function.xlgrade_info.description
    parameters = list(inspect.signature(function).parameters)
    assert sorted(registered["args"]) == sorted(parameters)
    for argument in function.xlgrade_info.arguments:
        assert registered["args"][argument.name] == {"ndim": 2, "doc": argument.doc}


def test_real_xlwings_imports() -> None:
    # xlwings installs on Linux and its decorators are no-ops there: the module still works.
    pytest.importorskip("xlwings")
    assert xl.xw is not None
    assert xl.GRADE_POINTS(118.0, 165.0, 1.0) == 208.0


def test_recalculate_season_exists_without_arguments() -> None:
    parameters = inspect.signature(xl.recalculate_season).parameters
    assert all(p.default is None for p in parameters.values())
    assert xl.recalculate_season.__doc__
