"""Estimated grades from FIDE ratings for an imported TRF (xlgrade.formats.importing): the ECF's
published formula, kept on the ECF scale."""

import pytest

from xlgrade.formats.importing import fide_estimate


# ECF summary page: "Elo ≤ 2325, ECF = (Elo - 1250) / 5; Elo > 2325, ECF = (Elo - 600) / 8".
@pytest.mark.parametrize(
    ("rating", "grade"),
    [
        (2400, 225.0),  # (2400 - 600) / 8
        (2325, 215.0),  # (2325 - 1250) / 5
        (1800, 110.0),  # (1800 - 1250) / 5
        (1255, 1.0),
        (1250, 0.0),  # the foot of the ECF scale
        (1249, None),  # (1249 - 1250) / 5 = -0.2: off the scale
        (1000, None),  # -50
    ],
)
def test_an_estimate_from_fide_is_on_the_ecf_scale_or_none(
    rating: int, grade: float | None
) -> None:
    assert fide_estimate(rating) == grade
