"""Read the Settings, Players and Results sheets' raw cells into the season's values, and
recalculate.

Both paths share this: ``xlgrade recalc`` (cells read from the file with python-calamine) and
the ribbon's ``recalculate_season()`` (cells read from the live book with xlwings). The cells
are read by the one reader of tables, :mod:`xlgrade.formats.tables` (a folder's CSV files are
read by it too): columns found by header, every cell that cannot be read a
:class:`~xlgrade.model.Problem` naming the sheet, the row, the cell and its header, quoting the
input, that reaches the Exceptions sheet; a header that would change the grades in silence
stops the run (nothing is graded, and the Exceptions sheet says why).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from xlgrade.editions import RatingHistory
from xlgrade.errors import GradingError
from xlgrade.formats.tables import Inputs, read_inputs
from xlgrade.season import SeasonResult, Table, recalculate
from xlgrade.teams import Division, LineUp, league_breaches, lineup_breaches, violations_table
from xlgrade.workbook import layout
from xlgrade.workbook.outputs import SheetTable, season_sheets

__all__ = [
    "LINEUP_HEADERS",
    "Inputs",
    "grade_inputs",
    "lineup_table",
    "output_tables",
    "read_inputs",
    "recalculate_tables",
]

_NOTHING: Final = {layout.RAPID_LIST: "No rapidplay game was graded this season."}


def grade_inputs(inputs: Inputs) -> SeasonResult:
    """Grade what :func:`read_inputs` read; its problems reach the Exceptions sheet and the
    accounting. A header that stops the run (:attr:`Inputs.stopped`) grades nothing: the
    Exceptions sheet then says why."""
    if inputs.stopped:
        return recalculate((), (), inputs.settings, inputs.problems)
    return recalculate(inputs.players, inputs.games, inputs.settings, inputs.problems)


def output_tables(
    result: SeasonResult,
    divisions: Mapping[str, Division] | None = None,
    ratings: RatingHistory | None = None,
    lineup: LineUp | None = None,
) -> dict[str, Table]:
    """Every output sheet's table (:func:`xlgrade.workbook.outputs.season_sheets`), the
    Violations of the ``divisions``' rules (:func:`xlgrade.teams.league_breaches`), and a
    one-line note for an output sheet with nothing to show this season (the Rapid List when no
    rapid game was played), so that an old list never stays behind. ``ratings`` are the
    editions of the rating list the Ratings sheet keeps, for divisions that name one. With a
    ``lineup`` (the book's Line-up sheet), the Line-up check too (:func:`lineup_table`)."""
    tables = season_sheets(result)
    rules = divisions or {}
    tables[layout.VIOLATIONS] = _board_centred(
        violations_table(rules, league_breaches(result, rules, ratings))
    )
    if lineup is not None:
        tables[layout.LINEUP_CHECK] = lineup_table(result, rules, lineup, ratings)
    for name in layout.OUTPUT_SHEETS:
        if name not in tables:
            tables[name] = Table(("Note",), [(_NOTHING.get(name, "Nothing this season."),)])
    return {name: tables[name] for name in layout.OUTPUT_SHEETS} | tables


LINEUP_HEADERS: Final = ("Board", "Player", "Rule", "Why")
"""The Line-up check's columns, when the line-up breaks a rule."""


def lineup_table(
    result: SeasonResult,
    divisions: Mapping[str, Division],
    lineup: LineUp,
    ratings: RatingHistory | None = None,
) -> Table:
    """The Line-up check: each breach of the proposed line-up
    (:func:`xlgrade.teams.lineup_breaches`), or a note that it keeps every rule, or why it
    cannot be checked."""
    what = f"{' '.join(lineup.team.split())} on {lineup.date.isoformat()} in {lineup.division}"
    try:
        found = lineup_breaches(result, divisions, lineup, ratings)
    except GradingError as error:
        return Table(("Note",), [(f"The line-up of {what} is not checked: {error}",)])
    if not found:
        return Table(("Note",), [(f"The line-up of {what} keeps every rule of its division.",)])
    rows: list[tuple[object, ...]] = [
        ("" if b.board is None else b.board, b.player, b.rule, b.why) for b in found
    ]
    return Table(LINEUP_HEADERS, rows)


def _board_centred(table: Table) -> Table:
    """The Violations table with its Board numbers centred (printed at the right of their
    column they read as part of the player's name beside them)."""
    if "Board" not in table.headers:
        return table
    board = table.headers.index("Board")
    styles = {(r, board): "centre" for r in range(len(table.rows))}
    return SheetTable(table.headers, table.rows, styles)


def recalculate_tables(raw: Mapping[str, Sequence[Sequence[object]]]) -> dict[str, Table]:
    """Grade the season held in ``raw`` (see :func:`read_inputs`): output sheet name → table.

    The tables are those of :meth:`xlgrade.season.SeasonResult.tables` (see
    :func:`output_tables`); the reader's problems are handed to the season so they reach the
    Exceptions sheet and its accounting.
    """
    inputs = read_inputs(raw)
    return output_tables(
        grade_inputs(inputs), inputs.divisions, inputs.rating_history, inputs.lineup
    )
