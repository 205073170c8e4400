"""The player-card CSV: one player's games for ``xlgrade card``.

The file has two parts. First ``key,value`` lines for the player (any may be left out)::

    name,A. Player
    grade,142
    previous games,19
    previous points,2754
    earlier games,24
    earlier points,3300
    horizon,40
    junior enhancement,8

``grade`` is the grade at the start of the season (left out if ungraded); ``previous`` is last
season's games and points, ``earlier`` the season before's, for borrowing. Then a header line
``result,opponent grade,estimated`` and one line per game: the result from the player's side
(``1``, ``½``, ``0``, ``W``/``D``/``L``, ``draw``…), the opponent's grade, and ``yes`` in
*estimated* when the opponent is ungraded and the grade is a working grade. Blank
lines and lines starting with ``#`` are ignored. Defaults (``+``, ``-``, ``def``…) are not
graded: they are listed as skipped, never counted.

Rules (decisions): each key is given once; a line has no more than its columns (two for a key,
three for a game; empty cells after them, as a spreadsheet pads its rows, are fine); the
player's grade and every opponent grade is a number from 0 to :data:`MAX_GRADE`, the ECF
scale's plausible range, so a rating on another scale (an Elo of 1850) is refused, not graded.
Numbers, grades (``[136]`` in brackets too) and the *estimated* column's yes/no are read as
every cell is (:mod:`xlgrade.cells`); *estimated* also takes ``est`` and ``estimated`` for yes.
Every problem raises :class:`~xlgrade.errors.FormatError` with ``line N:`` and the text quoted.

A file that is not text (a workbook, say) is refused as a whole: ``FILE: not a card file (…)``.
The bytes are read as UTF-8 (a byte-order mark dropped), else as Windows-1252.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from xlgrade._rounding import quote
from xlgrade.card import CardGame
from xlgrade.cells import grade as read_grade
from xlgrade.cells import number as read_number
from xlgrade.cells import whole as read_whole
from xlgrade.cells import yes_no
from xlgrade.ecf import MAX_GRADE as ECF_MAX_GRADE
from xlgrade.ecf import MAX_SEASON_GAMES, MAX_SEASON_POINTS
from xlgrade.errors import FormatError, GradingError
from xlgrade.model import EarlierSeason
from xlgrade.results import parse_result

__all__ = ["MAX_GAMES", "MAX_GRADE", "MAX_POINTS", "CardFile", "read_card_bytes", "read_card_file"]

MAX_GRADE: float = ECF_MAX_GRADE
"""The highest grade a card file takes, for the player or an opponent
(:data:`xlgrade.ecf.MAX_GRADE`)."""

MAX_GAMES: int = MAX_SEASON_GAMES
"""The most games of a season a card file takes, as a season does
(:data:`xlgrade.ecf.MAX_SEASON_GAMES`; a player plays a few hundred at most)."""
MAX_POINTS: float = MAX_SEASON_POINTS
"""The most points of a season a card file takes: :data:`MAX_GAMES` wins over an opponent of
:data:`MAX_GRADE` (:data:`xlgrade.ecf.MAX_SEASON_POINTS`)."""

_NOT_A_CARD: str = (
    "not a card file (a CSV of 'key,value' lines for the player, then the line "
    "'result,opponent grade,estimated' and a line per game)"
)
_BINARY = frozenset(bytes(range(32)) + b"\x7f") - frozenset(b"\t\n\r\f\v")

_ESTIMATED = frozenset({"est", "estimated"})
"""The *estimated* column's own words for yes; else it is a yes/no cell
(:func:`xlgrade.cells.yes_no`), blank for no."""
_KEYS = frozenset(
    {
        "name",
        "grade",
        "previous games",
        "previous points",
        "earlier games",
        "earlier points",
        "horizon",
        "junior enhancement",
    }
)


@dataclass(frozen=True)
class CardFile:
    """What a card file holds.

    Attributes:
        name: the player's name.
        own_grade: grade at the start of the season (``None`` if ungraded).
        games: the graded games, in file order.
        earlier: last season's and the season before's totals (``None`` where not given).
        horizon: the horizon to apply.
        junior_enhancement: points added to the published grade.
        skipped: ``(line, reason)`` for each default or bye, not graded.
    """

    name: str
    own_grade: float | None
    games: tuple[CardGame, ...]
    earlier: tuple[EarlierSeason | None, EarlierSeason | None]
    horizon: float | None
    junior_enhancement: int
    skipped: tuple[tuple[int, str], ...]


def _number(text: str, line: int, what: str, most: float = MAX_POINTS) -> float:
    """A number between ``-most`` and ``most``, read as every number cell is
    (:func:`xlgrade.cells.number`)."""
    try:
        value = read_number(text)
    except GradingError:
        value = None
    if value is None:
        raise FormatError(f"line {line}: {what} {quote(text)} is not a number")
    if abs(value) > most:
        raise FormatError(
            f"line {line}: {what} {quote(text)} is more than {most:,g}, the most xlgrade takes "
            "(see docs/limits.md)"
        )
    return value


def _whole(text: str, line: int, what: str) -> int:
    """A count of games, read as every whole-number cell is (:func:`xlgrade.cells.whole`)."""
    _number(text, line, what, float("inf"))  # "is not a number" before "not a whole number"
    try:
        value = read_whole(text)
    except GradingError:
        raise FormatError(
            f"line {line}: {what} {quote(text)} is not a whole number of games"
        ) from None
    assert value is not None  # a number was read above
    if value > MAX_GAMES:
        raise FormatError(
            f"line {line}: {what} {quote(text)} is more than {MAX_GAMES:,}, the most games a "
            "card file takes for a season (see docs/limits.md)"
        )
    return value


def _grade(text: str, line: int, what: str) -> float:
    """A grade: a number from 0 to :data:`MAX_GRADE`, read as every grade cell is
    (:func:`xlgrade.cells.grade`: an estimated grade in brackets too)."""
    try:
        value = read_grade(text)
    except GradingError:
        value = None
    if value is None:
        raise FormatError(f"line {line}: {what} {quote(text)} is not a number")
    if value < 0:
        raise FormatError(f"line {line}: {what} {quote(text)} is negative")
    if value > MAX_GRADE:
        raise FormatError(
            f"line {line}: {what} {quote(text)} is above {MAX_GRADE:g}, not a grade on the ECF "
            f"scale"
        )
    return value


def _extra(cells: list[str], columns: int, number: int, row: list[str]) -> None:
    """Refuse a line with a non-empty cell after its ``columns`` columns."""
    if any(cells[columns:]):
        raise FormatError(
            f"line {number}: {quote(','.join(row))} has more than {columns} columns "
            "(quote a value that holds a comma)"
        )


def read_card_bytes(data: bytes, source: str) -> CardFile:
    """Read a card file's bytes, from the file ``source`` (named in the errors that refuse the
    file as a whole): text is required, UTF-8 or else Windows-1252.

    Raises:
        FormatError: ``source: not a card file (…)`` for binary or undecodable bytes, else as
            :func:`read_card_file`.
    """
    for offset, byte in enumerate(data):
        if byte in _BINARY:
            line = data.count(b"\n", 0, offset) + 1
            raise FormatError(
                f"{source}: {_NOT_A_CARD}: line {line} holds binary data (byte 0x{byte:02x})"
            )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as error:
            line = data.count(b"\n", 0, error.start) + 1
            raise FormatError(
                f"{source}: {_NOT_A_CARD}: line {line} is neither UTF-8 nor Windows-1252 text "
                f"(byte 0x{data[error.start]:02x})"
            ) from None
    return read_card_file(text, source=source)


def read_card_file(text: str, *, source: str | None = None) -> CardFile:
    """Read a card file's text (see the module's description of the layout). ``source``, the
    file's name, starts the message when the text is not a card file at all."""
    values: dict[str, tuple[int, str]] = {}
    games: list[CardGame] = []
    skipped: list[tuple[int, str]] = []
    in_games = False
    reader = csv.reader(io.StringIO(text, newline=None))
    try:
        for number, row in enumerate(reader, start=1):
            cells = [cell.strip() for cell in row]
            if not any(cells) or cells[0].startswith("#"):
                continue
            if not in_games:
                key = cells[0].lower()
                if key == "result":
                    in_games = True
                    continue
                if key not in _KEYS:
                    raise FormatError(
                        f"line {number}: {quote(cells[0])} is not a setting "
                        f"({', '.join(sorted(_KEYS))}) nor the games' header "
                        "'result,opponent grade'"
                    )
                if len(cells) < 2 or not cells[1]:
                    raise FormatError(f"line {number}: {quote(cells[0])} has no value")
                _extra(cells, 2, number, row)
                if key in values:
                    raise FormatError(
                        f"line {number}: {quote(cells[0])} is given again (first on line "
                        f"{values[key][0]}); give each setting once"
                    )
                values[key] = (number, cells[1])
                continue
            games_or_skip = _game(cells, number, row)
            if isinstance(games_or_skip, CardGame):
                games.append(games_or_skip)
            else:
                skipped.append((number, games_or_skip))
    except csv.Error as error:
        where = f"{source}: " if source else ""
        raise FormatError(f"{where}{_NOT_A_CARD}: line {reader.line_num}: {error}") from None
    if not in_games:
        raise FormatError(
            "line 1: no games: the file needs a line 'result,opponent grade,estimated'"
        )

    def get(key: str) -> tuple[int, str] | None:
        return values.get(key)

    def season(games_key: str, points_key: str) -> EarlierSeason | None:
        g, p = get(games_key), get(points_key)
        if g is None and p is None:
            return None
        if g is None or p is None:
            line = (g or p or (1, ""))[0]
            raise FormatError(f"line {line}: give both {quote(games_key)} and {quote(points_key)}")
        return EarlierSeason(_whole(g[1], g[0], games_key), _number(p[1], p[0], points_key))

    grade = get("grade")
    horizon = get("horizon")
    junior = get("junior enhancement")
    return CardFile(
        name=values.get("name", (0, ""))[1],
        own_grade=_grade(grade[1], grade[0], "grade") if grade else None,
        games=tuple(games),
        earlier=(
            season("previous games", "previous points"),
            season("earlier games", "earlier points"),
        ),
        horizon=_number(horizon[1], horizon[0], "horizon", MAX_GRADE) if horizon else 40.0,
        junior_enhancement=_enhancement(junior) if junior else 0,
        skipped=tuple(skipped),
    )


def _enhancement(entry: tuple[int, str]) -> int:
    """The junior enhancement line: one of the leaflet's 0, 4, 6, 8 or 10 points."""
    line, text = entry
    value = _number(text, line, "junior enhancement")
    if value not in (0, 4, 6, 8, 10):
        raise FormatError(
            f"line {line}: junior enhancement {quote(text)} is not 0, 4, 6, 8 or 10 (the 1997 "
            "leaflet's points by age)"
        )
    return int(value)


def _game(cells: list[str], number: int, row: list[str]) -> CardGame | str:
    """One game line, or the reason it is not graded (a default)."""
    try:
        result = parse_result(cells[0])
    except GradingError as error:
        raise FormatError(f"line {number}: {error}") from None
    _extra(cells, 3, number, row)
    if not result.graded:
        return f"{result.reason} ({quote(cells[0])}): not graded"
    if len(cells) < 2 or not cells[1]:
        raise FormatError(
            f"line {number}: {quote(','.join(row))} needs a result and an opponent grade"
        )
    flag = cells[2] if len(cells) > 2 else ""
    try:
        estimated = flag.lower() in _ESTIMATED or bool(yes_no(flag))
    except GradingError:
        raise FormatError(f"line {number}: estimated {quote(flag)} is not yes or no") from None
    grade = _grade(cells[1], number, "opponent grade")
    assert result.score is not None
    return CardGame(result.score, grade, estimated)
