"""The command line's subcommands, one module each.

Each module defines ``register(subparsers)``, which adds its parser and sets ``func`` to a
function taking the parsed arguments and returning the exit code. :mod:`xlgrade.cli` lists
the modules in :data:`xlgrade.cli.COMMANDS`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from xlgrade.model import Problem
    from xlgrade.workbook.league import League

__all__ = ["open_printing_notes", "unread_notes"]

SHOWN: Final = 10
"""Problems listed on the terminal before '… and N more'."""


def unread_notes(problems: Sequence[Problem], place: Mapping[str, str], header: str) -> list[str]:
    """Lines for the Settings and Players cells the reader could not read (each value left
    out, the rest of its row kept): ``header`` with ``{cells}`` ("1 cell", "3 cells") and
    ``{places}`` (where they are, by ``place`` of each sheet) filled in, then the first few,
    one line a row, each named by its place and row (a row's other cells after its first,
    "; also …", as on the Exceptions sheet: :func:`xlgrade.season.run.one_line_a_row`). The
    reader's notes that are not about a cell (the season
    taken from the games, a grade column not read: :data:`xlgrade.formats.tables.NOTES`) follow
    as ``note:`` lines, and a count of the rows hidden or under merged cells
    (:data:`xlgrade.season.checks.ROW_NOTES`)."""
    from xlgrade.formats.tables import NOTES
    from xlgrade.season.checks import ROW_NOTES
    from xlgrade.season.run import one_line_a_row

    mine = [p for p in problems if p.sheet in ("Players", "Settings")]
    found = [p for p in mine if p.what not in NOTES | ROW_NOTES]
    notes = [f"note: {place[p.sheet]}: {p.why}" for p in mine if p.what in NOTES]
    for sheet in sorted({p.sheet for p in mine if p.what in ROW_NOTES}, reverse=True):
        count = len({p.row for p in mine if p.sheet == sheet and p.what in ROW_NOTES})
        notes.append(
            f"note: {place[sheet]}: {count} row{'s' if count != 1 else ''} hidden or under "
            "merged cells, read all the same (each is on the Exceptions sheet)"
        )
    if not found:
        return notes
    cells = "1 cell" if len(found) == 1 else f"{len(found)} cells"
    places = " and ".join(sorted({place[p.sheet] for p in found}, reverse=True))
    lines = [header.format(cells=cells, places=places)]
    rows = one_line_a_row(found)
    lines += [
        f"  {place[p.sheet]}" + ("" if p.row is None else f" row {p.row}") + f": {p.why}"
        for p in rows[:SHOWN]
    ]
    if len(rows) > SHOWN:
        lines.append(f"  … and {len(rows) - SHOWN} more")
    return lines + notes


def open_printing_notes(path: str | os.PathLike[str], command: str) -> League:
    """The league at ``path``, a workbook or a folder
    (:func:`xlgrade.workbook.league.open_league`; ``command`` names the command in its
    refusals), each note that a folder's file is not UTF-8
    (:func:`xlgrade.formats.encoding.not_utf8_note`) printed first, even when the opening
    then stops."""
    from xlgrade.workbook.league import open_league

    notes: list[str] = []
    try:
        return open_league(path, command=command, notes=notes)
    finally:
        for note in notes:
            print(f"note: {note}")


def refuse_to_replace(paths: Sequence[str | os.PathLike[str]], force: bool) -> None:
    """Refuse to write over files that exist unless ``--force`` is given: called before any
    reading, and again under the output's lock (another run may have made it meanwhile).

    Raises:
        GradingError: naming the files there and what to do.
    """
    from xlgrade.errors import GradingError

    # A folder there is for the writer to refuse as one (not a file to replace).
    there = [os.fspath(p) for p in paths if os.path.lexists(p) and not os.path.isdir(p)]
    if there and not force:
        names = ", ".join(there)
        verb, it = ("exists", "it") if len(there) == 1 else ("exist", "them")
        raise GradingError(f"{names} {verb}; use --force to replace {it}")
