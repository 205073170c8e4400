"""``xlgrade season FOLDER|BOOK``: grade a league kept as CSV files (or a league workbook,
which is read and left as it is) and print its grading list, a player's card, or its
exceptions."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from xlgrade.commands import open_printing_notes, unread_notes
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
            "columns of the template workbook's sheets), or in a league workbook BOOK without "
            "writing to it, and print the grading list. Every "
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
        "folder",
        metavar="FOLDER|BOOK",
        help="folder with settings.csv, players.csv, results.csv; or a league workbook",
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


def run(args: argparse.Namespace) -> int:
    """Read the folder, grade it, print; 0 on success.

    Raises:
        GradingError: FOLDER is a file, the folder lacks players.csv or results.csv, or a
            file lacks a column that every row needs; nothing is graded then.
    """
    from xlgrade.card import render_card
    from xlgrade.season import STANDARD
    from xlgrade.season.rating_card import render_rating_card
    from xlgrade.workbook.read import grade_inputs

    league = open_printing_notes(Path(args.folder), "xlgrade season")
    inputs, notes = league.inputs, list(league.notes)
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
        notes += _cell_notes(inputs, {s: s for s in FILES} if league.book else FILES)
    for line in notes:
        print(line)
    return 0


def _cell_notes(inputs: Inputs, place: dict[str, str]) -> list[str]:
    """The cells of Players and Settings (players.csv and settings.csv, by ``place``) that
    could not be read, pointing to ``--exceptions``. (The Results rows the reader could not
    read are counted in the summary line.)"""
    header = "{cells} of {places} could not be read (--exceptions lists them all):"
    return unread_notes(inputs.problems, place, header)
