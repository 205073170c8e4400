"""Adding an imported file's players and games to what a league already holds: matching the
players, spotting a file imported before, and importing into a folder of CSV files.

What a file holds comes from :func:`xlgrade.formats.detect.read_any`; this module decides what
is new. Players already there are matched by ECF code and name
(:func:`xlgrade.names.match_players`) and not added twice; the imported games then name
them as the league does. A file whose games are already there (the same two players on the same
date, or, undated, in the same event and round) is refused unless the caller asks for it
again: importing a file twice would add every game twice. Importing into a workbook is
:func:`xlgrade.workbook.importing.import_into_book`, built on the same steps.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from xlgrade._rounding import quote
from xlgrade.convert import elo_to_ecf
from xlgrade.ecf import MAX_GRADE
from xlgrade.errors import FormatError, GradingError, RepeatedImportError
from xlgrade.formats.detect import Imported
from xlgrade.formats.files import locked
from xlgrade.formats.folder import SETTINGS_FILE, add_to_folder, read_folder_cells
from xlgrade.model import Game, Player
from xlgrade.names import Match, likely_duplicates, match_players
from xlgrade.settings import Season, Settings, season_of

__all__ = [
    "FolderImport",
    "Merged",
    "already_there",
    "check_lines",
    "fide_estimate",
    "import_into_folder",
    "merge",
    "refuse_repeat",
]


def fide_estimate(rating: int) -> float | None:
    """An estimated ECF grade for a FIDE rating, or ``None`` when the ECF's formula gives a
    grade off the ECF scale (0 to :data:`xlgrade.ecf.MAX_GRADE`).

    ECF summary page: "Elo ≤ 2325, ECF = (Elo - 1250) / 5; Elo > 2325, ECF = (Elo - 600) / 8"
    (:func:`xlgrade.convert.elo_to_ecf`). Below FIDE 1250 the formula gives a negative grade,
    which no list holds (FIDE 1000 would be −50): such a player gets no estimate, and the
    grader gives him one or lets his games be graded from his opponents'.

    >>> fide_estimate(1800), fide_estimate(1250), fide_estimate(1000)
    (110.0, 0.0, None)
    """
    grade = float(elo_to_ecf(rating))
    return grade if 0.0 <= grade <= MAX_GRADE else None


@dataclass(frozen=True)
class Merged:
    """An imported file set beside the players already there.

    Attributes:
        players: the players already there, then the new ones.
        added: the new players, in the file's order.
        games: the imported games, naming matched players as the league names them.
        matches: how each imported player was matched (:class:`~xlgrade.names.Match`).
    """

    players: tuple[Player, ...]
    added: tuple[Player, ...]
    games: tuple[Game, ...]
    matches: tuple[Match, ...]

    @property
    def already_known(self) -> int:
        """The imported players who were there already."""
        return len(self.matches) - len(self.added)


def merge(known: Sequence[Player], imported: Imported) -> Merged:
    """The imported players matched against ``known`` (the new ones after them) and the
    imported games renamed to the players they matched."""
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
    games = tuple(
        replace(g, home=rename.get(g.home, g.home), away=rename.get(g.away, g.away))
        if g.home in rename or g.away in rename
        else g  # one a game renamed, not a copy of every game
        for g in imported.games
    )
    return Merged(tuple(players), tuple(players[len(known) :]), games, matches)


def check_lines(merged: Merged) -> list[str]:
    """What the grader should look at: every match by initials, every match with a note, and
    each likely duplicate that involves a player this import added (those among the earlier
    players are the Exceptions sheet's business). One line each, starting ``check:``."""
    lines = []
    for match in merged.matches:
        if match.how == "initials" and match.known is not None:
            lines.append(
                f"check: {quote(match.incoming.name)} taken to be {quote(match.known.name)} "
                f"(initials)"
            )
        elif match.note:
            lines.append(f"check: {quote(match.incoming.name)}: {match.note}")
    new = {id(p) for p in merged.added}
    for duplicate in likely_duplicates(merged.players):
        if id(duplicate.first) in new or id(duplicate.second) in new:
            lines.append(
                f"check: {quote(duplicate.first.name)} and {quote(duplicate.second.name)} may be "
                f"one "
                f"player ({duplicate.why})"
            )
    return lines


def already_there(earlier: Sequence[Game], games: Sequence[Game]) -> int:
    """How many of ``games`` have the same two players as a game already there on the same
    date, or, undated, in the same event and round (a file imported twice doubles every
    game)."""

    def key(game: Game) -> tuple[object, ...]:
        players = frozenset((game.home.strip().casefold(), game.away.strip().casefold()))
        when = game.date if game.date is not None else (game.event, game.match)
        return when, players

    seen = {key(g) for g in earlier}
    return sum(1 for g in games if key(g) in seen)


def refuse_repeat(
    target: str | os.PathLike[str], earlier: Sequence[Game], games: Sequence[Game], again: bool
) -> int:
    """The number of ``games`` already among ``earlier`` (:func:`already_there`).

    Raises:
        RepeatedImportError: some are, and ``again`` is false.
    """
    repeated = already_there(earlier, games)
    if repeated and not again:
        raise RepeatedImportError(
            f"{os.fspath(target)}: {repeated} of the {len(games)} games to import have the "
            "same players and date (or event and round) as a game already there: was this "
            "file imported before? Nothing was added; --again adds the games all the same"
        )
    return repeated


@dataclass(frozen=True)
class FolderImport:
    """What importing a file into a folder of CSV files did.

    Attributes:
        merged: the players and games added (:class:`Merged`).
        problems: the entries not graded, added to ``problems.csv``.
        repeated: games that were already there (imported all the same: ``again``).
        new_season: the settings written to a new ``settings.csv``, or ``None`` when the folder
            had one (or no game is dated).
        settings_file: where ``new_season`` was written.
        season: the season the games were played in, that ``new_season`` is for
            (:func:`xlgrade.settings.season_of`).
        notes: the folder's files read that are not UTF-8, a note each naming the file
            (:func:`xlgrade.formats.encoding.not_utf8_note`).
    """

    merged: Merged
    problems: int
    repeated: int
    new_season: Settings | None
    settings_file: Path
    season: Season | None = None
    notes: tuple[str, ...] = ()


def _folder_contents(folder: Path, notes: list[str]) -> tuple[list[Player], list[Game]]:
    """The players and games already in the folder's ``players.csv`` and ``results.csv``, read
    as ``xlgrade season`` reads them (a row that cannot be read is left out of the matching,
    not an error: it stays in the file as it is); none for a new (empty) folder. A file that
    is not UTF-8 is said so in ``notes``."""
    from xlgrade.formats.tables import read_inputs

    cells = read_folder_cells(folder, notes)
    read = read_inputs({k: v for k, v in cells.items() if k in ("Players", "Results")})
    return list(read.players), list(read.games)


def import_into_folder(
    folder: str | os.PathLike[str], imported: Imported, *, again: bool = False
) -> FolderImport:
    """Add the imported players, games and entries not graded to the folder's
    ``players.csv``, ``results.csv`` and ``problems.csv`` (:func:`add_to_folder`), and, when
    the folder has no ``settings.csv``, write one for the season the games were played in
    (:func:`xlgrade.settings.season_of`).

    Raises:
        GradingError: ``folder`` is a file.
        InUseError: another run kept the folder locked.
        RepeatedImportError: games of the file are already there and ``again`` is false; nothing
            is written.
        FormatError: ``FOLDER: results.csv: line N: …`` for a file that cannot take the rows.
    """
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise GradingError(f"{path}: not a folder, nor a workbook (.xlsm, .xlsx)")
    # The folder is locked from the reading to the writing: two imports at once both land.
    with locked(path, folder=True):
        notes: list[str] = []
        known, earlier = _folder_contents(path, notes)
        merged = merge(known, imported)
        repeated = refuse_repeat(path, earlier, merged.games, again)
        settings_file = path / SETTINGS_FILE
        season = season_of(g.date for g in merged.games)
        new_season = None
        if season.dated and not settings_file.exists():
            new_season = Settings(
                season_name=season.name, season_start=season.start, season_end=season.end
            )
        try:
            add_to_folder(path, merged.added, merged.games, imported.problems, new_season)
        except FormatError as error:
            raise FormatError(f"{path}: {error}") from None
    return FolderImport(
        merged,
        len(imported.problems),
        repeated,
        new_season,
        settings_file,
        season if new_season is not None else None,
        tuple(notes),
    )
