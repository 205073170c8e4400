"""Array types and the failure of one row, shared by the season's modules (private helper)."""

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = ["BoolArray", "FloatArray", "IntArray"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class _Fail:
    """Why one result row is not graded: the kind of problem and the words for it."""

    what: str
    why: str
