"""docs/rules.md §4–§5 and §7: categories, junior enhancements, expected scores,
performance grades."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from xlgrade.ecf import (
    age_on,
    category,
    expected_score,
    junior_enhancement,
    performance_grade,
)
from xlgrade.errors import GradeError, SettingError
from xlgrade.settings import Settings


@pytest.mark.parametrize(
    ("games", "expected"),
    [
        ((30, 0, 0), "A"), ((29, 1, 0), "B"), ((20, 10, 0), "B"), ((19, 11, 0), "C"),
        ((10, 10, 10), "C"), ((9, 21, 0), "D"), ((5, 10, 0), "D"), ((4, 11, 0), "E"),
        ((5, 5, 4), "E"), ((1, 9, 0), "E"), ((1, 8, 0), "*"), ((9, 0, 0), "*"),
        ((0, 30, 30), None),
    ],
)  # fmt: skip
def test_1997_categories_at_their_boundaries(
    games: tuple[int, int, int], expected: str | None
) -> None:
    assert category(*games) == expected


@pytest.mark.parametrize(
    ("games", "expected"),
    [((9, 0, 0), "E"), ((8, 0, 0), "F"), ((5, 0, 0), "F"), ((4, 0, 0), "*"), ((1, 4, 0), "F")],
)
def test_ecf_2015_categories(games: tuple[int, int, int], expected: str) -> None:
    assert category(*games, rule_set="ecf2015") == expected


def test_unknown_category_rule_set() -> None:
    with pytest.raises(SettingError, match="category rule set 'ecf1990'"):
        category(10, rule_set="ecf1990")  # type: ignore[arg-type]


counts = st.integers(min_value=0, max_value=50)
ORDER = {"A": 0, "B": 1, "C": 2, "D": 3, "E": 4, "F": 5, "*": 6}


@given(c=st.integers(min_value=1, max_value=50), p=counts, e=counts, more=counts)
def test_the_category_never_falls_when_games_are_added(c: int, p: int, e: int, more: int) -> None:
    for rules in ("bcf1997", "ecf2015"):
        before = category(c, p, e, rule_set=rules)
        after = category(c + more, p, e, rule_set=rules)
        assert before is not None
        assert after is not None
        assert ORDER[after] <= ORDER[before]


@pytest.mark.parametrize(
    ("age", "junior", "points"),
    [(8, False, 10), (10, False, 10), (11, False, 8), (14, False, 8), (15, False, 6),
     (17, False, 6), (18, False, 0), (40, True, 0), (None, True, 4), (None, False, 0)],
)  # fmt: skip
def test_junior_enhancement_by_age(age: int | None, junior: bool, points: int) -> None:
    assert junior_enhancement(age, junior=junior) == points


def test_age_is_taken_on_the_day_the_new_list_takes_effect() -> None:
    settings = Settings(season_start=dt.date(2025, 6, 1), season_end=dt.date(2026, 5, 31))
    assert settings.age_date == dt.date(2026, 6, 1)
    born = dt.date(2015, 6, 1)
    assert age_on(born, settings.age_date) == 11  # birthday on that day counts
    assert age_on(born, dt.date(2026, 5, 31)) == 10


def test_a_bad_age_is_an_error() -> None:
    with pytest.raises(GradeError, match="age 'ten' is not a whole number"):
        junior_enhancement("ten")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("difference", "expected"),
    [(0, 0.5), (9, 0.5), (10, 0.6), (19, 0.6), (20, 0.7), (49, 0.9), (50, 1.0), (80, 1.0),
     (-10, 0.4), (-20, 0.3), (-60, 0.0)],
)  # fmt: skip
def test_linear_expected_score_from_the_leaflet(difference: int, expected: float) -> None:
    # "less than 10 points difference … 50% 50% … the difference is 10 … 60% - 40% … 20 …
    # 70% - 30%, etc."
    assert expected_score(120 + difference, 120) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("difference", "expected"), [(46, 0.90), (30, 0.80), (19, 0.70), (9, 0.60), (0, 0.50)]
)
def test_elo_based_expected_score_from_chesterfield_table_1(
    difference: int, expected: float
) -> None:
    # Chesterfield page, table 1: "Difference BCF: 46 30 19 9 0" for "90 80 70 60 50" %.
    assert expected_score(150 + difference, 150, model="elo") == pytest.approx(expected, abs=0.01)


@given(a=st.integers(0, 300), b=st.integers(0, 300), model=st.sampled_from(["linear", "elo"]))
def test_expected_scores_of_both_players_sum_to_one(a: int, b: int, model: str) -> None:
    total = expected_score(a, b, model=model) + expected_score(b, a, model=model)  # type: ignore[arg-type]
    assert total == pytest.approx(1.0)


def test_performance_grade_has_no_horizon() -> None:
    # Two wins against 100 and 300: (150 + 350) / 2, whatever the player's own grade.
    assert performance_grade([100, 300], [1, 1]) == 250
    with pytest.raises(GradeError, match="2 opponent grades but 1 results"):
        performance_grade([100, 120], [1])
