"""The files xlgrade reads and writes, one module a format: the player card (``cardfile``),
players and results CSV (``csvfile``), FIDE tournament reports (``trf``), the ECF results
submission file (``ecffile``), a folder standing for a league book (``folder``), reading a file
of any of these kinds (``detect``) and matching one player's names across files (``names``).
"""

__all__: list[str] = []
