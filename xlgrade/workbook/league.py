"""Open a league from where a grader keeps it: a league workbook or a folder of CSV files.

Every command that reads a league (``season``, ``eligibility``, ``export``) opens it here, so
that "book or folder?" is decided once, the same way: a path ending ``.xlsm`` or ``.xlsx`` is
a workbook (:func:`xlgrade.workbook.recalc.read_book_inputs`), a folder is a season folder
(:func:`xlgrade.formats.folder.read_folder_cells`: ``settings.csv``, ``players.csv``,
``results.csv``, ``divisions.csv``), and anything else is refused naming the path. Both are
read by the one reader of tables (:func:`xlgrade.formats.tables.read_inputs`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from xlgrade.errors import GradingError
from xlgrade.formats import (
    DIVISIONS_FILE,
    PLAYERS_FILE,
    RATINGS_FILE,
    RESULTS_FILE,
    SETTINGS_FILE,
)
from xlgrade.formats.tables import Inputs
from xlgrade.schema import DIVISIONS, PLAYERS, RATINGS, RESULTS, SETTINGS

__all__ = ["BOOK_SUFFIXES", "FOLDER_FILES", "League", "is_book", "open_league"]

BOOK_SUFFIXES: Final = (".xlsm", ".xlsx")
"""The endings of a league workbook's name."""

FOLDER_FILES: Final = {
    SETTINGS: SETTINGS_FILE,
    PLAYERS: PLAYERS_FILE,
    RESULTS: RESULTS_FILE,
    DIVISIONS: DIVISIONS_FILE,
    RATINGS: RATINGS_FILE,
}
"""The file of a season folder that holds each sheet of the template."""


@dataclass
class League:
    """A league as read, from a workbook or a folder.

    Attributes:
        path: where it was read from.
        book: it is a workbook (else a folder of CSV files).
        inputs: its tables, read by the one reader of tables.
        places: where each table was read, for messages: ``league.xlsm sheet Players``, or
            ``league/players.csv``.
        has_settings: it has its own settings (a Settings sheet; a folder's
            ``settings.csv``), rather than the defaults.
        notes: what the grader should know of how it was read (a folder without
            ``settings.csv`` graded with the default settings), each a line beginning
            ``note:``.
    """

    path: Path
    book: bool
    inputs: Inputs
    places: dict[str, str]
    has_settings: bool = True
    notes: list[str] = field(default_factory=list)


def is_book(path: str | os.PathLike[str]) -> bool:
    """``path`` names a league workbook (by its ending, :data:`BOOK_SUFFIXES`)."""
    return Path(path).suffix.lower() in BOOK_SUFFIXES


def open_league(
    path: str | os.PathLike[str], *, command: str = "xlgrade", notes: list[str] | None = None
) -> League:
    """The league at ``path``: a workbook, or a folder of CSV files.

    A header that stops the run is refused here (:meth:`Inputs.refuse_stopped`), naming the
    sheet or the file, so a command never grades or writes from a table it could not read.
    A folder without ``settings.csv`` is graded with the default settings in the season of
    its games, and :attr:`League.notes` says so (that missing sheet is then no problem of
    the inputs). ``command`` names the command in the messages (``xlgrade season``). A
    folder's file that is not UTF-8 is said so in a note to ``notes``
    (:func:`xlgrade.formats.folder.read_folder_cells`), made before anything can stop the
    opening.

    Raises:
        GradingError: ``path`` is neither a workbook nor a folder; a folder lacks
            ``players.csv`` or ``results.csv``; a file lacks a column every row needs; a
            header stops the run.
        FormatError: the workbook or a file cannot be read (naming it and the place).
        OSError: the file or folder cannot be read.
    """
    where = Path(path)
    if is_book(where):
        return _open_book(where)
    if where.is_dir():
        return _open_folder(where, notes)
    if where.is_file():
        raise GradingError(_not_a_league(where, command))
    raise GradingError(f"{where}: no such workbook or folder")


def _open_book(path: Path) -> League:
    from xlgrade.workbook.lite import damage_note, lite_damage
    from xlgrade.workbook.recalc import read_book_inputs

    data = path.read_bytes()
    inputs = read_book_inputs(data, path)
    places = {sheet: f"{path} sheet {sheet}" for sheet in FOLDER_FILES}
    inputs.refuse_stopped(places)
    settings = not any(p.sheet == SETTINGS and p.what == "missing sheet" for p in inputs.problems)
    damage = lite_damage(data)  # read as it is; recalc puts back what it lost
    notes = [] if damage is None else [damage_note(str(path), damage)]
    return League(path, True, inputs, places, settings, notes)


def _open_folder(folder: Path, notes: list[str] | None) -> League:
    from xlgrade.formats.folder import read_folder_cells
    from xlgrade.formats.tables import read_inputs

    cells = read_folder_cells(folder, notes)
    missing = [FOLDER_FILES[sheet] for sheet in (PLAYERS, RESULTS) if sheet not in cells]
    if missing:
        raise GradingError(
            f"{folder}: no {' and no '.join(missing)}: a season folder holds {PLAYERS_FILE} "
            f"and {RESULTS_FILE} (and {SETTINGS_FILE}, else the default settings are used; "
            f"{DIVISIONS_FILE} holds the divisions' rules)"
        )
    _refuse_missing_columns(folder, cells)
    inputs = read_inputs(cells)
    places = {sheet: str(folder / name) for sheet, name in FOLDER_FILES.items()}
    inputs.refuse_stopped(places)
    if SETTINGS in cells:
        return League(folder, False, inputs, places)
    # The defaults, in the season of the games: said in a note, and no problem of a row.
    inputs.problems = [p for p in inputs.problems if p.what != "missing sheet"]
    note = f"note: {folder / SETTINGS_FILE} not found: default settings used, {inputs.season_words}"
    return League(folder, False, inputs, places, False, [note])


def _refuse_missing_columns(folder: Path, cells: dict[str, list[list[str]]]) -> None:
    """Raise, naming the file and quoting its header line, when a file lacks a column every
    row needs: nothing in it could be read."""
    from xlgrade.cells import header_key
    from xlgrade.formats.encoding import read_streamed
    from xlgrade.formats.tables import REQUIRED_HEADERS

    lacking = []
    for sheet, rows in cells.items():
        header = next((row for row in rows if any(c.strip() for c in row)), [])
        keys = {header_key(cell) for cell in header}
        absent = [h for h in REQUIRED_HEADERS[sheet] if header_key(h) not in keys]
        if absent:
            file = folder / FOLDER_FILES[sheet]
            line = read_streamed(file, _first_text_line)
            lacking.append(
                f"{file}: no column headed "
                + " or ".join(repr(h) for h in absent)
                + f" (the header row is {line!r})"
            )
    if lacking:
        raise GradingError("; ".join(lacking))


def _first_text_line(lines: Iterator[str]) -> str:
    """The first line that is not blank, its line end and a byte-order mark left out."""
    found = next((line for line in lines if line.strip()), "")
    return found.removeprefix("\ufeff").rstrip("\r\n")


def _not_a_league(path: Path, command: str) -> str:
    """What to say when a path names a file that is not a workbook: the folder it is in,
    when that folder holds a season's files."""
    parent = path.parent
    hint = (
        f"; did you mean {parent}?"
        if (parent / PLAYERS_FILE).is_file() or (parent / RESULTS_FILE).is_file()
        else ""
    )
    return (
        f"{path} is a file but not a workbook (.xlsm, .xlsx): {command} reads a league "
        f"workbook or a folder that holds {PLAYERS_FILE} and {RESULTS_FILE} (and "
        f"{SETTINGS_FILE}){hint}"
    )
