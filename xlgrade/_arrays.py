"""Array checks shared by the bulk rating-period functions (private helper).

Every value of an array must be a number, as for the one-player functions (see
:func:`xlgrade._rounding.finite`): text, ``True``/``False`` and ``None`` are refused, and the
message names the argument, the position and the value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from xlgrade._rounding import finite, quote
from xlgrade.errors import GradeError

__all__ = ["FloatArray", "IndexArray", "IntArray", "per_player", "period_arrays"]

FloatArray = npt.NDArray[np.float64]
"""A numpy array of float64."""
IntArray = npt.NDArray[np.int64]
"""A numpy array of int64: figures (months, counts kept in a state), never positions."""
IndexArray = npt.NDArray[np.intp]
"""Positions into another array, or counts given to ``np.repeat``: numpy's index type
``np.intp``, which ``np.bincount``, ``np.repeat`` and a sorter of ``np.searchsorted`` require
(int32 on a 32-bit platform such as Pyodide, where they refuse int64)."""

_NUMBER_KINDS = "iuf"
"""numpy dtype kinds taken as numbers as they are: signed and unsigned integers, floats."""


def _array(values: npt.ArrayLike, ragged: str) -> npt.NDArray[Any]:
    """``values`` as a numpy array; :class:`GradeError` ``ragged`` if its rows differ in length."""
    try:
        return np.asarray(values)
    except ValueError:  # rows of different lengths: numpy cannot make one array of them
        raise GradeError(ragged) from None


def _numbers(values: npt.ArrayLike, arr: npt.NDArray[Any], what: str) -> FloatArray:
    """A 0- or 1-dimensional ``arr`` (made from ``values``) as float64; :class:`GradeError` at
    the first entry that is not a number, naming ``what`` and the entry's position."""
    if arr.dtype.kind in _NUMBER_KINDS:
        return arr.astype(np.float64)
    if arr.ndim == 0:
        return np.array(finite(arr.item(), what), dtype=np.float64)
    # numpy turns the numbers of a list that also holds text into text: quote the list's own
    # entries, so that [1500, 'a'] is refused for its 'a'.
    items = list(values) if isinstance(values, list | tuple) else arr.tolist()
    # Infinite and NaN entries are left for the caller's range check.
    numbers = []
    for position, item in enumerate(items):
        if isinstance(item, float):
            numbers.append(item)
        else:
            numbers.append(finite(item, what, position=position))
    return np.array(numbers, dtype=np.float64)


def _shown(values: npt.ArrayLike, arr: npt.NDArray[Any]) -> str:
    """An argument quoted for a message: the caller's list as given, else the array's values."""
    return quote(values if isinstance(values, list | tuple) else arr.tolist())


def _index_array(values: npt.ArrayLike, what: str, players: int) -> IndexArray:
    message = f"{what} must be a one-dimensional array of player indices"
    arr = _array(values, message)
    if arr.ndim == 1 and arr.size == 0:
        # A period with no games: an empty list reads as floats, and names no player.
        return np.zeros(0, dtype=np.intp)
    if arr.ndim != 1 or not np.issubdtype(arr.dtype, np.integer):
        raise GradeError(message)
    outside = np.flatnonzero((arr < 0) | (arr >= players))
    if outside.size:
        i = int(outside[0])
        raise GradeError(
            f"{what} index {quote(arr[i].item())} at position {i} is outside 0 … {players - 1}"
        )
    # In range, so the cast to numpy's index type loses nothing on any platform.
    return arr.astype(np.intp, copy=False)


def period_arrays(
    ratings: npt.ArrayLike, white: npt.ArrayLike, black: npt.ArrayLike, score: npt.ArrayLike
) -> tuple[FloatArray, IndexArray, IndexArray, FloatArray]:
    """Check a bulk period's arrays: ratings, white and black player indices, white's score."""
    message = "ratings must be a one-dimensional array of finite numbers"
    raw = _array(ratings, message)
    if raw.ndim != 1:
        raise GradeError(message)
    r = _numbers(ratings, raw, "ratings")
    if not np.all(np.isfinite(r)):
        raise GradeError(message)
    w = _index_array(white, "white", r.size)
    b = _index_array(black, "black", r.size)
    raw = _array(score, "score must be a one-dimensional array, white's score in each game")
    if raw.ndim != 1:
        raise GradeError(
            f"score {_shown(score, raw)} must be a one-dimensional array, white's score in "
            "each game"
        )
    s = _numbers(score, raw, "score")
    if not (w.shape == b.shape == s.shape):
        raise GradeError(
            f"white, black and score must have the same length, not {quote(w.size)}, "
            f"{quote(b.size)}, "
            f"{quote(s.size)}"
        )
    if s.size and not bool(np.all((s >= 0.0) & (s <= 1.0))):
        raise GradeError("every score must be between 0 and 1 (white's score)")
    return r, w, b, s


def per_player(
    values: npt.ArrayLike, what: str, players: int, *, require_finite: bool = False
) -> FloatArray:
    """A setting given as one value or one value per player, as ``players`` floats.

    ``what`` is the argument's name, for the messages. A one-value array counts as one value.
    With ``require_finite`` every value must be finite (the message gives the position of the
    first that is not, when there is one value per player).

    Raises:
        GradeError: an array of another length or shape, or a value that is not a number.
    """
    advice = f"give one value, or one per player ({players} players)"
    raw = _array(values, f"{what} is a ragged array: {advice}")
    if raw.ndim > 1:
        raise GradeError(
            f"{what} {_shown(values, raw)} is a {raw.ndim}-dimensional array: {advice}"
        )
    if raw.ndim == 1 and raw.size not in (1, players):
        raise GradeError(
            f"{what} {_shown(values, raw)} has {raw.size} values for {players} players: "
            "give one value, or one per player"
        )
    arr = _numbers(values, raw, what)
    if require_finite and not bool(np.all(np.isfinite(arr))):
        if arr.ndim == 0:
            raise GradeError(f"{what} {quote(arr.item())} is not a finite number")
        i = int(np.flatnonzero(~np.isfinite(arr))[0])
        raise GradeError(f"{what} {quote(arr[i].item())} at position {i} is not a finite number")
    return np.broadcast_to(arr, (players,))
