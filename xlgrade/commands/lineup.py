"""``xlgrade lineup BOOK|FOLDER``: a captain's check before the match. Given a proposed
line-up for a team on a date, say whether it keeps its division's rules, and if not which
board breaks which rule, by the same rules and in the same words as ``xlgrade eligibility``
(:func:`xlgrade.teams.lineup_breaches`): the line-up is checked as a match of the season,
played on its day after the games so far.

The line-up is given as arguments (``--division``, ``--team``, ``--date`` and ``--players``
in board order, by ECF code or name), or as a file (``--file lineup.csv``: columns ``Player`` and,
if wished, ``Board``, ``Division``, ``Team``, ``Date``), or else it is the book's ``Line-up``
sheet (a folder's ``lineup.csv``). The exit code is 0 for a line-up that keeps every rule,
3 for one that breaks a rule, 1 when the input cannot be read.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Final

from xlgrade.errors import GradingError

__all__ = ["BREAKS", "register", "run"]

BREAKS: Final = 3
"""The exit code of a line-up that breaks a rule."""


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``lineup`` command."""
    parser = subparsers.add_parser(
        "lineup",
        help="a captain's check: does a proposed line-up keep its division's rules?",
        description=(
            "Check a proposed line-up for a team on a date against its division's rules on "
            "the Divisions sheet of BOOK or FOLDER, as a match of the season after the games "
            "so far: board order, limits and totals, playing down, one team, registrations, "
            "reserve places, non-members' games. Each breach is printed with its board, "
            "player, rule and why, as xlgrade eligibility prints it. The players are given "
            "in board order by ECF code or name, or in a file (--file), or the book's "
            "Line-up sheet (a folder's lineup.csv) is read. Exit code 0: the line-up keeps "
            "every rule; 3: it breaks one; 1: the input cannot be read."
        ),
        epilog=(
            'Example: xlgrade lineup league.xlsm --division "Division 1" --team "Redmire A" '
            '--date 2026-01-20 --players "Ash, Ann" 222222L "Graham, Amelia"'
        ),
    )
    parser.add_argument("source", metavar="BOOK|FOLDER", help="a league workbook or CSV folder")
    parser.add_argument(
        "--players",
        metavar="PLAYER",
        nargs="+",
        default=[],
        help="the players in board order, by ECF code or name (a name as on Players)",
    )
    parser.add_argument("--division", help="the division, as the Divisions sheet names it")
    parser.add_argument("--team", help="the team, as a match names it (Redmire A)")
    parser.add_argument("--date", help="the match's date (2026-01-20, 20/1/2026)")
    parser.add_argument(
        "--file",
        metavar="LINEUP.csv",
        type=Path,
        help="the line-up as a CSV file: Player (and Board, Division, Team, Date) columns",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check the line-up and print the verdict; 0 when it keeps every rule, :data:`BREAKS`
    when it breaks one.

    Raises:
        GradingError: the league or the line-up cannot be read, or it names a division,
            team or player the league does not have.
    """
    from xlgrade import cells
    from xlgrade.commands import open_printing_notes
    from xlgrade.commands.season import format_table
    from xlgrade.season import Table
    from xlgrade.teams import LineUp, lineup_breaches
    from xlgrade.workbook.read import grade_inputs

    league = open_printing_notes(Path(args.source), "xlgrade lineup")
    inputs = league.inputs
    try:
        day = cells.date(args.date) if args.date else None
    except GradingError as error:
        raise GradingError(f"--date: {error}") from None
    lineup: LineUp
    if args.players:
        missing = [f"--{n}" for n in ("division", "team", "date") if not getattr(args, n)]
        if missing:
            raise GradingError(f"give {', '.join(missing)} with the players")
        assert day is not None
        lineup = LineUp(
            args.division,
            args.team,
            day,
            tuple(enumerate(args.players, start=1)),
        )
    else:
        lineup = _read_lineup(args, league, day)
    breaches = lineup_breaches(
        grade_inputs(inputs), inputs.divisions, lineup, inputs.rating_history
    )
    what = f"{' '.join(lineup.team.split())} on {lineup.date.isoformat()} in {lineup.division}"
    if not breaches:
        print(f"The line-up of {what} keeps every rule of its division.")
        return 0
    headers = ("Board", "Player", "Rule", "Why")
    rows: list[tuple[object, ...]] = [
        ("" if b.board is None else b.board, b.player, b.rule, b.why) for b in breaches
    ]
    print(f"The line-up of {what} breaks {len(breaches)} rule{'s' if len(breaches) != 1 else ''}:")
    print(format_table(Table(headers, rows), headers), end="")
    return BREAKS


def _read_lineup(args: argparse.Namespace, league: Any, day: Any) -> Any:
    """The line-up of ``--file``, else of the book's Line-up sheet or the folder's
    ``lineup.csv``."""
    import csv
    import io

    from xlgrade.formats.detect import decode
    from xlgrade.formats.lineup import LINEUP_SHEET, read_lineup
    from xlgrade.workbook.package import read_sheets

    given = {"division": args.division, "team": args.team, "date": day}
    if args.file is not None:
        path: Path = args.file
        text = decode(path.read_bytes())
        return read_lineup(list(csv.reader(io.StringIO(text))), str(path), **given)
    if league.book:
        rows = read_sheets(league.path, [LINEUP_SHEET]).get(LINEUP_SHEET)
        if rows is None:
            raise GradingError(
                f"{league.path}: no players given and no sheet named {LINEUP_SHEET!r}: give the "
                "players, --file, or a Line-up sheet (Division, Team, Date, Board, Player)"
            )
        return read_lineup(rows, f"{league.path} sheet {LINEUP_SHEET}", **given)
    path = league.path / "lineup.csv"
    if not path.is_file():
        raise GradingError(
            f"{league.path}: no players given and no lineup.csv: give the players, --file, "
            "or a lineup.csv (Division, Team, Date, Board, Player)"
        )
    text = decode(path.read_bytes())
    return read_lineup(list(csv.reader(io.StringIO(text))), str(path), **given)
