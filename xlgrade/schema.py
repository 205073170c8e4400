"""The input tables' columns, declared once: the sheets' names, and for every column of the
Players and Results tables (a workbook's sheet or a folder's CSV file) its header, its field,
how its cell is read, whether a row needs it, and what it means.

Below both the file formats (:mod:`xlgrade.formats`) and the workbook (:mod:`xlgrade.workbook`):
the CSV reader and writer, the book reader, the template builder (its column letters
included), the layout document (``docs/settings_table.py``) and the construction of
:class:`xlgrade.model.Player` all work from :data:`PLAYERS_COLUMNS` and
:data:`RESULTS_COLUMNS`. A new Players column is one row of :data:`PLAYERS_COLUMNS` (and a field
of :class:`~xlgrade.model.Player`); ``python docs/settings_table.py`` then writes its line of
the layout page.

Headers are compared with :func:`xlgrade.cells.header_key` (case, spaces, dots, dashes and
underscores ignored), so a grader may add columns of his own or reorder them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from xlgrade import cells, editions
from xlgrade.model import EarlierSeason, Game, Player
from xlgrade.teams import DIVISION_COLUMNS

__all__ = [
    "DIVISIONS",
    "DIVISIONS_HEADERS",
    "KINDS",
    "LINEUP",
    "PLAYERS",
    "PLAYERS_COLUMNS",
    "PLAYERS_HEADERS",
    "RATINGS",
    "RATINGS_HEADERS",
    "RATING_COLUMNS",
    "RESULTS",
    "RESULTS_CHECKED",
    "RESULTS_COLUMNS",
    "RESULTS_FORMULA_HEADERS",
    "RESULTS_HEADERS",
    "SETTINGS",
    "SETTINGS_HEADERS",
    "SETTINGS_REQUIRED",
    "TEAM_COLUMNS",
    "Column",
    "ColumnKind",
    "book_value",
    "column_letters",
    "csv_text",
    "game_csv_text",
    "player_from",
]

SETTINGS: Final = "Settings"
"""The sheet of season settings: one setting a row, ``Setting`` and ``Value`` columns."""
PLAYERS: Final = "Players"
"""The sheet of players with their start-of-season grades and earlier seasons' totals."""
RESULTS: Final = "Results"
"""The league results sheet: one game a row, the result from the home side."""
DIVISIONS: Final = "Divisions"
"""The sheet of the divisions' rules that use grades: one division a row (:mod:`xlgrade.teams`)."""
LINEUP: Final = "Line-up"
"""A captain's proposed line-up: Division, Team, Date, Board and Player columns
(:mod:`xlgrade.formats.lineup`)."""
RATINGS: Final = "Ratings"
"""The sheet of the rating lists a league has loaded: a player's figures per edition
(:mod:`xlgrade.editions`), kept by ``xlgrade ratings``."""

SETTINGS_HEADERS: Final = ("Setting", "Value", "Meaning")
"""The Settings table's columns."""
SETTINGS_REQUIRED: Final = ("Setting", "Value")
"""The Settings columns it cannot be read without."""
DIVISIONS_HEADERS: Final = tuple(column.header for column in DIVISION_COLUMNS)
"""Divisions columns (:data:`xlgrade.teams.DIVISION_COLUMNS`); a blank cell is no such rule."""
RATINGS_HEADERS: Final = editions.RATINGS_HEADERS
"""Ratings columns (:data:`xlgrade.editions.RATINGS_HEADERS`): one player and edition a row."""

ColumnKind = Literal[
    "code", "text", "date", "month", "flag", "yes/no", "grade", "rating", "category", "games",
    "points", "result", "board",
]  # fmt: skip
"""How a column's cells are read and written (:data:`KINDS`)."""


@dataclass(frozen=True)
class _Kind:
    """How cells of one kind are read (``read``; ``None`` for a blank cell) and written to a
    CSV file (``csv``: the text) and to a book (``book``: the cell's value)."""

    read: Callable[[object], Any]
    csv: Callable[[Any], str]
    book: Callable[[Any], object]
    words: str


def _number(value: float | None) -> str:
    """A number as written: whole numbers without ".0", others exactly (``repr``)."""
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _iso(value: dt.date | None) -> str:
    return value.isoformat() if value else ""


def _month(value: dt.date | None) -> str:
    return value.isoformat()[:7] if value else ""


def _yes_no(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


def _same(value: object) -> object:
    return value


KINDS: Final[Mapping[str, _Kind]] = {
    "code": _Kind(cells.text, lambda v: v or "", _same, "text"),
    "text": _Kind(cells.text, lambda v: v, lambda v: v or None, "text"),
    "date": _Kind(cells.date, _iso, _same, "a date"),
    "month": _Kind(cells.month, _month, lambda v: _month(v) or None, "a month (`2025-08`)"),
    "flag": _Kind(
        cells.yes_no, lambda v: "yes" if v else "", lambda v: "yes" if v else None, "yes/no"
    ),
    "yes/no": _Kind(cells.yes_no, _yes_no, lambda v: _yes_no(v) or None, "yes/no"),
    "grade": _Kind(cells.grade, _number, _same, "a grade"),
    "rating": _Kind(cells.rating, _number, _same, "a rating"),
    "category": _Kind(cells.rating_category, lambda v: v or "", _same, "A, K or P"),
    "games": _Kind(cells.whole, _number, _same, "a whole number"),
    "points": _Kind(cells.number, _number, _same, "a number"),
    "result": _Kind(cells.result_text, lambda v: v, _same, "a result"),
    "board": _Kind(cells.board, lambda v: "" if v is None else str(v), _same, "a whole number"),
}
"""Each kind of column: its cell reading (:mod:`xlgrade.cells`) and its writing."""


@dataclass(frozen=True)
class Column:
    """One column of an input table.

    Attributes:
        header: its header on the sheet and in a CSV file xlgrade writes.
        field: its name in a CSV file's header (``date_of_birth``; also read in any spelling
            :func:`xlgrade.cells.header_key` matches).
        kind: how its cells are read and written (:data:`KINDS`).
        attribute: the model's field it fills (:class:`~xlgrade.model.Player`,
            :class:`~xlgrade.model.Game`); ``previous.games`` for a total of an earlier
            season.
        what: the kind of problem a cell that cannot be read is.
        required: a row cannot be read without it (its header must be there).
        help: what it holds, for the layout document.
        width: its width on the template's sheet (``None``: Excel's default).
        aliases: other headers a CSV file may give it (``White`` for ``Home player``), read
            in any spelling :func:`xlgrade.cells.header_key` matches.
    """

    header: str
    field: str
    kind: ColumnKind
    attribute: str
    what: str = ""
    required: bool = False
    help: str = ""
    width: float | None = None
    aliases: tuple[str, ...] = ()

    @property
    def read(self) -> Callable[[object], Any]:
        """The reading of its cells (:mod:`xlgrade.cells`)."""
        return KINDS[self.kind].read


def _player(
    header: str,
    field: str,
    kind: ColumnKind,
    attribute: str,
    what: str,
    help: str,
    width: float | None = None,
    *,
    required: bool = False,
    aliases: tuple[str, ...] = (),
) -> Column:
    return Column(header, field, kind, attribute, what, required, help, width, aliases)


_GRADING_COLUMNS: Final = (
    _player("Code", "code", "code", "code", "bad code",
            "the ECF grading reference code (six digits and a check letter)", 10,
            aliases=("ECF code", "Grading code", "Ref code", "ECF ref", "BCF code",
                     "ECF grading code")),
    _player("Name", "name", "text", "name", "no name",
            "as written (`Smith, John A` or `John A Smith`); a row needs it", 26, required=True,
            aliases=("Player", "Player name")),
    _player("Club", "club", "text", "club", "",
            "the club, telling apart players of one name", 18),
    _player("Date of birth", "date_of_birth", "date", "date_of_birth", "bad date of birth",
            "for the junior enhancement by age", 13, aliases=("DOB", "Born")),
    _player("Junior", "junior", "flag", "junior", "bad junior flag",
            "a junior whose age is not known (the smallest enhancement)", 8),
    _player("Grade", "grade", "grade", "grade", "bad grade",
            "the published grade at the start of the season", 8),
    _player("Estimated grade", "estimated_grade", "grade", "estimated_grade", "bad grade",
            "the grader's estimate, used first as a working grade", 10),
    _player("Previous games", "previous_games", "games", "previous.games", "bad games",
            "last season's games", 10),
    _player("Previous points", "previous_points", "points", "previous.points", "bad points",
            "last season's points", 10),
    _player("Earlier games", "earlier_games", "games", "earlier.games", "bad games",
            "the season before's games", 10),
    _player("Earlier points", "earlier_points", "points", "earlier.points", "bad points",
            "the season before's points", 10),
    _player("Lapsed grade", "lapsed_grade", "grade", "lapsed_grade", "bad grade",
            "an old grade, used less the inactivity allowance", 10),
)  # fmt: skip
RATING_COLUMNS: Final = (
    _player("ECF rating", "ecf_rating", "rating", "rating", "bad rating",
            "the standard-play ECF rating at the start of the season"),
    _player("ECF category", "ecf_category", "category", "rating_category", "bad rating",
            "its category (blank: unrated)"),
    _player("ECF rapid rating", "ecf_rapid_rating", "rating", "rapid_rating", "bad rating",
            "the rapidplay ECF rating at the start of the season"),
    _player("ECF rapid category", "ecf_rapid_category", "category", "rapid_category",
            "bad rating", "its category"),
    _player("Last rated month", "last_rated_month", "month", "last_rated_month", "bad date",
            "the month of the last rated game (the 36-month rule)"),
    _player("ECF results in 12 months", "ecf_results_12_months", "games", "results_12_months",
            "bad games", "rated results in the 12 months before the season (category A: 30)"),
    _player("ECF rapid results in 12 months", "ecf_rapid_results_12_months", "games",
            "rapid_results_12_months", "bad games", "the same on the rapid list"),
    _player("ECF P games", "ecf_p_games", "games", "p_games", "bad P record",
            "a P rating's rated games (0 to 9; blank: the setting P games not given)"),
    _player("ECF P score", "ecf_p_score", "points", "p_score", "bad P record",
            "his score in them (blank: half of them)"),
    _player("ECF P opposition", "ecf_p_opposition", "rating", "p_opposition", "bad P record",
            "their opponents' average rating (blank: his rating)"),
    _player("ECF rapid P games", "ecf_rapid_p_games", "games", "rapid_p_games",
            "bad P record", "a rapid P rating's rated games (as ECF P games)"),
    _player("ECF rapid P score", "ecf_rapid_p_score", "points", "rapid_p_score",
            "bad P record", "his score in them"),
    _player("ECF rapid P opposition", "ecf_rapid_p_opposition", "rating",
            "rapid_p_opposition", "bad P record", "their opponents' average rating"),
)  # fmt: skip
"""The Players columns of the ECF rating (the system since 2020, :mod:`xlgrade.ecf_rating`)."""
TEAM_COLUMNS: Final = (
    _player("Estimated rating", "estimated_rating", "rating", "estimated_rating", "bad rating",
            "the estimate of an unrated player's rating (the divisions' rules)"),
    _player("Latest ECF rating", "latest_ecf_rating", "rating", "latest_rating", "bad rating",
            "the live rating, for a rule that asks for the latest"),
    _player("Registered team", "registered_team", "text", "registered_team", "",
            "the team the player is registered (nominated, starred) to"),
    _player("Registered from", "registered_from", "date", "registered_from", "bad date",
            "the day the registration takes effect (blank: the whole season)"),
    _player("FIDE rating", "fide_rating", "rating", "fide_rating", "bad rating",
            "for a division's FIDE cap"),
    _player("ECF member", "ecf_member", "yes/no", "ecf_member", "bad member flag",
            "an ECF member (blank: not known)"),
    _player("League registered", "league_registered", "date", "league_registered", "bad date",
            "the day the player was registered with the league (blank: not registered)"),
)  # fmt: skip
"""The Players columns only the divisions' rules read (:mod:`xlgrade.teams`), last."""
PLAYERS_COLUMNS: Final = _GRADING_COLUMNS + RATING_COLUMNS + TEAM_COLUMNS
"""The Players table's columns, in the template's order: the grading's, the ECF rating's, the
divisions' rules'."""

RESULTS_COLUMNS: Final = (
    Column("Date", "date", "date", "date", "bad date", help="the day the game was played",
           aliases=("Game date",)),
    Column("Division", "event", "text", "event", help="the division (or event)",
           aliases=("Competition",)),
    Column("Match", "match", "text", "match", help="the match", aliases=("Round",)),
    Column("Board", "board", "board", "board", "bad board", help="the board (1 to 100)",
           aliases=("Bd",)),
    Column("Home player", "home", "text", "home", required=True,
           help="the home player, by code or name as on Players", aliases=("White",)),
    Column("Result", "result", "result", "result", "bad result", required=True,
           help="from the home side: `1-0`, `½-½`, `0-1`, a default (`1-0 def`…)",
           aliases=("Score",)),
    Column("Away player", "away", "text", "away", required=True, help="the away player",
           aliases=("Black",)),
    Column("Time control", "time_control", "text", "time_control",
           help="`rapid` for a rapidplay game (the Rapid List)", aliases=("TC",)),
)  # fmt: skip
"""The Results table's columns the grader types, in the template's order."""
RESULTS_CHECKED: Final = ("result", "date", "board")
"""The Results cells that may not be read (each a problem of its row, by its column's
``what``), by attribute, in the order of the season's checks: a result before a date, a
board last."""

PLAYERS_HEADERS: Final = tuple(column.header for column in PLAYERS_COLUMNS)
"""Players headers, in order (:data:`PLAYERS_COLUMNS`)."""
RESULTS_HEADERS: Final = tuple(column.header for column in RESULTS_COLUMNS)
"""Results headers the grader types, in order (:data:`RESULTS_COLUMNS`)."""
RESULTS_FORMULA_HEADERS: Final = (
    "Home points",
    "Away points",
    "Home grade",
    "Away grade",
    "Home score",
    "Away score",
)
"""Live columns of Results, computed by formulas (the points call ``GRADE_POINTS``)."""

_SEASONS: Final = ("previous", "earlier")
_PLAIN: Final = tuple(c.attribute for c in PLAYERS_COLUMNS if "." not in c.attribute)
"""The Players columns that are a field of :class:`~xlgrade.model.Player` each."""
_FLAGS: Final = tuple(
    c.attribute for c in PLAYERS_COLUMNS if "." not in c.attribute and c.kind == "flag"
)
"""Those of them read as yes or no."""


def player_from(values: Mapping[str, Any], **more: Any) -> Player:
    """A :class:`~xlgrade.model.Player` from a row's values by column attribute (read, or
    ``None`` when blank); an earlier season's totals make its
    :class:`~xlgrade.model.EarlierSeason` when both are given. ``more`` gives other fields
    (``row``)."""
    fields: dict[str, Any] = {name: values.get(name) for name in _PLAIN}
    for name in _FLAGS:
        fields[name] = bool(fields[name])
    for season in _SEASONS:
        games, points = values.get(f"{season}.games"), values.get(f"{season}.points")
        fields[season] = (
            EarlierSeason(games, points) if games is not None and points is not None else None
        )
    return Player(**fields, **more)


def _attribute(record: Player | Game, column: Column) -> object:
    name, _, part = column.attribute.partition(".")
    value = getattr(record, name)
    return getattr(value, part) if part and value is not None else None if part else value


def csv_text(player: Player) -> dict[str, str]:
    """A player's cells as a CSV file has them, by field, not yet neutralised."""
    return {c.field: KINDS[c.kind].csv(_attribute(player, c)) for c in PLAYERS_COLUMNS}


def game_csv_text(game: Game) -> dict[str, str]:
    """A game's cells as a CSV file has them, by field (:data:`RESULTS_COLUMNS`), not yet
    neutralised."""
    return {c.field: KINDS[c.kind].csv(_attribute(game, c)) for c in RESULTS_COLUMNS}


def book_value(player: Player) -> list[object]:
    """A player's cells on the template's Players sheet, in :data:`PLAYERS_COLUMNS` order
    (``None``: blank)."""
    return [KINDS[c.kind].book(_attribute(player, c)) for c in PLAYERS_COLUMNS]


def column_letters(index: int) -> str:
    """A column's letters from its index counted from 0 (0 → A, 26 → AA)."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters
