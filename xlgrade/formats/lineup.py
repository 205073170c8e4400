"""A captain's proposed line-up, as a small table: the book's ``Line-up`` sheet, a folder's
``lineup.csv``, or any CSV file given to ``xlgrade lineup --file``.

The table has a ``Player`` column (the player by ECF code or name, as on the Players table; a
blank cell is a board left empty), and may have ``Board`` (blank: the rows' order), and
``Division``, ``Team`` and ``Date``, given on any row (the first that has each; rows that give
another are refused). What the table does not give is taken from the command line.

>>> rows = [["Division", "Team", "Date", "Player"],
...         ["Division 1", "Redmire A", "20/1/2026", "Ash, Ann"], [None, None, None, "Box"]]
>>> lineup = read_lineup(rows, "lineup.csv")
>>> lineup.team, lineup.date, lineup.boards
('Redmire A', datetime.date(2026, 1, 20), ((1, 'Ash, Ann'), (2, 'Box')))
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Final

from xlgrade import cells, schema
from xlgrade._rounding import quote
from xlgrade.errors import FormatError, GradingError
from xlgrade.teams import LineUp

__all__ = ["LINEUP_HEADERS", "LINEUP_SHEET", "read_lineup"]

LINEUP_SHEET: Final = schema.LINEUP
"""The book's sheet of a proposed line-up (``lineup.csv`` in a folder)."""
LINEUP_HEADERS: Final = ("Division", "Team", "Date", "Board", "Player")
"""The line-up table's columns; only ``Player`` is needed."""


def read_lineup(
    rows: Sequence[Sequence[object]],
    source: str,
    *,
    division: str | None = None,
    team: str | None = None,
    date: dt.date | None = None,
) -> LineUp:
    """The line-up of ``rows`` (a header row first, blank rows above it skipped), the
    division, team and date it does not give from ``division``, ``team`` and ``date``.

    Raises:
        FormatError: ``source: row N: …`` for a cell that cannot be read, a board given twice,
            no Player column, no player, or no division, team or date anywhere, quoting it.
    """
    table = [list(r) for r in rows]
    while table and all(cells.blank(v) for v in table[0]):
        table.pop(0)
    if not table:
        raise FormatError(f"{source}: the line-up is empty")
    header = [cells.header_key(v) for v in table[0]]
    at = {
        h: header.index(cells.header_key(h))
        for h in LINEUP_HEADERS
        if cells.header_key(h) in header
    }
    if "Player" not in at:
        raise FormatError(f"{source}: no column headed 'Player' (the header is {table[0]!r})")
    given: dict[str, object] = {"Division": division, "Team": team, "Date": date}
    from_table: dict[str, tuple[object, int]] = {}
    boards: list[tuple[int, str]] = []
    for number, row in enumerate(table[1:], start=2):
        cell = {h: row[i] if i < len(row) else None for h, i in at.items()}
        if all(cells.blank(v) for v in cell.values()):
            continue
        where = f"{source}: row {number}"
        for name in ("Division", "Team", "Date"):
            if cells.blank(cell.get(name)):
                continue
            value: object
            try:
                value = cells.date(cell[name]) if name == "Date" else cells.text(cell[name])
            except GradingError as error:
                raise FormatError(f"{where}: {name}: {error}") from None
            if name in from_table and from_table[name][0] != value:
                first, line = from_table[name]
                raise FormatError(
                    f"{where}: {name} {quote(cell[name])} is not row {line}'s {quote(first)}: "
                    "a line-up is one team's, in one match"
                )
            from_table.setdefault(name, (value, number))
        try:
            board = cells.board(cell.get("Board"))
        except GradingError as error:
            raise FormatError(f"{where}: Board: {error}") from None
        board = board if board is not None else len(boards) + 1
        if any(b == board for b, _ in boards):
            raise FormatError(f"{where}: board {board} is given twice")
        boards.append((board, cells.text(cell.get("Player"))))
    for name, (value, _) in from_table.items():
        given[name] = value
    missing = [name for name, value in given.items() if value in (None, "")]
    if missing:
        raise FormatError(
            f"{source}: no {' and no '.join(missing)}: give them in the line-up's columns or "
            "as --division, --team and --date"
        )
    if not any(player for _, player in boards):
        raise FormatError(f"{source}: the line-up names no player")
    day = given["Date"]
    assert isinstance(day, dt.date)
    return LineUp(str(given["Division"]), str(given["Team"]), day, tuple(sorted(boards)))
