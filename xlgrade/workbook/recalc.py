"""Recalculate a workbook file without Excel: read its input sheets, grade the season, and
rewrite only its output sheets (``xlgrade recalc``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from xlgrade.workbook import layout
from xlgrade.workbook.package import read_sheets, write_sheets
from xlgrade.workbook.read import grade_inputs, output_tables, read_inputs

__all__ = ["RecalcSummary", "recalculate_book"]


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
    raw = read_sheets(data, layout.INPUT_SHEETS)
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
