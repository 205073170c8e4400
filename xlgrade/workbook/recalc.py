"""Recalculate a workbook file without Excel: read its input sheets, grade the season, and
rewrite only its output sheets (``xlgrade recalc``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from xlgrade.workbook import layout
from xlgrade.workbook.package import read_sheets, write_sheets
from xlgrade.workbook.read import read_inputs, recalculate_tables

__all__ = ["RecalcSummary", "recalculate_book"]


@dataclass(frozen=True)
class RecalcSummary:
    """What a recalculation did, for the terminal.

    Attributes:
        players: Players rows read.
        games: Results rows read (graded or not).
        graded: games graded, on the standard and the rapid list together.
        exceptions: rows on the Exceptions sheet.
        sheets: the sheets written.
    """

    players: int
    games: int
    graded: int
    exceptions: int
    sheets: tuple[str, ...]


def _graded_games(tables: dict[str, object]) -> int:
    """Games graded: each graded game appears on two players' cards, or on one player's when
    the other is not on the list; counted from the lists' ``Games`` columns."""
    total = 0.0
    for name in (layout.GRADING_LIST, layout.RAPID_LIST):
        table = tables.get(name)
        if table is None:
            continue
        headers = [layout.header_key(h) for h in getattr(table, "headers", ())]
        if "games" not in headers:
            continue
        column = headers.index("games")
        for row in getattr(table, "rows", ()):
            value = row[column] if column < len(row) else None
            if isinstance(value, int | float) and not isinstance(value, bool):
                total += value
    return int(total // 2)


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
    raw = read_sheets(path, layout.INPUT_SHEETS)
    inputs = read_inputs(raw)
    say(f"Grading {len(inputs.players)} players and {len(inputs.games)} games")
    tables = recalculate_tables(raw)
    say(f"Writing {', '.join(tables)}")
    write_sheets(path, tables, out)
    exceptions = tables.get(layout.EXCEPTIONS)
    return RecalcSummary(
        players=len(inputs.players),
        games=len(inputs.games),
        graded=_graded_games(dict(tables)),
        exceptions=len(exceptions.rows) if exceptions is not None else 0,
        sheets=tuple(tables),
    )
