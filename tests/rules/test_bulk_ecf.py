"""xlgrade.bulk_ecf.game_points_array: the same numbers as xlgrade.ecf.game_points, a column
at a time (docs/rules.md §2)."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.worked_examples import YCA_118_TABLE
from xlgrade.bulk_ecf import game_points_array
from xlgrade.ecf import game_points
from xlgrade.errors import GradeError, SettingError


@pytest.mark.parametrize(("at", "score"), [(0, 1.0), (1, 0.5), (2, 0.0)])
def test_yca_table(at: int, score: float) -> None:
    opponents = list(YCA_118_TABLE)
    got = game_points_array([118.0] * len(opponents), opponents, [score] * len(opponents))
    assert got.tolist() == [YCA_118_TABLE[o][at] for o in opponents]


def test_nan_own_grade_is_ungraded() -> None:
    got = game_points_array([math.nan, 118.0], [70.0, 70.0], [1.0, 1.0])
    assert got.tolist() == [120.0, 128.0]


grades = st.floats(min_value=-50, max_value=350, allow_nan=False)
own_grades = st.one_of(st.none(), grades)
scores = st.sampled_from([0.0, 0.5, 1.0])
horizons = st.one_of(st.none(), st.sampled_from([0.0, 35.0, 40.0, 45.0, 50.0]), grades.map(abs))


@given(
    st.lists(st.tuples(own_grades, grades, scores), min_size=1, max_size=40),
    horizons,
    st.booleans(),
)
def test_identical_to_game_points(
    games: list[tuple[float | None, float, float]], horizon: float | None, floor: bool
) -> None:
    own = [math.nan if g is None else g for g, _, _ in games]
    got = game_points_array(
        own,
        [o for _, o, _ in games],
        [s for _, _, s in games],
        horizon=horizon,
        floor_at_zero=floor,
    )
    expected = [
        game_points(g, o, s, horizon=horizon, floor_at_zero=floor).points for g, o, s in games
    ]
    assert got.tolist() == expected  # exactly the same floats, not approximately


def test_returns_float64_array() -> None:
    got = game_points_array([142.0], [100.0], [1.0])
    assert isinstance(got, np.ndarray)
    assert got.dtype == np.float64


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ([142.0], [100.0, 1.0], [1.0]),
            "own grades, opponent grades and scores must have the same length, not 1, 2 and 1",
        ),
        (
            ([142.0, 142.0], [100.0, math.nan], [1.0, 1.0]),
            "opponent grade nan at position 1 is not a finite number",
        ),
        (([math.inf], [100.0], [1.0]), "own grade inf at position 0 is not a finite number"),
        (
            ([142.0], [100.0], [0.25]),
            "score 0.25 at position 0 must be 1 (win), 0.5 (draw) or 0 (loss)",
        ),
        (
            ([[142.0]], [[100.0]], [[1.0]]),
            "own grades must be a one-dimensional array, not 2-dimensional",
        ),
    ],
)
def test_refusals(args: tuple[object, object, object], message: str) -> None:
    with pytest.raises(GradeError) as caught:
        game_points_array(*args)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_negative_horizon() -> None:
    with pytest.raises(SettingError, match=r"horizon -1\.0 must not be negative"):
        game_points_array([142.0], [100.0], [1.0], horizon=-1.0)
