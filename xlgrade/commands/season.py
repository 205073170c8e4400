"""``xlgrade season FOLDER|BOOK``: grade a league kept as CSV files (or a league workbook,
which is read and left as it is) and print its grading list, a player's card, or its
exceptions. ``xlgrade season LEAGUE LEAGUE …`` (or a union's folder, with its
``leagues.csv``) grades several leagues as one season (:mod:`xlgrade.season.union`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from xlgrade.commands import open_printing_notes, unread_notes
from xlgrade.errors import GradingError
from xlgrade.formats import DIVISIONS_FILE, PLAYERS_FILE, RESULTS_FILE, SETTINGS_FILE

if TYPE_CHECKING:
    from xlgrade.season import SeasonResult, Table
    from xlgrade.season.reconcile import ListedPlayer
    from xlgrade.season.union import UnionSeason
    from xlgrade.workbook.read import Inputs
    from xlgrade.workbook.union import Published

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
            "card. Several leagues (or a union's folder: leagues.csv names each league's "
            "League, Source and County, identities.csv keeps the grader's decisions) are "
            "graded as one season: a player is the same in two leagues by his ECF code, else "
            "by name, club and date of birth (docs/rules.md §14); a player that rule cannot "
            "decide is listed (--undecided) and his games held back until the grader decides."
        ),
        epilog="Example: xlgrade season examples/league --card 'Jarvis, Robert'",
    )
    parser.add_argument(
        "folder",
        metavar="FOLDER|BOOK",
        nargs="+",
        help=(
            "folder with settings.csv, players.csv, results.csv; or a league workbook. "
            "Several (each PATH or NAME=PATH; an ECF results file or a TRF too), or a union's "
            "folder with leagues.csv: graded as one season"
        ),
    )
    shown = parser.add_mutually_exclusive_group()
    shown.add_argument("--card", metavar="PLAYER", help="print this player's card (code or name)")
    shown.add_argument(
        "--exceptions", action="store_true", help="print every row not graded, with the reason"
    )
    shown.add_argument(
        "--joins",
        action="store_true",
        help="a union: print every player joined across leagues, and why",
    )
    shown.add_argument(
        "--undecided",
        action="store_true",
        help="a union: print every player the rule cannot decide, with the rows held back",
    )
    parser.add_argument("--rapid", action="store_true", help="the rapidplay list (or card) instead")
    union = parser.add_argument_group("a union of leagues")
    union.add_argument(
        "--decisions",
        metavar="FILE",
        help=f"the grader's decisions ({', '.join(IDENTITY_COLUMNS)}); a union folder's "
        "identities.csv is read without it",
    )
    union.add_argument(
        "--ecf-list",
        metavar="LIST",
        help="the ECF's rating list (CSV): a player without a code takes the code of the one list "
        "player of his name and club; a code whose list name is not the league's is "
        "held back until decided",
    )
    union.add_argument(
        "--list",
        metavar="SCOPE[:NAME]",
        action="append",
        dest="lists",
        help="a list to publish: union, county:NAME, league:NAME or club:NAME (repeat for "
        "several; the first is printed)",
    )
    union.add_argument(
        "--categories",
        metavar="A,B,…",
        help="publish only these categories (A to F, *)",
    )
    union.add_argument("--csv", metavar="FOLDER", type=Path, help="write the lists as CSV files")
    union.add_argument("--book", metavar="FILE.xlsx", type=Path, help="write the union's book")
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


IDENTITY_COLUMNS: Final = ("League", "Player", "Other league", "Other player", "Decision")
"""The columns of the decisions' file (:data:`xlgrade.season.union.IDENTITY_HEADERS`)."""

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
    from xlgrade.workbook.union import is_union_book, is_union_folder

    paths: list[str] = args.folder
    if len(paths) > 1 or is_union_folder(paths[0]) or is_union_book(paths[0]):
        return _run_union(args, paths)
    _refuse_union_options(args)
    league = open_printing_notes(Path(paths[0]), "xlgrade season")
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


_UNION_OPTIONS: Final = ("joins", "undecided", "decisions", "ecf_list", "lists", "categories",
                         "csv", "book")  # fmt: skip


def _refuse_union_options(args: argparse.Namespace) -> None:
    given = [name for name in _UNION_OPTIONS if getattr(args, name)]
    if given:
        shown = ", ".join("--" + name.replace("_", "-") for name in given)
        raise GradingError(
            f"{shown}: for a union of leagues (several leagues, or a folder with leagues.csv)"
        )


def _published(args: argparse.Namespace) -> list[Published]:
    """The lists asked for (``--list``, ``--categories``): the union's when none."""
    from xlgrade.season.union import SCOPES
    from xlgrade.workbook.union import Published

    categories = tuple(c.strip() for c in (args.categories or "").split(",") if c.strip())
    for category in categories:
        if category.upper() not in {"A", "B", "C", "D", "E", "F", "*"}:
            raise GradingError(f"--categories: {category!r} is not a category (A to F, or *)")
    out = []
    for text in args.lists or ["union"]:
        scope, _, name = text.partition(":")
        scope = scope.strip().casefold()
        if scope not in SCOPES:
            raise GradingError(
                f"--list {text!r}: the scope is one of {', '.join(SCOPES)} (county:NAME, "
                "league:NAME, club:NAME)"
            )
        if scope != "union" and not name.strip():
            raise GradingError(f"--list {text!r}: name the {scope} ({scope}:NAME)")
        out.append(Published(scope, name.strip(), categories))
    return out


def _run_union(args: argparse.Namespace, paths: list[str]) -> int:
    """Grade the leagues as one season; print, and write what was asked for."""
    from xlgrade.card import render_card
    from xlgrade.formats.files import write_together, write_whole
    from xlgrade.season.rating_card import render_rating_card
    from xlgrade.season.union import grade_union
    from xlgrade.workbook.union import (
        is_union_book,
        open_union,
        read_union_book,
        relative_source,
        union_book,
        union_csv_files,
    )

    published = _published(args)
    if is_union_book(paths[0]) and len(paths) == 1:
        opened, in_book = read_union_book(Path(paths[0]), "xlgrade season")
        published = published if args.lists or args.categories else in_book
        if args.decisions:
            opened.decisions.extend(open_union([], decisions=args.decisions).decisions)
    else:
        opened = open_union(paths, decisions=args.decisions, command="xlgrade season")
    for note in opened.notes:
        print(note if note.startswith("note:") else f"note: {note}")
    union: UnionSeason = grade_union(
        opened.leagues, opened.decisions, opened.settings, _listed(args.ecf_list)
    )
    season = union.result
    kind = "rapid" if args.rapid else "standard"
    if args.card:
        player = season.player_index(args.card)
        leagues = ", ".join(union.leagues_of(player))
        if season.rated:
            print(render_rating_card(season.rating_card(player, kind)), end="")
        else:
            print(render_card(season.card(player, kind)), end="")
        print(f"Leagues: {leagues}")
    elif args.exceptions:
        print(format_table(season.exceptions_table(), ("Sheet", "Row", "What", "Why")), end="")
    elif args.joins:
        print(format_table(union.joins_table(), union.joins_table().headers), end="")
    elif args.undecided:
        table = union.undecided_table()
        print(format_table(table, table.headers) if table.rows else "Nobody is undecided.\n",
              end="")  # fmt: skip
    else:
        first = published[0]
        name = season.settings.season_name
        which = ("Rapidplay" if args.rapid else "Grading") + " list"
        if season.rated:
            which = f"{'Rapidplay' if args.rapid else 'Standard'} rating list"
        leagues = ", ".join(lg.name for lg in union.leagues)
        table = union.list_table(kind, first.scope, first.name, first.categories)
        print(f"{which}{f' {name}' if name else ''}, {first.title} ({leagues})")
        columns = RATING_COLUMNS if season.rated else LIST_COLUMNS
        print(format_table(table, (*columns, "Leagues")), end="")
        print(season.accounting.summary())
        print(
            f"{len(union.joins)} players joined across leagues (--joins), "
            f"{len(union.undecided)} not decided (--undecided)"
        )
    if args.csv is not None:
        files = union_csv_files(union, published, args.csv)
        args.csv.mkdir(parents=True, exist_ok=True)
        write_together(files)
        print(f"Wrote {len(files)} CSV files to {args.csv}")
    if args.book is not None:
        if args.book.suffix.lower() != ".xlsx":
            raise GradingError(f"--book {str(args.book)!r}: the union's book is an .xlsx file")
        folder = args.book.resolve().parent
        sources = {name: relative_source(where, folder) for name, where in opened.sources.items()}
        content = union_book(union, published, sources, opened.decisions)
        write_whole(content, args.book)
        print(f"Wrote {args.book}")
    return 0


def _listed(path: str | None) -> list[ListedPlayer] | None:
    """The ECF list's players, or ``None`` when no list is given."""
    if path is None:
        return None
    from xlgrade.formats.detect import read_file
    from xlgrade.formats.ratinglist import listed_players, looks_like_rating_list, read_rating_list

    text = read_file(path)
    if not looks_like_rating_list(text):
        raise GradingError(
            f"--ecf-list {path}: not an ECF rating list (its header has no ECF_code, full_name "
            "and rating columns such as original_standard)"
        )
    return listed_players(read_rating_list(text, path))
