"""ECF grading (GRADING-RULES.md §2–§3): the refusals and the borrowing case the main tests
leave out."""

import datetime as dt

import pytest

from xlgrade.ecf import game_points, performance_grade, season_grade
from xlgrade.errors import GradeError, SettingError
from xlgrade.model import DatedPoints


def test_a_negative_horizon_is_refused() -> None:
    with pytest.raises(SettingError) as error:
        game_points(120, 100, 1.0, horizon=-40)
    assert str(error.value) == "horizon -40 must not be negative"


def test_a_performance_grade_needs_a_game() -> None:
    with pytest.raises(GradeError) as error:
        performance_grade([], [])
    assert str(error.value) == "a performance grade needs at least one game"


def test_thirty_games_this_season_borrow_nothing_by_the_most_recent_rule() -> None:
    # 1997 leaflet: earlier results are brought in only "if there are less than 30 games in
    # the current year". 30 games for 3600 points: 3600 / 30 = 120, nothing borrowed.
    grade = season_grade(
        3600,
        30,
        borrowing="most_recent",
        earlier_games=[DatedPoints(dt.date(2023, 5, 1), 150.0)],
    )
    assert (grade.grade, grade.exact, grade.borrowed) == (120, 120.0, ())
    assert (grade.total_games, grade.total_points) == (30, 3600)
