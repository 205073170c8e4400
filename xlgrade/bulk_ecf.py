"""ECF game points for whole columns at once: :func:`game_points_array`.

The rule lives in :mod:`xlgrade.ecf`, its scalar form (:func:`~xlgrade.ecf.game_points`) and
its array form side by side; this module keeps the array form importable under its first name
(the ``GRADE_POINTS`` worksheet function over a whole Results column calls it from here).

>>> game_points_array([118.0, 118.0], [165.0, 70.0], [1.0, 0.0]).tolist()
[208.0, 28.0]
"""

from __future__ import annotations

from xlgrade.ecf import FloatArray as FloatArray
from xlgrade.ecf import game_points_array

__all__ = ["game_points_array"]
