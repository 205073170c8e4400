"""``xlgrade import FILE --into TARGET``: read a TRF, an ECF results submission file or a
players/results CSV (told apart by content) and add its players and games to a league book.

TARGET is either a league workbook (``.xlsm``/``.xlsx``) or a folder of CSV files.

Into a workbook: the book's Players and Results are read; new players are added as Players
rows and every game as a Results row, with the live formulas of the template
(:mod:`xlgrade.workbook.inputs`); the book is then recalculated
(:func:`xlgrade.workbook.recalc.recalculate_book`), so its Grading List and Exceptions show
each imported game graded or excepted with the reason (a forfeit is a game with a default
result, excepted as a default). Round entries that are not games (byes, absences, pairings the
two sides disagree on) and the file's own faults are listed on the book's **Import notes**
sheet (file, line, what, why), added after the earlier imports' notes. Everything is written to
a temporary file that replaces the book only when all has worked (or goes to ``--out``).

Into a folder: the new players are added to ``players.csv``, the games to ``results.csv`` and
the entries not graded to ``problems.csv``, after the rows already there, which are kept as
they are, under the files' own headers (see :mod:`xlgrade.formats.folder`); a missing file is
made with the template workbook's headers, which ``xlgrade season`` reads.

Either way, players already there are matched by ECF code and name
(:mod:`xlgrade.formats.names`) and not added twice; every match by initials and every likely
duplicate is printed for the grader to confirm, never merged silently. Importing a file twice
adds its games twice; the season then excepts the second copies as duplicates.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Final

from xlgrade.errors import FormatError, GradingError
from xlgrade.formats.detect import Imported, decode, read_any
from xlgrade.formats.files import locked
from xlgrade.formats.folder import SETTINGS_FILE, add_to_folder, read_folder_cells, write_settings
from xlgrade.formats.names import Match, likely_duplicates, match_players
from xlgrade.model import Game, Player, Problem, Settings

__all__ = ["IMPORT_NOTES", "IMPORT_NOTES_HEADERS", "register", "run"]

IMPORT_NOTES: Final = "Import notes"
"""The workbook sheet listing the imported round entries that are not games."""
IMPORT_NOTES_HEADERS: Final = ("File", "Line", "What", "Why")
"""Its columns: the imported file, the line of the entry, what it is and why not graded."""
_BOOKS: Final = (".xlsm", ".xlsx")


def register(subparsers: Any) -> None:
    """Add the ``import`` subcommand."""
    parser = subparsers.add_parser(
        "import",
        help="add a TRF, ECF results file or CSV to a league workbook or CSV folder",
        description=(
            "Read FILE — a FIDE tournament report (TRF), an ECF results submission file or a "
            "players/results CSV, told apart by content — and add its players and games to "
            "TARGET. Into a workbook (.xlsm, .xlsx): new players go to Players, the games to "
            "Results, and the book is recalculated so that Grading List and Exceptions show "
            "each game graded or excepted with the reason; byes and other round entries that "
            "are not games are listed on the book's 'Import notes' sheet. Into a folder: "
            "players.csv and results.csv, and those entries in problems.csv. Players already "
            "there are matched by ECF code and name; possible duplicates are printed, never "
            "merged."
        ),
        epilog=(
            "Example: xlgrade import tests/data/trf/san_viator_2018.trf --into league.xlsm\n"
            "(run in the source checkout, which bundles that report in tests/data/trf)"
        ),
    )
    parser.add_argument("file", metavar="FILE", type=Path, help="the file to read")
    parser.add_argument(
        "--into",
        metavar="TARGET",
        type=Path,
        required=True,
        help=(
            "a league workbook (.xlsm, .xlsx), or a folder holding players.csv, results.csv "
            "and problems.csv (made if missing)"
        ),
    )
    parser.add_argument(
        "--out",
        metavar="BOOK",
        type=Path,
        help="workbook TARGET only: write the result here and leave TARGET as it is",
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
    book = target.suffix.lower() in _BOOKS
    if args.out is not None and not book:
        raise GradingError(f"--out is for a workbook TARGET (.xlsm, .xlsx), not {target}")
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
    if book:
        _into_book(
            source, imported, target, args.out, imported.kind == "TRF" and not args.grades_from_fide
        )
        return 0
    # The folder is locked from the reading to the writing: two imports at once both land.
    with locked(target, folder=True):
        known, earlier = _folder_contents(target)
        players, games, matches = _merged(known, imported)
        added = players[len(known) :]
        new_season = _season_of(games) if not (target / SETTINGS_FILE).exists() else None
        try:
            add_to_folder(target, added, games, imported.problems)
        except FormatError as error:
            raise FormatError(f"{target}: {error}") from None
        print(f"{source.name} ({imported.kind}): {imported.accounting}")
        print(
            f"{target}: {len(added)} players added, {len(matches) - len(added)} already there; "
            f"{len(imported.games)} games and {len(imported.problems)} problems added"
        )
        if new_season is not None:
            write_settings(target, new_season)
            print(
                f"{target / SETTINGS_FILE}: written for the {new_season.season_name} season "
                f"({new_season.season_start} to {new_season.season_end}), the one the imported "
                "games start in; the other settings are the defaults"
            )
    _warn_if_repeated(earlier, games, target)
    _note_ungraded(added, imported.kind == "TRF" and not args.grades_from_fide)
    _report_matches(matches, players, added)
    return 0


def _season_of(games: Sequence[Game]) -> Settings | None:
    """Default settings for the grading season (1 June to 31 May) in which the earliest dated
    game was played; ``None`` when no game has a date."""
    days = [g.date for g in games if isinstance(g.date, dt.date)]
    if not days:
        return None
    first = min(days)
    year = first.year if first.month >= 6 else first.year - 1
    return Settings(
        season_name=f"{year}-{(year + 1) % 100:02d}",
        season_start=dt.date(year, 6, 1),
        season_end=dt.date(year + 1, 5, 31),
    )


def _folder_contents(folder: Path) -> tuple[list[Player], list[Game]]:
    """The players and games already in the folder's ``players.csv`` and ``results.csv``, read
    as ``xlgrade season`` reads them (a row that cannot be read is left out of the matching,
    not an error: it stays in the file as it is); none for a new folder.

    Raises:
        GradingError: ``folder`` is a file, not a folder.
    """
    if not folder.exists():
        return [], []
    if not folder.is_dir():
        raise GradingError(f"{folder}: not a folder, nor a workbook (.xlsm, .xlsx)")
    from xlgrade.workbook.read import read_inputs

    cells = read_folder_cells(folder)
    read = read_inputs({k: v for k, v in cells.items() if k in ("Players", "Results")})
    return list(read.players), list(read.games)


def _merged(
    known: Sequence[Player], imported: Imported
) -> tuple[list[Player], list[Game], tuple[Match, ...]]:
    """The known players with the new ones after them, the imported games naming matched
    players as the target names them, and the matches."""
    matches = match_players(known, imported.players)
    players = list(known)
    rename: dict[str, str] = {}
    for match in matches:
        if match.known is None:
            players.append(match.incoming)
            continue
        rename[match.incoming.name] = match.known.code or match.known.name
        if match.incoming.code:
            rename[match.incoming.code] = match.known.code or match.known.name
    return players, [_renamed(game, rename) for game in imported.games], matches


def _report_matches(
    matches: Sequence[Match], players: Sequence[Player], added: Sequence[Player]
) -> None:
    """Print how players were matched where the grader should look, and the likely duplicates
    that involve a player this import added (those among the earlier players are the
    Exceptions sheet's business)."""
    for match in matches:
        if match.how == "initials" and match.known is not None:
            print(f"check: {match.incoming.name!r} taken to be {match.known.name!r} (initials)")
        elif match.note:
            print(f"check: {match.incoming.name!r}: {match.note}")
    new = {id(p) for p in added}
    for duplicate in likely_duplicates(players):
        if id(duplicate.first) in new or id(duplicate.second) in new:
            print(
                f"check: {duplicate.first.name!r} and {duplicate.second.name!r} may be one "
                f"player ({duplicate.why})"
            )


def _note_ungraded(added: Sequence[Player], fide_hint: bool) -> None:
    """Say so when none of the players an import added has a grade or an estimate: until the
    grader gives them one, their games have no anchor. ``fide_hint``: point to
    ``--grades-from-fide`` (a FIDE report read without it)."""
    if added and all(p.grade is None and p.estimated_grade is None for p in added):
        hint = " (--grades-from-fide turns FIDE ratings into estimates)" if fide_hint else ""
        print(
            f"note: none of the {len(added)} players added has a grade or an estimate; type "
            f"them on Players{hint}, or their games cannot be graded"
        )


def _already_there(earlier: Sequence[Game], games: Sequence[Game]) -> int:
    """How many of ``games`` have the same two players as a game already there on the same
    date, or, undated, in the same event and round (a file imported twice doubles every
    game)."""

    def key(game: Game) -> tuple[object, ...]:
        players = frozenset((game.home.strip().casefold(), game.away.strip().casefold()))
        when = game.date if game.date is not None else (game.event, game.match)
        return when, players

    seen = {key(g) for g in earlier}
    return sum(1 for g in games if key(g) in seen)


def _warn_if_repeated(earlier: Sequence[Game], games: Sequence[Game], target: Path) -> None:
    repeated = _already_there(earlier, games)
    if repeated:
        print(
            f"check: {repeated} of the {len(games)} games imported have the same players and "
            f"date (or event and round) as a game already in {target}: was this file imported "
            "before?"
        )


def _player_row(player: Player) -> dict[str, object]:
    """A Players row, by header."""
    return {
        "Code": player.code,
        "Name": player.name,
        "Club": player.club or None,
        "Date of birth": player.date_of_birth,
        "Junior": "yes" if player.junior else None,
        "Grade": player.grade,
        "Estimated grade": player.estimated_grade,
        "Previous games": player.previous.games if player.previous else None,
        "Previous points": player.previous.points if player.previous else None,
        "Earlier games": player.earlier.games if player.earlier else None,
        "Earlier points": player.earlier.points if player.earlier else None,
        "Lapsed grade": player.lapsed_grade,
    }


def _game_row(game: Game) -> dict[str, object]:
    """A Results row, by header."""
    return {
        "Date": game.date,
        "Division": game.event or None,
        "Match": game.match or None,
        "Board": game.board,
        "Home player": game.home,
        "Result": game.result,
        "Away player": game.away,
        "Time control": game.time_control or None,
    }


def _whole(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _notes_rows(package: bytes, problems: Sequence[Problem]) -> list[tuple[object, ...]]:
    """The Import notes sheet's rows: those already there, then ``problems``."""
    from xlgrade.workbook.package import read_sheets

    old = read_sheets(package, [IMPORT_NOTES]).get(IMPORT_NOTES, [])
    rows = [tuple(_whole(v) for v in row) for row in old[1:] if any(v is not None for v in row)]
    return rows + [(p.sheet, p.row, p.what, p.why) for p in problems]


def _into_book(
    source: Path, imported: Imported, book: Path, out: Path | None, fide_hint: bool = False
) -> None:
    """Add the imported players and games to the workbook, recalculate it and report."""
    from xlgrade.formats.files import new_temporary
    from xlgrade.season import Table
    from xlgrade.workbook import layout
    from xlgrade.workbook.inputs import InputRows, book_sheets, input_rows_package
    from xlgrade.workbook.package import read_sheets, write_package, write_sheets
    from xlgrade.workbook.read import read_inputs
    from xlgrade.workbook.recalc import recalculate_book

    target = out if out is not None else book
    # Locked from the reading to the writing, so that two imports at once both land; the
    # book's path is resolved once (and checked before any work: read-only, open in Excel).
    with locked(target) as written:
        data = Path(written if out is None else book).read_bytes()
        try:
            book_sheets(data)
            try:
                raw = read_sheets(data, layout.INPUT_SHEETS)
            except Exception as error:  # the reader's own error types
                raise FormatError(f"the book cannot be read: {error}") from None
            inputs = read_inputs(raw)
            players, games, matches = _merged(inputs.players, imported)
            added = players[len(inputs.players) :]
            package, first = input_rows_package(
                data,
                {
                    layout.PLAYERS: InputRows([_player_row(p) for p in added]),
                    layout.RESULTS: InputRows([_game_row(g) for g in games]),
                },
            )
        except FormatError as error:
            raise FormatError(f"{book}: {error}") from None
        handle, temporary = new_temporary(written)
        os.close(handle)
        try:
            if imported.problems:
                notes = Table(IMPORT_NOTES_HEADERS, _notes_rows(package, imported.problems))
                write_sheets(temporary, {IMPORT_NOTES: notes}, data=package)
            else:
                write_package(package, temporary)
            summary = recalculate_book(temporary)
            exceptions = read_sheets(temporary, [layout.EXCEPTIONS])[layout.EXCEPTIONS]
            # Written as any book is: its permissions kept.
            write_package(Path(temporary).read_bytes(), written)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
    rows = range(first[layout.RESULTS], first[layout.RESULTS] + len(games))
    excepted: dict[int, str] = {}
    for row in exceptions[1:]:
        number = row[1] if len(row) > 1 else None
        if row[0] == layout.RESULTS and isinstance(number, int | float) and number in rows:
            excepted.setdefault(int(number), str(row[2]))
    reasons = Counter(excepted.values())
    print(f"{source.name} ({imported.kind}): {imported.accounting}")
    print(
        f"{book}: {len(added)} players added, {len(matches) - len(added)} already there; "
        + (
            f"{len(games)} games added on Results rows {rows[0]} to {rows[-1]}"
            if games
            else "no games added"
        )
    )
    if imported.problems:
        kinds = Counter(p.what for p in imported.problems)
        print(
            f"{len(imported.problems)} entries not games, listed on the {IMPORT_NOTES} sheet: "
            + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common())
        )
    print(
        f"Recalculated: {summary.players} players, {summary.games} games, {summary.graded} "
        f"graded, {summary.exceptions} exceptions"
    )
    print(summary.accounting)
    if games:
        print(
            f"Imported games: {len(games) - len(excepted)} graded, {len(excepted)} on "
            "Exceptions"
            + (
                " (" + ", ".join(f"{what} {count}" for what, count in reasons.most_common()) + ")"
                if reasons
                else ""
            )
        )
    dated = sorted(g.date for g in games if g.date is not None)
    if reasons["date outside season"] and dated:
        settings = inputs.settings
        print(
            f"check: the games are dated {dated[0]} to {dated[-1]}, the season on Settings "
            f"runs {settings.season_start} to {settings.season_end}"
        )
    _warn_if_repeated(inputs.games, games, target)
    _note_ungraded(added, fide_hint)
    _report_matches(matches, players, added)
    print(f"Wrote {target}")


def _renamed(game: Game, rename: dict[str, str]) -> Game:
    """The game naming matched players as the target already names them."""
    return replace(
        game, home=rename.get(game.home, game.home), away=rename.get(game.away, game.away)
    )
