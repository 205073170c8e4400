"""``xlgrade import FILE --into TARGET``: read a TRF, an ECF results submission file or a
players/results CSV and add its players and games to a league book's tables.

TARGET is a folder of CSV files (``players.csv``, ``results.csv``, ``problems.csv``; see
:mod:`xlgrade.formats.folder`), made if missing. Writing straight into a workbook waits for
the workbook's row-replacing writer; until then a ``.xlsm``/``.xlsx`` TARGET is refused with
that reason. Players already in the target are matched by ECF code and name
(:mod:`xlgrade.formats.names`) and not added twice; every match by initials and every likely
duplicate is printed for the grader to confirm.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path
from typing import Any

from xlgrade.errors import GradingError
from xlgrade.formats.detect import decode, read_any
from xlgrade.formats.folder import read_folder, write_folder
from xlgrade.formats.names import likely_duplicates, match_players
from xlgrade.model import Game

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``import`` subcommand."""
    parser = subparsers.add_parser(
        "import",
        help="add a TRF, ECF results file or CSV to a league book",
        description=(
            "Read FILE — a FIDE tournament report (TRF), an ECF results submission file or a "
            "players/results CSV, told apart by content — and add its players and games to "
            "TARGET. Byes, forfeits and other rounds that are not graded are kept with the "
            "reason in problems.csv."
        ),
        epilog="Example: xlgrade import san_viator_2018.trf --into league/",
    )
    parser.add_argument("file", metavar="FILE", type=Path, help="the file to read")
    parser.add_argument(
        "--into",
        metavar="TARGET",
        type=Path,
        required=True,
        help="a folder holding players.csv, results.csv and problems.csv (made if missing)",
    )
    parser.add_argument(
        "--grades-from-fide",
        action="store_true",
        help="TRF only: give each rated player an estimated ECF grade from his FIDE rating",
    )
    parser.add_argument(
        "--time-control",
        metavar="TC",
        help="TRF only: the time control of its games (default: the file's line 122)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Import, print what was added and what needs the grader; 0 on success."""
    source: Path = args.file
    target: Path = args.into
    if target.suffix.lower() in (".xlsm", ".xlsx"):
        raise GradingError(
            f"{target}: importing into a workbook is not available yet; give a folder, and "
            "players.csv, results.csv and problems.csv are written there"
        )
    convert = None
    if args.grades_from_fide:
        from xlgrade.convert import elo_to_ecf

        def convert(rating: int) -> float:
            return float(elo_to_ecf(rating))

    try:
        imported = read_any(
            decode(source.read_bytes()),
            source.name,
            grade_from_rating=convert,
            time_control=args.time_control,
        )
    except GradingError as error:
        raise type(error)(f"{source.name}: {error}") from None
    book = read_folder(target)
    matches = match_players(book.players, imported.players)
    players = list(book.players)
    rename: dict[str, str] = {}
    for match in matches:
        if match.known is None:
            players.append(match.incoming)
            continue
        rename[match.incoming.name] = match.known.name
        if match.incoming.code:
            rename[match.incoming.code] = match.known.code or match.known.name
    games = list(book.games) + [_renamed(game, rename) for game in imported.games]
    write_folder(target, players, games, list(book.problems) + list(imported.problems))
    added = sum(1 for m in matches if m.known is None)
    print(f"{source.name} ({imported.kind}): {imported.accounting}")
    print(
        f"{target}: {added} players added, {len(matches) - added} already there; "
        f"{len(imported.games)} games and {len(imported.problems)} problems added"
    )
    for match in matches:
        if match.how == "initials" and match.known is not None:
            print(f"check: {match.incoming.name!r} taken to be {match.known.name!r} (initials)")
        elif match.note:
            print(f"check: {match.incoming.name!r}: {match.note}")
    for duplicate in likely_duplicates(players):
        print(
            f"check: {duplicate.first.name!r} and {duplicate.second.name!r} may be one player "
            f"({duplicate.why})"
        )
    return 0


def _renamed(game: Game, rename: dict[str, str]) -> Game:
    """The game naming matched players as the target already names them."""
    return replace(
        game, home=rename.get(game.home, game.home), away=rename.get(game.away, game.away)
    )
