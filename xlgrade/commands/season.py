"""``xlgrade season FOLDER``: grade a league kept as CSV files and print its grading list, a
player's card, or its exceptions."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from xlgrade.commands import folder_cells, unread_notes
from xlgrade.errors import GradingError
from xlgrade.formats import DIVISIONS_FILE, PLAYERS_FILE, RESULTS_FILE, SETTINGS_FILE

if TYPE_CHECKING:
    from xlgrade.season import SeasonResult, Table
    from xlgrade.workbook.read import Inputs

__all__ = ["format_table", "register", "run"]


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``season`` command."""
    parser = subparsers.add_parser(
        "season",
        help="grade a league kept as CSV files; print its list, a card or its exceptions",
        description=(
            "Grade the season in FOLDER (settings.csv, players.csv and results.csv, with the "
            "columns of the template workbook's sheets) and print the grading list. Every "
            "result row is graded or listed with its reason; the last line adds them up, and "
            "the cells of players.csv and settings.csv that could not be read follow it. "
            "Without settings.csv the default settings are used (and said so). Columns of the "
            "list: games and points this season, the published grade (junior enhancement "
            "included), category, Elo equivalent. With the setting System at 'ECF rating "
            "(2020 rules)' the season is rated month by month instead: the list has each "
            "player's rating, category, change and monthly path, and --card prints his rating "
            "card."
        ),
        epilog="Example: xlgrade season examples/league --card 'Jarvis, Robert'",
    )
    parser.add_argument(
        "folder", metavar="FOLDER", help="folder with settings.csv, players.csv, results.csv"
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--card", metavar="PLAYER", help="print this player's card (code or name)")
    shown.add_argument(
        "--exceptions", action="store_true", help="print every row not graded, with the reason"
    )
    parser.add_argument("--rapid", action="store_true", help="the rapidplay list (or card) instead")
    parser.set_defaults(func=run)


def format_table(table: Table, columns: tuple[str, ...]) -> str:
    """Some columns of a table as aligned text; numbers right-aligned."""
    picked = [table.headers.index(c) for c in columns]
    cells = [[("" if row[i] is None else str(row[i])) for i in picked] for row in table.rows]
    widths = [max([len(c)] + [len(r[k]) for r in cells]) for k, c in enumerate(columns)]
    numeric = [
        all(isinstance(row[i], int | float) or row[i] is None for row in table.rows) for i in picked
    ]

    def line(values: list[str]) -> str:
        parts = [
            v.rjust(w) if right else v.ljust(w)
            for v, w, right in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([line(list(columns))] + [line(r) for r in cells]) + "\n"


LIST_COLUMNS = ("Code", "Name", "Club", "Games", "Grade", "Category", "Junior", "Elo")
RATING_COLUMNS: Final = (
    "Code", "Name", "Club", "Games", "Rating", "Category", "Change", "Monthly path",
)  # fmt: skip
"""The columns printed of a rated season's list (System: ECF rating (2020 rules))."""


FILES: Final = {
    "Settings": SETTINGS_FILE,
    "Players": PLAYERS_FILE,
    "Results": RESULTS_FILE,
    "Divisions": DIVISIONS_FILE,
}
"""The file each sheet of the template is kept in."""


def _a_file_not_a_folder(path: Path) -> str:
    """What to say when FOLDER names a file: that ``season`` wants the folder, and the folder
    the file is in when that folder holds the season's files."""
    parent = path.parent
    hint = (
        f"; did you mean {parent}?"
        if (parent / PLAYERS_FILE).is_file() or (parent / RESULTS_FILE).is_file()
        else ""
    )
    return (
        f"{path} is a file: xlgrade season reads a folder that holds {PLAYERS_FILE} and "
        f"{RESULTS_FILE} (and {SETTINGS_FILE}){hint}"
    )


def run(args: argparse.Namespace) -> int:
    """Read the folder, grade it, print; 0 on success.

    Raises:
        GradingError: FOLDER is a file, the folder lacks players.csv or results.csv, or a
            file lacks a column that every row needs; nothing is graded then.
    """
    from xlgrade.card import render_card
    from xlgrade.season import STANDARD
    from xlgrade.season.rating_card import render_rating_card
    from xlgrade.workbook.read import grade_inputs, read_inputs

    folder = Path(args.folder)
    if folder.is_file():
        raise GradingError(_a_file_not_a_folder(folder))
    cells = folder_cells(folder)
    missing = [FILES[sheet] for sheet in ("Players", "Results") if sheet not in cells]
    if missing:
        raise GradingError(
            f"{folder}: no {' and no '.join(missing)}: a season folder holds players.csv and "
            "results.csv (and settings.csv, else the default settings are used)"
        )
    _refuse_missing_columns(folder, cells)
    inputs = read_inputs(cells)
    inputs.refuse_stopped({sheet: str(folder / FILES[sheet]) for sheet in cells})
    notes = _notes(folder, cells, inputs)
    season: SeasonResult = grade_inputs(inputs)
    kind = "rapid" if args.rapid else "standard"
    if args.card:
        player = season.player_index(args.card)
        if season.rated:
            print(render_rating_card(season.rating_card(player, kind)), end="")
        else:
            print(render_card(season.card(player, kind)), end="")
    elif args.exceptions:
        print(format_table(season.exceptions_table(), ("Sheet", "Row", "What", "Why")), end="")
    else:
        name = season.settings.season_name
        which = "Rapidplay" if args.rapid else "Grading"
        if season.rated:
            which = f"{'Rapidplay' if args.rapid else 'Standard'} rating"
        print(f"{which} list{f' {name}' if name else ''}")
        table = season.list_table(kind)
        print(format_table(table, RATING_COLUMNS if season.rated else LIST_COLUMNS), end="")
        graded = season.standard if kind == STANDARD else season.rapid
        if not table.rows and graded.rows.size and not season.rated:
            print(
                f"(no player has enough of the {graded.rows.size} graded games for a category "
                "the list publishes; set 'List category *' to list them)"
            )
        print(season.accounting.summary())
        notes += _cell_notes(inputs)
    for line in notes:
        print(line)
    return 0


def _refuse_missing_columns(folder: Path, cells: dict[str, list[list[str]]]) -> None:
    """Raise, naming the file and quoting its header, when a file lacks a column every row
    needs: nothing in it could be read."""
    from xlgrade.formats.encoding import read_streamed
    from xlgrade.formats.tables import REQUIRED_HEADERS
    from xlgrade.workbook.layout import header_key

    lacking = []
    for sheet, rows in cells.items():
        keys = {header_key(cell) for cell in _header(rows)}
        absent = [h for h in REQUIRED_HEADERS[sheet] if header_key(h) not in keys]
        if absent:
            file = folder / FILES[sheet]
            header = read_streamed(file, _first_text_line)
            lacking.append(
                f"{file}: no column headed "
                + " or ".join(repr(h) for h in absent)
                + f" (the header row is {header!r})"
            )
    if lacking:
        raise GradingError("; ".join(lacking))


def _first_text_line(lines: Iterator[str]) -> str:
    """The first line that is not blank, its line end and a byte-order mark left out."""
    found = next((line for line in lines if line.strip()), "")
    return found.removeprefix("\ufeff").rstrip("\r\n")


def _header(rows: list[list[str]]) -> list[str]:
    return next((row for row in rows if any(c.strip() for c in row)), [])


def _notes(folder: Path, cells: dict[str, list[list[str]]], inputs: Inputs) -> list[str]:
    """The note that the default settings are used, in the season of the games, if
    settings.csv is missing (its "missing sheet" problem then taken out of ``inputs``: no
    result row is at fault)."""
    if "Settings" in cells:
        return []
    inputs.problems = [p for p in inputs.problems if p.what != "missing sheet"]
    return [
        f"note: {folder / SETTINGS_FILE} not found: default settings used, {inputs.season_words}"
    ]


def _cell_notes(inputs: Inputs) -> list[str]:
    """The cells of players.csv and settings.csv that could not be read, pointing to
    ``--exceptions``. (The Results rows the reader could not read are counted in the summary
    line.)"""
    header = "{cells} of {places} could not be read (--exceptions lists them all):"
    return unread_notes(inputs.problems, FILES, header)
