"""A folder of CSV files standing for a league book: ``players.csv``, ``results.csv`` and
``problems.csv`` (the layouts of :mod:`xlgrade.formats.csvfile`; problems as sheet, row, what,
why). ``xlgrade import --into FOLDER`` adds to them; ``xlgrade export FOLDER`` reads them."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xlgrade.formats.csvfile import (
    _restore,
    neutralise,
    read_csv,
    write_players_csv,
    write_results_csv,
)
from xlgrade.formats.detect import decode
from xlgrade.model import Game, Player, Problem

__all__ = ["FolderBook", "read_folder", "read_folder_cells", "write_folder"]

SETTINGS_FILE = "settings.csv"
PLAYERS_FILE = "players.csv"
RESULTS_FILE = "results.csv"
PROBLEMS_FILE = "problems.csv"


@dataclass(frozen=True)
class FolderBook:
    """What a folder holds.

    Attributes:
        players: from ``players.csv`` (empty if the file is missing).
        games: from ``results.csv`` (empty if the file is missing).
        problems: from ``problems.csv`` (empty if the file is missing).
    """

    players: tuple[Player, ...]
    games: tuple[Game, ...]
    problems: tuple[Problem, ...]


def read_folder(folder: str | os.PathLike[str]) -> FolderBook:
    """Read the folder's CSV files; a missing file reads as empty.

    Raises:
        FormatError: ``line N: …`` from a file that cannot be read, named by the caller.
    """
    path = Path(folder)
    players: tuple[Player, ...] = ()
    games: tuple[Game, ...] = ()
    problems: list[Problem] = []
    if (path / PLAYERS_FILE).is_file():
        players = read_csv(decode((path / PLAYERS_FILE).read_bytes()), PLAYERS_FILE).players
    if (path / RESULTS_FILE).is_file():
        games = read_csv(decode((path / RESULTS_FILE).read_bytes()), RESULTS_FILE).games
    if (path / PROBLEMS_FILE).is_file():
        rows = list(csv.reader(io.StringIO(decode((path / PROBLEMS_FILE).read_bytes()))))
        for row in rows[1:]:
            if len(row) >= 4:
                cells = [c[1:] if c.startswith("'") else c for c in row[:4]]
                number = int(cells[1]) if cells[1].isdigit() else None
                problems.append(Problem(cells[0], number, cells[2], cells[3]))
    return FolderBook(players, games, tuple(problems))


def read_folder_cells(folder: str | os.PathLike[str]) -> dict[str, list[list[str]]]:
    """The folder's ``settings.csv``, ``players.csv`` and ``results.csv`` as raw cells, keyed by
    the workbook sheet each stands for ("Settings", "Players", "Results"), header row first —
    the form :func:`xlgrade.workbook.read.read_inputs` reads, so a folder and a workbook are
    checked cell by cell alike. A missing file is left out (the reader reports it).

    Raises:
        FileNotFoundError: ``folder`` is not a folder.
    """
    path = Path(folder)
    if not path.is_dir():
        raise FileNotFoundError(2, "No such folder", str(path))
    cells: dict[str, list[list[str]]] = {}
    for sheet, name in (
        ("Settings", SETTINGS_FILE),
        ("Players", PLAYERS_FILE),
        ("Results", RESULTS_FILE),
    ):
        if (path / name).is_file():
            text = decode((path / name).read_bytes())
            cells[sheet] = [[_restore(c) for c in row] for row in csv.reader(io.StringIO(text))]
    return cells


def write_folder(
    folder: str | os.PathLike[str],
    players: Sequence[Player],
    games: Sequence[Game],
    problems: Sequence[Problem],
) -> None:
    """Write the three files (replacing them), each through a temporary file renamed into
    place so that a failure leaves the old file whole."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(("sheet", "row", "what", "why"))
    for problem in problems:
        row = "" if problem.row is None else str(problem.row)
        writer.writerow([neutralise(c) for c in (problem.sheet, row, problem.what, problem.why)])
    for name, text in (
        (PLAYERS_FILE, write_players_csv(players)),
        (RESULTS_FILE, write_results_csv(games)),
        (PROBLEMS_FILE, out.getvalue()),
    ):
        temporary = path / f".{name}.tmp"
        temporary.write_text(text, encoding="utf-8", newline="")
        os.replace(temporary, path / name)
