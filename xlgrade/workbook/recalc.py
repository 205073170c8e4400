"""Recalculate a workbook file without Excel: read its input sheets, grade the season, and
rewrite only its output sheets (``xlgrade recalc``)."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

from xlgrade.workbook import layout
from xlgrade.workbook.build import build_workbook
from xlgrade.workbook.package import read_sheets, write_sheets
from xlgrade.workbook.read import grade_inputs, output_tables, read_inputs

__all__ = ["RecalcSummary", "new_season_book", "recalculate_book"]


@dataclass(frozen=True)
class RecalcSummary:
    """What a recalculation did, for the terminal.

    Attributes:
        players: Players rows read.
        games: Results rows read (graded or not).
        graded: games graded, on the standard and the rapid list together.
        exceptions: problems on the Exceptions sheet.
        sheets: the sheets written.
        accounting: the season's accounting of result rows, in one line.
    """

    players: int
    games: int
    graded: int
    exceptions: int
    sheets: tuple[str, ...]
    accounting: str


def recalculate_book(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str] | None = None,
    *,
    progress: Callable[[str], None] | None = None,
) -> RecalcSummary:
    """Recalculate the workbook at ``path``; write it back atomically (or to ``out``).

    Only the output sheets change; see :func:`xlgrade.workbook.package.write_sheets`.
    ``progress`` receives a line for each step.
    """
    say = progress or (lambda line: None)
    say(f"Reading {os.fspath(path)}")
    with open(path, "rb") as source:
        data = source.read()
    raw = read_sheets(data, layout.INPUT_SHEETS, source=os.fspath(path))
    inputs = read_inputs(raw)
    say(f"Grading {len(inputs.players)} players and {len(inputs.games)} games")
    result = grade_inputs(inputs)
    tables = output_tables(result)
    say(f"Writing {', '.join(tables)}")
    write_sheets(path, tables, out, data=data)
    accounting = result.accounting
    return RecalcSummary(
        players=len(inputs.players),
        games=len(inputs.games),
        graded=accounting.standard_graded + accounting.rapid_graded,
        exceptions=len(result.problems),
        sheets=tuple(tables),
        accounting=accounting.summary(),
    )


def new_season_book(
    path: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    progress: Callable[[str], None] | None = None,
) -> tuple[int, str]:
    """Write a new book at ``out`` for the season after the one in the book at ``path``:
    the template with the Players table carried on (:meth:`SeasonResult.next_season`), no
    results, and the settings a year on. Returns the number of players and the new season's
    name. The write is atomic (a temporary file renamed into place)."""
    say = progress or (lambda line: None)
    say(f"Reading {os.fspath(path)}")
    with open(path, "rb") as source:
        data = source.read()
    result = grade_inputs(
        read_inputs(read_sheets(data, layout.INPUT_SHEETS, source=os.fspath(path)))
    )
    players, settings = result.next_season()
    say(f"Writing {os.fspath(out)}")
    folder = os.path.dirname(os.path.abspath(out))
    handle, temporary = tempfile.mkstemp(prefix=".xlgrade-", suffix=".xlsm", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(build_workbook(players, (), settings))
        os.replace(temporary, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return len(players), settings.season_name
