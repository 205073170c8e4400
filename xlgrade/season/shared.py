"""Array types and the failure of one row, shared by the season's modules."""

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["BoolArray", "CodeArray", "Fail", "FloatArray", "IndexArray", "IntArray"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
"""Figures: months, days, counts kept as figures; never positions."""
IndexArray = npt.NDArray[np.intp]
"""Positions (rows, players, months of a season) and counts given to ``np.repeat``: numpy's
index type, which ``np.bincount``, ``np.repeat`` and ``np.searchsorted``'s sorter require
(int32 on a 32-bit platform such as Pyodide, where they refuse int64)."""
CodeArray = npt.NDArray[np.int32]
"""Each row's position among a column's distinct values (a season has far fewer than 2³¹)."""
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Fail:
    """Why one result row is not graded: the kind of problem and the words for it."""

    what: str
    why: str
