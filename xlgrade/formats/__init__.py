"""The files xlgrade reads and writes, one module a format: the player card (``cardfile``),
players and results CSV (``csvfile``), FIDE tournament reports (``trf``), the ECF results
submission file (``ecffile``), a folder standing for a league book (``folder``), reading a file
of any of these kinds (``detect``) and matching one player's names across files (``names``).

The names of a league folder's files are here, where importing them imports nothing else:
the command line names them without loading a reader.
"""

from typing import Final

__all__ = [
    "DIVISIONS_FILE",
    "PLAYERS_FILE",
    "PROBLEMS_FILE",
    "RATINGS_FILE",
    "RESULTS_FILE",
    "SETTINGS_FILE",
]

SETTINGS_FILE: Final = "settings.csv"
"""A league folder's settings, as ``Setting``, ``Value`` rows (:mod:`xlgrade.formats.folder`)."""
PLAYERS_FILE: Final = "players.csv"
"""A league folder's players, under the Players sheet's headers."""
RESULTS_FILE: Final = "results.csv"
"""A league folder's games, under the Results sheet's headers."""
PROBLEMS_FILE: Final = "problems.csv"
"""The round entries an import could not take as games: sheet, row, what, why."""
DIVISIONS_FILE: Final = "divisions.csv"
"""The divisions' rules, under the Divisions sheet's headers (:mod:`xlgrade.teams`)."""
RATINGS_FILE: Final = "ratings.csv"
"""The rating lists a league has loaded, under the Ratings sheet's headers
(:mod:`xlgrade.editions`)."""
