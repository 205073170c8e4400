"""xlgrade: chess grading for league and congress graders.

The engine implements English ECF (BCF) grading, FIDE Elo and Glicko as pure functions over
frozen values. It never touches Excel or files; :mod:`xlgrade.formats` and
:mod:`xlgrade.workbook` do that, and ``udfs/xlgrade_udfs.py`` puts the engine into Excel.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
