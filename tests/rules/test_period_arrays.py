"""The checks every bulk rating period makes of its arrays (Elo, Glicko, Glicko-2)."""

import math

import pytest

from xlgrade._arrays import period_arrays
from xlgrade.errors import GradeError
from xlgrade.glicko import rate_period_glicko


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        (
            ([1500.0, math.nan], [0], [1], [1.0]),
            "ratings must be a one-dimensional array of finite numbers",
        ),
        (
            ([[1500.0, 1400.0]], [0], [1], [1.0]),
            "ratings must be a one-dimensional array of finite numbers",
        ),
        (
            ([1500.0, 1400.0], [0.0], [1], [1.0]),
            "white must be a one-dimensional array of player indices",
        ),
        (
            ([1500.0, 1400.0], [0], [[1]], [1.0]),
            "black must be a one-dimensional array of player indices",
        ),
        (
            ([1500.0, 1400.0], [0], [1], [1.5]),
            "every score must be between 0 and 1 (white's score)",
        ),
        (
            ([1500.0, 1400.0], [0], [1], [-0.5]),
            "every score must be between 0 and 1 (white's score)",
        ),
    ],
)
def test_bad_arrays_are_refused(arrays: tuple[object, ...], message: str) -> None:
    with pytest.raises(GradeError) as error:
        period_arrays(*arrays)  # type: ignore[arg-type]
    assert str(error.value) == message


def test_the_check_is_the_one_the_periods_make() -> None:
    with pytest.raises(
        GradeError, match=r"^every score must be between 0 and 1 \(white's score\)$"
    ):
        rate_period_glicko([1500.0, 1400.0], [200.0, 30.0], [0], [1], [2.0])


def test_good_arrays_come_back_as_numbers_and_indices() -> None:
    ratings, white, black, score = period_arrays([1500, 1400], [0, 1], [1, 0], [1, 0.5])
    assert ratings.tolist() == [1500.0, 1400.0]
    assert ratings.dtype.kind == "f"
    assert white.tolist() == [0, 1]
    assert black.tolist() == [1, 0]
    assert white.dtype.kind == black.dtype.kind == "i"
    assert score.tolist() == [1.0, 0.5]
