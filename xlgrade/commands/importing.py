"""``xlgrade import FILE --into TARGET``: read a TRF, an ECF results submission file or a
players/results CSV (told apart by content) and add its players and games to a league book or
a folder of CSV files, then print what was added and what needs the grader.

TARGET is either a league workbook (``.xlsm``/``.xlsx``),
:func:`xlgrade.workbook.importing.import_into_book`, or a folder of CSV files,
:func:`xlgrade.formats.importing.import_into_folder`. Either way, players already there are
matched by ECF code and name and not added twice; every match by initials and every likely
duplicate is printed for the grader to confirm, never merged silently. A file whose games are
already there is refused unless ``--again`` is given.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xlgrade._rounding import quote
from xlgrade.errors import GradingError

if TYPE_CHECKING:
    from xlgrade.formats.detect import Imported
    from xlgrade.formats.importing import Merged
    from xlgrade.model import Player

__all__ = ["register", "run"]


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
    parser.add_argument("--force", action="store_true", help="replace the --out book if it exists")
    parser.add_argument(
        "--again",
        action="store_true",
        help=(
            "add the games even though the same games are already there (the file was "
            "imported before)"
        ),
    )
    parser.add_argument(
        "--grades-from-fide",
        action="store_true",
        help=(
            "TRF only: give each rated player an estimated ECF grade from his FIDE rating "
            "(none below FIDE 1250, where the ECF's formula falls below 0)"
        ),
    )
    parser.add_argument(
        "--time-control",
        metavar="TC",
        help="TRF only: the time control of its games (default: the file's line 122)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Import, print what was added and what needs the grader; 0 on success."""
    from xlgrade.commands import refuse_to_replace
    from xlgrade.formats.detect import import_file
    from xlgrade.formats.importing import fide_estimate, import_into_folder
    from xlgrade.workbook.league import is_book

    source: Path = args.file
    target: Path = args.into
    book = is_book(target)
    if args.out is not None and not book:
        raise GradingError(f"--out is for a workbook TARGET (.xlsm, .xlsx), not {target}")
    if args.out is not None:  # before the file is read
        refuse_to_replace([args.out], getattr(args, "force", False))
    notes: list[str] = []
    try:
        imported = import_file(
            source,
            source.name,
            notes,
            grade_from_rating=fide_estimate if args.grades_from_fide else None,
            time_control=args.time_control,
        )
    except GradingError as error:
        raise type(error)(f"{source.name}: {error}") from None
    finally:
        for note in notes:
            print(f"note: {source.name}: {note}")
    fide_hint = imported.kind == "TRF" and not args.grades_from_fide
    if book:
        _into_book(
            source, imported, target, args.out, args.again, fide_hint, getattr(args, "force", False)
        )
        return 0
    done = import_into_folder(target, imported, again=args.again)
    merged = done.merged
    for note in done.notes:
        print(f"note: {note}")
    print(f"{source.name} ({imported.kind}): {imported.accounting}")
    print(
        f"{target}: {len(merged.added)} players added, {merged.already_known} already there; "
        f"{len(merged.games)} games and {done.problems} problems added"
    )
    if done.season is not None:
        print(
            f"{done.settings_file}: written for {done.season.note}; the other settings are the "
            "defaults"
        )
    _after(imported, merged, done.repeated, fide_hint)
    return 0


def _into_book(
    source: Path,
    imported: Imported,
    book: Path,
    out: Path | None,
    again: bool,
    fide_hint: bool,
    force: bool = False,
) -> None:
    """Import into the workbook and print what was done."""
    from xlgrade.commands import refuse_to_replace
    from xlgrade.commands.recalc import summary_lines
    from xlgrade.formats.files import locked
    from xlgrade.workbook.importing import IMPORT_NOTES, import_into_book

    if out is None:
        done = import_into_book(imported, book, out, again=again)
    else:
        with locked(out):
            refuse_to_replace([out], force)  # again: another run may have made it
            done = import_into_book(imported, book, out, again=again)
    merged, summary, rows = done.merged, done.summary, done.rows
    print(f"{source.name} ({imported.kind}): {imported.accounting}")
    print(
        f"{book}: {len(merged.added)} players added, {merged.already_known} already there; "
        + (
            f"{len(merged.games)} games added on Results rows {rows[0]} to {rows[-1]}"
            if merged.games
            else "no games added"
        )
    )
    if done.notes:
        kinds = Counter(p.what for p in done.notes)
        print(
            f"{len(done.notes)} entries not games, listed on the {IMPORT_NOTES} sheet: "
            + ", ".join(f"{kind} {count}" for kind, count in kinds.most_common())
        )
    first, second = summary_lines(summary)
    print(f"Recalculated: {first}")
    print(second)
    reasons = Counter(done.excepted.values())
    if merged.games:
        print(
            f"Imported games: {len(merged.games) - len(done.excepted)} graded, "
            f"{len(done.excepted)} on Exceptions"
            + (
                " (" + ", ".join(f"{what} {count}" for what, count in reasons.most_common()) + ")"
                if reasons
                else ""
            )
        )
    dated = sorted(g.date for g in merged.games if g.date is not None)
    if reasons["date outside season"] and dated:
        settings = done.settings
        print(
            f"check: the games are dated {dated[0]} to {dated[-1]}, the season on Settings "
            f"runs {settings.season_start} to {settings.season_end}"
        )
    _after(imported, merged, done.repeated, fide_hint)
    for note in summary.mended:
        print(note)
    print(f"Wrote {done.target}")


def _after(imported: Imported, merged: Merged, repeated: int, fide_hint: bool) -> None:
    """The lines every import ends with: games added again, players without an estimate,
    players without a grade, and the matches to check."""
    from xlgrade.ecf import MAX_GRADE
    from xlgrade.formats.importing import check_lines

    if repeated:
        print(
            f"note: {repeated} of the {len(merged.games)} games imported were already there "
            "(the same players and date, or event and round); added again as --again asks"
        )
    if imported.no_estimate:
        listed = ", ".join(f"{quote(name)} ({rating})" for name, rating in imported.no_estimate)
        print(
            f"note: {len(imported.no_estimate)} rated players have no estimated grade: the "
            f"ECF's formula puts their FIDE rating off the ECF scale (0 to {MAX_GRADE:g}; "
            f"below FIDE 1250 it gives less than 0): {listed}"
        )
    _note_ungraded(merged.added, fide_hint)
    for line in check_lines(merged):
        print(line)


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
