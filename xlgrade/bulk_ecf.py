"""ECF game points for whole columns at once: :func:`game_points_array`.

The same rule as :func:`xlgrade.ecf.game_points` (GRADING-RULES.md §2) over numpy arrays, for
callers that grade thousands of games in one call (the ``GRADE_POINTS`` worksheet function over
a whole Results column). Every operation is the one :func:`~xlgrade.ecf.game_points` performs,
in the same order, on float64, so each element is the very number the per-game function gives.

>>> game_points_array([118.0, 118.0], [165.0, 70.0], [1.0, 0.0]).tolist()
[208.0, 28.0]
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from xlgrade.ecf import DEFAULT_HORIZON, WIN_LOSS_MARGIN
from xlgrade.errors import GradeError, SettingError

__all__ = ["game_points_array"]

FloatArray = npt.NDArray[np.float64]
"""A numpy array of float64."""


def _column(values: npt.ArrayLike, what: str) -> FloatArray:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise GradeError(f"{what} must be numbers") from None
    if array.ndim != 1:
        raise GradeError(f"{what} must be a one-dimensional array, not {array.ndim}-dimensional")
    return array


def _first_bad(mask: npt.NDArray[np.bool_]) -> int:
    return int(np.flatnonzero(mask)[0])


def game_points_array(
    own_grades: npt.ArrayLike,
    opponent_grades: npt.ArrayLike,
    scores: npt.ArrayLike,
    *,
    horizon: float | None = DEFAULT_HORIZON,
    floor_at_zero: bool = True,
) -> FloatArray:
    """Points for many games at once: element ``i`` is
    ``game_points(own_grades[i], opponent_grades[i], scores[i], ...).points``.

    Rule (GRADING-RULES.md §2, 1997 leaflet): opponent + 50 for a win, the opponent's grade for
    a draw, − 50 for a loss; an opponent more than ``horizon`` away from the player's own
    start-of-season grade counts as exactly ``horizon`` away; points below zero count as 0 when
    ``floor_at_zero``. An own grade of NaN stands for an ungraded player, who gets no horizon
    (as ``None`` does for :func:`~xlgrade.ecf.game_points`).

    Args:
        own_grades: each player's start-of-season grade; NaN where ungraded.
        opponent_grades: the opponents' grades (or working grades), finite.
        scores: 1, 0.5 or 0 for each game.
        horizon: the horizon in grade points (default 40); ``None`` for none.
        floor_at_zero: count negative points as 0.

    Raises:
        GradeError: the arrays differ in length, an opponent grade or an own grade is not
            finite (other than NaN for ungraded), or a score is not 1, 0.5 or 0; the message
            names the first such position.
        SettingError: ``horizon`` is negative or not a finite number.
    """
    own = _column(own_grades, "own grades")
    opponent = _column(opponent_grades, "opponent grades")
    score = _column(scores, "scores")
    if not own.shape == opponent.shape == score.shape:
        raise GradeError(
            f"own grades, opponent grades and scores must have the same length, not "
            f"{own.size}, {opponent.size} and {score.size}"
        )
    bad = ~np.isfinite(opponent)
    if bad.any():
        i = _first_bad(bad)
        raise GradeError(
            f"opponent grade {float(opponent[i])!r} at position {i} is not a finite number"
        )
    bad = np.isinf(own)
    if bad.any():
        i = _first_bad(bad)
        raise GradeError(f"own grade {float(own[i])!r} at position {i} is not a finite number")
    bad = (score != 0.0) & (score != 0.5) & (score != 1.0)
    if bad.any():
        i = _first_bad(bad)
        raise GradeError(
            f"score {float(score[i])!r} at position {i} must be 1 (win), 0.5 (draw) or 0 (loss)"
        )
    counted = opponent
    if horizon is not None:
        if isinstance(horizon, bool) or not isinstance(horizon, int | float):
            raise SettingError(f"horizon {horizon!r} is not a number")
        if not math.isfinite(horizon) or horizon < 0:
            raise SettingError(f"horizon {horizon!r} must be a finite number, not negative")
        limit = float(horizon)
        clamped = np.minimum(np.maximum(opponent, own - limit), own + limit)
        counted = np.where(np.isnan(own), opponent, clamped)
    points: FloatArray = counted + (2.0 * score - 1.0) * WIN_LOSS_MARGIN
    if floor_at_zero:
        points = np.where(points < 0.0, 0.0, points)
    return points
