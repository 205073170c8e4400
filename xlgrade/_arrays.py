"""Array checks shared by the bulk rating-period functions (private helper)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from xlgrade.errors import GradeError

__all__ = ["FloatArray", "IntArray", "period_arrays"]

FloatArray = npt.NDArray[np.float64]
"""A numpy array of float64."""
IntArray = npt.NDArray[np.int64]
"""A numpy array of int64."""


def _index_array(values: npt.ArrayLike, what: str, players: int) -> IntArray:
    arr = np.asarray(values)
    if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
        raise GradeError(f"{what} must be a one-dimensional array of player indices")
    if arr.size and (int(arr.min()) < 0 or int(arr.max()) >= players):
        raise GradeError(f"{what} holds an index outside 0 … {players - 1}")
    return arr.astype(np.int64, copy=False)


def period_arrays(
    ratings: npt.ArrayLike, white: npt.ArrayLike, black: npt.ArrayLike, score: npt.ArrayLike
) -> tuple[FloatArray, IntArray, IntArray, FloatArray]:
    """Check a bulk period's arrays: ratings, white and black player indices, white's score."""
    r = np.asarray(ratings, dtype=np.float64)
    if r.ndim != 1 or not np.all(np.isfinite(r)):
        raise GradeError("ratings must be a one-dimensional array of finite numbers")
    w = _index_array(white, "white", r.size)
    b = _index_array(black, "black", r.size)
    s = np.asarray(score, dtype=np.float64)
    if not (w.shape == b.shape == s.shape):
        raise GradeError(
            f"white, black and score must have the same length, not {w.size!r}, {b.size!r}, "
            f"{s.size!r}"
        )
    if s.size and not bool(np.all((s >= 0.0) & (s <= 1.0))):
        raise GradeError("every score must be between 0 and 1 (white's score)")
    return r, w, b, s
