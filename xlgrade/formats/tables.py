"""The Settings, Players and Results tables read from rows of cells, whether a workbook's sheets
or a folder's CSV files hold them: one reader, lenient or strict.

Columns are found by header (:func:`xlgrade.cells.header_key`: case, spaces, dots, dashes and
underscores ignored), so added or reordered columns do no harm. Each cell is read by
:mod:`xlgrade.cells`, each setting by its row of :mod:`xlgrade.settings`.

**Lenient** (``strict=False``; ``xlgrade recalc``, ``season``, the ribbon): every cell that
cannot be read becomes a :class:`~xlgrade.model.Problem` naming the sheet, the row, the cell
and its header, quoting the input, and saying what was done about it; it reaches the
Exceptions sheet. A Results row with such a cell is left out of the grading. A Players row is
kept with only that value left out (a bad grade leaves the player ungraded, a bad total leaves
out that season), so that his games are still his; only a row without a name is left out. A
bad setting keeps its default.

**Strict** (``strict=True``; ``xlgrade import`` and ``export`` of a folder): the first such
cell raises a :class:`~xlgrade.errors.FormatError` naming the row and the cell.

**Headers** stop the run, strict or not (:attr:`Inputs.stopped`): a column every row needs
that is missing (``Name``; ``Home player``, ``Result``, ``Away player``; ``Setting``,
``Value``), or a header that is not known but close to a known one (``Grading`` for
``Grade``, ``Home`` for ``Home player``: :func:`xlgrade.cells.likely_header`), either of which
would quietly change every grade. Any other header that mentions a grade and is not read is
listed as a problem, never ignored in silence.

**The season** left out (no Settings table, or its start and end blank) is the season the
games were played in (:func:`xlgrade.settings.season_of`); one date given gives the other.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import gc
import itertools
import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, cast

from xlgrade import cells, schema, settings
from xlgrade._rounding import quote
from xlgrade.editions import RATINGS_REQUIRED, ListedRating, RatingHistory, listed_rating
from xlgrade.errors import FormatError, GradingError, HeaderError
from xlgrade.formats.lineup import read_lineup
from xlgrade.model import Game, Player, Problem
from xlgrade.schema import column_letters
from xlgrade.settings import Season, Settings
from xlgrade.teams import DIVISION_COLUMNS, Division, LineUp

__all__ = [
    "KNOWN_HEADERS",
    "NOTES",
    "REQUIRED_HEADERS",
    "STOPPING",
    "Inputs",
    "collector_paused",
    "read_inputs",
    "read_table",
]

KNOWN_HEADERS: Final[Mapping[str, tuple[tuple[str, ...], ...]]] = {
    schema.SETTINGS: (schema.SETTINGS_HEADERS,),
    schema.PLAYERS: (schema.PLAYERS_HEADERS,),
    schema.RESULTS: (schema.RESULTS_HEADERS, schema.RESULTS_FORMULA_HEADERS),
    schema.DIVISIONS: (schema.DIVISIONS_HEADERS,),
    schema.RATINGS: (schema.RATINGS_HEADERS,),
}
"""The headers each table's reader knows: those a grader types first, then the computed
ones (a mistyped header is matched against the first group before the second)."""
REQUIRED_HEADERS: Final[Mapping[str, tuple[str, ...]]] = {
    schema.SETTINGS: schema.SETTINGS_REQUIRED,
    schema.PLAYERS: tuple(c.header for c in schema.PLAYERS_COLUMNS if c.required),
    schema.RESULTS: tuple(c.header for c in schema.RESULTS_COLUMNS if c.required),
    schema.DIVISIONS: ("Division",),
    schema.RATINGS: RATINGS_REQUIRED,
}
"""The columns each table cannot be read without."""
STOPPING: Final = frozenset({"missing column", "unknown column"})
"""The kinds of problem that stop the run: a header that would change the grades in silence."""
NOTES: Final = frozenset({"season from the games", "column not read"})
"""The kinds of problem that are notes on a table, not on a cell: the run goes on."""
_GRADE_WORDS: Final = ("grade", "grading")
_BLOCK: Final = 16_384
_FIRST_BLOCK: Final = 32
"""The rows a table's columns are read in at a time (:meth:`_Sheet.columns_of`): few enough
that a large CSV file is never held whole, enough that each block's distinct texts are few."""


@dataclass
class Inputs:
    """What the input tables hold.

    Attributes:
        players: the Players rows that could be read.
        games: the Results rows that could be read.
        settings: the season's settings (defaults where a cell was blank or bad; the season
            of the games where its dates were not given).
        problems: every cell that could not be read, one problem each.
        season: the season worked out from the games' dates, when the settings did not give
            it (``None`` when they did).
        divisions: the Divisions table's rules by division (none without the table).
        ratings: the Ratings table's rows: each player's figures per edition of the rating
            list (none without the table).
        lineup: a captain's proposed line-up (the Line-up table; ``None`` without it, or
            when it cannot be read: then a problem says why).
    """

    players: list[Player] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    settings: Settings = field(default_factory=Settings)
    problems: list[Problem] = field(default_factory=list)
    season: Season | None = None
    divisions: dict[str, Division] = field(default_factory=dict)
    ratings: list[ListedRating] = field(default_factory=list)
    lineup: LineUp | None = None

    @property
    def rating_history(self) -> RatingHistory:
        """The editions of the rating list the Ratings table holds."""
        return RatingHistory.of(self.ratings)

    @property
    def stopped(self) -> list[Problem]:
        """The header problems that stop the run (:data:`STOPPING`): nothing is graded."""
        return [p for p in self.problems if p.what in STOPPING]

    @property
    def season_words(self) -> str:
        """The season graded, in words, for a note: ``"for the 2025-26 season (2025-06-01 to
        2026-05-31), the one the games were played in"``."""
        if self.season is not None:
            return f"for {self.season.note}"
        return f"for the season {self.settings.season_start} to {self.settings.season_end}"

    def refuse_stopped(self, places: Mapping[str, str] | None = None, then: str = "") -> None:
        """Raise when a header stops the run. ``places`` names where each table is (a file
        for a folder's table; by default the sheet); ``then`` is added to the message.

        Raises:
            HeaderError: naming each header at fault, its sheet and the likely match.
        """
        stopped = self.stopped
        if stopped:
            named = places or {}
            found = "; ".join(f"{named.get(p.sheet, p.sheet)}: {p.why}" for p in stopped)
            raise HeaderError(found + then)


class _Sheet:
    """One table's rows with its columns found by header. The rows are cleaned
    (:func:`_cleaned_row`): a blank cell is ``None``. They are read once, as they come: the
    header row when the table is made, the rest by :meth:`data` a row at a time or by
    :meth:`columns_of` a block of columns at a time (a CSV file's rows are read from the
    file as the table reads them)."""

    def __init__(self, name: str, raw: Iterable[Sequence[object]]) -> None:
        self.name = name
        self._raw = iter(raw)
        self._spaced = _Spaced()
        self.header_row = 0
        self.header: list[object] = []
        for row in self._raw:
            cleaned = _cleaned_row(row, self._spaced)
            if any(v is not None for v in cleaned):
                self.header = cleaned
                break
            self.header_row += 1
        self.columns: dict[str, int] = {}
        self._index: dict[str, int] = {}
        self._spans: dict[tuple[str, ...], list[int]] = {}
        for index, text in enumerate(self.header):
            key = cells.header_key(text)
            if key and key not in self.columns:
                self.columns[key] = index

    def has(self, header: str) -> bool:
        return cells.header_key(header) in self.columns

    def data(self) -> Iterator[tuple[int, Sequence[object]]]:
        """(row number, cells) of each row under the header, once."""
        spaced = self._spaced
        return enumerate((_cleaned_row(row, spaced) for row in self._raw), self.header_row + 2)

    def columns_of(
        self, headers: Sequence[str], most: int = _BLOCK
    ) -> Iterator[tuple[int, list[list[object]]]]:
        """The rows under the header in blocks, each as (its first row's number, the cleaned
        cells of each of ``headers`` in a column, ``None`` for a column the sheet lacks or past
        a row's end): each distinct text of a column is cleaned once. The first block is of
        :data:`_FIRST_BLOCK` rows, each next twice as many up to ``most``, so that a bad row
        is met before the reader takes twice its rows. The rows are read once, as
        :meth:`data` reads them; an error raised by the rows themselves (a CSV file's line
        that cannot be read) is raised after the block of the rows before it, so that a bad
        cell before it is still met first."""
        indexes = [self.columns.get(cells.header_key(h), -1) for h in headers]
        number = self.header_row + 2
        failed: Exception | None = None
        done = False
        wanted = _FIRST_BLOCK
        while not done:
            block: list[Sequence[object]] = []
            wanted, size = min(2 * wanted, most), min(wanted, most)
            try:
                block.extend(itertools.islice(self._raw, size))
            except Exception as error:  # raised below, once the rows read before it are
                failed = error
            done = failed is not None or len(block) < size
            if not block:
                break
            across = list(itertools.zip_longest(*block))
            columns = [
                _cleaned_column(across[i], self._spaced) if 0 <= i < len(across) else None
                for i in indexes
            ]
            blank: list[object] = [None] * len(block)
            yield number, [blank if c is None else c for c in columns]
            number += len(block)
        if failed is not None:
            raise failed

    def get(self, row: Sequence[object], header: str) -> object:
        index = self._index.get(header)
        if index is None:
            index = self._index[header] = self.columns.get(cells.header_key(header), -1)
        return row[index] if 0 <= index < len(row) else None

    def picker(self, headers: Sequence[str]) -> Callable[[Sequence[object]], Sequence[object]]:
        """A function giving a row's cells under ``headers``, in their order, each as
        :meth:`get` gives it (``None`` for a column the sheet lacks, or past the row's end);
        one look-up a row where the sheet has every column."""
        indexes = [self.columns.get(cells.header_key(h), -1) for h in headers]

        def each(row: Sequence[object]) -> Sequence[object]:
            return [self.get(row, header) for header in headers]

        present = [index for index in indexes if index >= 0]
        if len(present) < 2:
            return each
        fetch = operator.itemgetter(*present)
        last = max(present)
        if len(present) == len(indexes):

            def pick(row: Sequence[object]) -> Sequence[object]:
                return fetch(row) if len(row) > last else each(row)

            return pick
        # Columns the sheet lacks (a CSV file of a few columns): None in their places.
        places: list[int] = []  # each header's place among those fetched, or -1
        fetched = 0
        for index in indexes:
            places.append(fetched if index >= 0 else -1)
            fetched += index >= 0

        def spread(row: Sequence[object]) -> Sequence[object]:
            if len(row) <= last:
                return each(row)
            got = fetch(row)
            return [None if at < 0 else got[at] for at in places]

        return spread

    def empty(self, row: Sequence[object], headers: tuple[str, ...]) -> bool:
        """Whether ``row`` is blank in every column of ``headers`` (a grader's own columns
        aside)."""
        indexes = self._spans.get(headers)
        if indexes is None:
            found = (self.columns.get(cells.header_key(h), -1) for h in headers)
            indexes = self._spans[headers] = [i for i in found if i >= 0]
        width = len(row)
        return all(row[i] is None for i in indexes if i < width)

    def ref(self, number: int, header: str) -> str:
        index = self.columns.get(cells.header_key(header), 0)
        return f"{column_letters(index)}{number}"


class _Reader:
    """The state of one reading: what was read, and whether a problem raises."""

    def __init__(self, strict: bool, row_word: str, places: Mapping[str, str]) -> None:
        self.inputs = Inputs()
        self.strict = strict
        self.row_word = row_word
        self.places = places

    def problem(self, sheet: str, number: int | None, what: str, why: str, then: str = "") -> None:
        """Record a problem (lenient: ``why``, then what was done: ``then``), or raise it."""
        if self.strict and what not in STOPPING:
            place = self.places.get(sheet, f"{sheet} sheet")
            where = f"{self.row_word} {number}: " if number is not None else ""
            raise FormatError(f"{place}: {where}{why}" if place else f"{where}{why}")
        self.inputs.problems.append(Problem(sheet, number, what, f"{why}: {then}" if then else why))

    def cell(self, sheet: _Sheet, number: int, header: str, what: str, why: object) -> None:
        self.problem(
            sheet.name, number, what, f"cell {sheet.ref(number, header)} ({header}): {why}"
        )

    def read_value(
        self,
        sheet: _Sheet,
        value: object,
        number: int,
        header: str,
        what: str,
        reader: Callable[[object], Any],
        then: str,
    ) -> Any:
        """The cell ``value`` under ``header`` of row ``number`` read by ``reader``; ``None``
        when blank or bad (a bad one is a problem: ``then`` says what is done)."""
        if value is None:
            return None
        try:
            return reader(value)
        except GradingError as error:
            where = f"cell {sheet.ref(number, header)} ({header}): {error}"
            self.problem(sheet.name, number, what, where, then)
            return None


def _check_headers(sheet: _Sheet, reader: _Reader) -> bool:
    """Check the header row: a missing required column, or a header not known but close to
    a known one, stops the run; another header mentioning a grade is listed as not read.
    Whether the table can be read at all (its required columns are there)."""
    groups = KNOWN_HEADERS[sheet.name]
    known = [h for group in groups for h in group]
    keys = {cells.header_key(h) for h in known}
    row = sheet.header_row + 1
    likely: dict[str, str] = {}
    for text in sheet.header:
        key = cells.header_key(text)
        if not key or key in keys:
            continue
        guess = next(filter(None, (cells.likely_header(text, group) for group in groups)), None)
        if guess is not None and not sheet.has(guess):
            likely[guess] = str(text)
            reader.problem(
                sheet.name,
                row,
                "unknown column",
                f"column {quote(str(text))} of the {sheet.name} header is not known: did you mean "
                f"{quote(guess)}? (read as it is, the column would be left out)",
            )
        elif any(word in key for word in _GRADE_WORDS):
            reader.problem(
                sheet.name,
                row,
                "column not read",
                f"column {quote(str(text))} of the {sheet.name} header is not read (the grades "
                f"read are {', '.join(repr(h) for h in known if 'grade' in h.lower())})",
            )
    missing = [h for h in REQUIRED_HEADERS[sheet.name] if not sheet.has(h)]
    for header in missing:
        if header in likely:
            continue  # said already, with the header that is probably it
        reader.problem(
            sheet.name,
            row,
            "missing column",
            f"no column headed {quote(header)} on the {sheet.name} sheet",
        )
    return not missing


def _read_settings(
    sheet: _Sheet, reader: _Reader, blanks: dict[str, tuple[int, str]]
) -> dict[str, object]:
    """The settings the table gives, by name; the rows of blank season dates in ``blanks``."""
    values: dict[str, object] = {}
    if not _check_headers(sheet, reader):
        return values
    for number, row in sheet.data():
        label = sheet.get(row, "Setting")
        if label is None:
            continue
        spec = settings.by_label(label)
        if spec is None or not spec.on_sheet:
            guess = settings.likely_label(label)
            hint = f": did you mean {quote(guess)}?" if guess else ""
            reader.problem(
                sheet.name, number, "unknown setting", f"setting {quote(label)} is not known{hint}"
            )
            continue
        value = sheet.get(row, "Value")
        if value is None and spec.name in ("season_start", "season_end"):
            # The season: worked out once the games are read.
            blanks[spec.name] = (number, sheet.ref(number, "Value"))
            continue
        try:
            values[spec.name] = settings.read_cell(spec, value)
        except GradingError as error:
            reader.cell(sheet, number, "Value", "bad setting", f"{error}: the default is used")
    return values


_NAME: Final = next(c for c in schema.PLAYERS_COLUMNS if c.attribute == "name")
_CODE: Final = next(c for c in schema.PLAYERS_COLUMNS if c.attribute == "code")
_CELLS: Final = tuple(
    c
    for c in schema.PLAYERS_COLUMNS
    if c not in (_NAME, _CODE) and "." not in c.attribute and c.kind != "text"
)
"""The Players columns read cell by cell (a cell that cannot be read is a problem)."""
_TEXTS: Final = tuple(c for c in schema.PLAYERS_COLUMNS if c != _NAME and c.kind == "text")
_SEASONS: Final = tuple(
    (season, tuple(c for c in schema.PLAYERS_COLUMNS if c.attribute.startswith(f"{season}.")))
    for season in ("previous", "earlier")
)
"""Each earlier season's totals (games, points), read together."""
_CELLS_AND_TEXTS: Final = _CELLS + _TEXTS


def _read_players(sheet: _Sheet, reader: _Reader) -> None:
    """The Players table, a player a row (:data:`xlgrade.schema.PLAYERS_COLUMNS`); an earlier
    season's totals read last, the two checked together. The cells are read a column at a
    time, each distinct cell once (:class:`_Column`), and the problems said a row at a time."""
    if not _check_headers(sheet, reader):
        return
    players = reader.inputs.players
    headers = schema.PLAYERS_HEADERS
    at = {column.header: index for index, column in enumerate(schema.PLAYERS_COLUMNS)}
    checked = (_CODE, *_CELLS, *(column for _, totals in _SEASONS for column in totals))
    readings = [(column, _Column(column.read, blank=None)) for column in checked]
    texts = [(column, _Column(cells.text)) for column in (_NAME, *_TEXTS)]
    name_at = at[_NAME.header]
    for first, values in sheet.columns_of(headers):
        nones = [map(operator.is_, column, _NONES) for column in values]
        rows = [i for i, row in enumerate(zip(*nones, strict=True)) if not all(row)]
        read: dict[str, list[Any]] = {}
        bad: dict[str, dict[int, GradingError]] = {}
        for column, reading in readings:
            read[column.attribute], errors = reading.read(values[at[column.header]])
            bad[column.attribute] = dict(errors)
        for column, reading in texts:
            read[column.attribute] = reading.read(values[at[column.header]])[0]
        names = values[name_at]
        faulty = set().union(*bad.values())
        for i in rows:
            player = _player(
                sheet, reader, first + i, names[i], i, read, bad if i in faulty else {}
            )
            if player is not None:
                players.append(player)


def _player(
    sheet: _Sheet,
    reader: _Reader,
    number: int,
    name: object,
    i: int,
    read: Mapping[str, Sequence[Any]],
    bad: Mapping[str, Mapping[int, GradingError]],
) -> Player | None:
    """Row ``number`` of the Players table (the ``i``-th of its block, whose columns are
    ``read``, the errors of those that could not be in ``bad``, which is empty for a row
    without any): the player, or ``None`` for a row without a name or code; each problem said
    in the order of the row's columns."""

    def said(column: schema.Column, then: str = "left out") -> bool:
        error = bad[column.attribute].get(i) if bad else None
        if error is not None:
            where = f"cell {sheet.ref(number, column.header)} ({column.header}): {error}"
            reader.problem(sheet.name, number, column.what, where, then)
        return error is not None

    said(_CODE)
    code = read[_CODE.attribute][i]
    values: dict[str, Any] = {"name": read[_NAME.attribute][i], "code": code}
    if name is None:
        where = f"cell {sheet.ref(number, _NAME.header)} ({_NAME.header}) is blank"
        if not code:
            reader.problem(sheet.name, number, _NAME.what, where)
            return None
        # His games name him by his code: he is kept, listed under it.
        values["name"] = cells.text(code)
        reader.problem(
            sheet.name, number, _NAME.what, where, f"listed under the code {quote(code)}"
        )
    if bad:
        for column in _CELLS:
            said(column)
    for column in _CELLS_AND_TEXTS:
        values[column.attribute] = read[column.attribute][i]
    for season, totals in _SEASONS:
        then = f"{season} season left out"
        unread = [said(column, then) for column in totals] if bad else ()
        got = [read[column.attribute][i] for column in totals]
        if got.count(None) == 1 and not any(unread):
            missing = totals[got.index(None)].header
            reader.problem(
                sheet.name,
                number,
                "incomplete season",
                f"cell {sheet.ref(number, missing)} ({missing}) is blank but "
                f"{season} season's other total is given",
                "that season left out",
            )
        values.update(zip((column.attribute for column in totals), got, strict=True))
    return schema.player_from(values, row=number)


def _read_results(sheet: _Sheet, reader: _Reader) -> None:
    """The Results table, a game a row (:data:`xlgrade.schema.RESULTS_COLUMNS`): a row with a
    blank required cell, or a cell that cannot be read (those of
    :data:`xlgrade.schema.RESULTS_CHECKED`, in that order), is a problem and no game.

    The table is read a column at a time (:meth:`_Sheet.columns_of`), each distinct cell of a
    column read once (:class:`_Column`); the problems are said a row at a time, in the order
    a row at a time would meet them, and strict, the first raises."""
    if not _check_headers(sheet, reader):
        return
    columns = schema.RESULTS_COLUMNS
    required = [(c.header, i) for i, c in enumerate(columns) if c.required]
    by_attribute = {c.attribute: (i, c) for i, c in enumerate(columns)}
    checked = [
        (i, c, _Column(c.read, blank=None))
        for i, c in map(by_attribute.__getitem__, schema.RESULTS_CHECKED)
    ]
    plain = [
        (i, _Column(c.read))
        for i, c in enumerate(columns)
        if c.attribute not in schema.RESULTS_CHECKED
    ]
    at = {c.attribute: i for i, c in enumerate(columns)}
    order = [at[name] for name in _GAME_FIELDS]
    games = reader.inputs.games
    for first, values in sheet.columns_of(schema.RESULTS_HEADERS):
        count = len(values[0])
        nones = [map(operator.is_, column, _NONES) for column in values]
        unblank = [not all(row) for row in zip(*nones, strict=True)]
        typed: list[list[Any]] = [[]] * len(columns)
        faults: dict[int, list[tuple[str, str, str]]] = {}
        for header, index in required:
            for i in itertools.compress(range(count), map(operator.is_, values[index], _NONES)):
                if unblank[i]:
                    where = f"cell {sheet.ref(first + i, header)} ({header}) is blank"
                    faults.setdefault(i, []).append(("incomplete row", where, ""))
        for index, column, reading in checked:
            typed[index], bad = reading.read(values[index])
            for i, error in bad:
                where = f"cell {sheet.ref(first + i, column.header)} ({column.header}): {error}"
                faults.setdefault(i, []).append((column.what, where, ""))
        for i in sorted(faults):
            for what, why, then in faults[i]:
                reader.problem(sheet.name, first + i, what, why, then)
        for index, reading in plain:
            typed[index] = reading.read(values[index])[0]
        keep = [u and i not in faults for i, u in enumerate(unblank)]
        made = [itertools.compress(typed[index], keep) for index in order]
        numbers = itertools.compress(range(first, first + count), keep)
        games.extend(map(Game, *made, numbers))


_NONES: Final = itertools.repeat(None)
"""``None`` for each cell of a column, to ask of each whether it is blank."""


class _Column:
    """The reading of one column's cells by ``read``, each distinct cell read once however
    many rows hold it (a column's cells are mostly a few texts: dates, results, boards). A
    cell that cannot be read gives its error; with ``blank``, a blank cell (``None``) is
    ``blank`` unread."""

    _UNSET: Final = object()

    def __init__(self, read: Callable[[object], Any], blank: object = _UNSET) -> None:
        self._read = read
        self._memo: dict[object, object] = {}
        if blank is not self._UNSET:
            self._memo[None] = blank

    def read(self, values: Sequence[object]) -> tuple[list[Any], list[tuple[int, GradingError]]]:
        """The cells read, in their order (``None`` for one that cannot be read), and the
        place and error of each that cannot."""
        keys: Sequence[object] = values
        if not set(map(type, values)) <= _TEXTS_OR_NONE:
            # 1, 1.0 and TRUE are equal keys: a cell is told apart by its type too.
            keys = [(type(v), v) for v in values]
        try:
            distinct = set(keys)
        except TypeError:  # a cell that cannot be a key: each read alone
            return self._each(values)
        memo = self._memo
        errors: set[object] = set()
        for key in distinct:
            if key not in memo:
                value = key[1] if isinstance(key, tuple) else key
                try:
                    memo[key] = self._read(value)
                except GradingError as error:
                    memo[key] = error
            if isinstance(memo[key], GradingError):
                errors.add(key)
        read = list(map(memo.__getitem__, keys))
        if not errors:
            return read, []
        bad = [(i, cast(GradingError, read[i])) for i, key in enumerate(keys) if key in errors]
        for i, _ in bad:
            read[i] = None
        return read, bad

    def _each(self, values: Sequence[object]) -> tuple[list[Any], list[tuple[int, GradingError]]]:
        """:meth:`read`, a cell at a time."""
        read: list[Any] = []
        bad: list[tuple[int, GradingError]] = []
        blank = self._memo.get(None, self._UNSET)
        for i, value in enumerate(values):
            if value is None and blank is not self._UNSET:
                read.append(blank)
                continue
            try:
                read.append(self._read(value))
            except GradingError as error:
                read.append(None)
                bad.append((i, error))
        return read, bad


_GAME_FIELDS: Final = tuple(f.name for f in fields(Game))[:-2]
"""The fields of :class:`~xlgrade.model.Game` a Results row fills, in their order: all but
the last two, ``row`` and ``league`` (a union's, :mod:`xlgrade.season.union`)."""


_DIVISION_READERS: Final[Mapping[str, Callable[[object], Any]]] = {
    "text": lambda value: cells.text(value) or None,
    "integer": cells.whole,
    "number": cells.number,
    "yes/no": cells.yes_no,
}
"""How each kind of Divisions column (:data:`xlgrade.teams.DIVISION_COLUMNS`) is read."""


def _read_divisions(sheet: _Sheet, reader: _Reader) -> None:
    """The Divisions table: a division's rules a row (:data:`xlgrade.teams.DIVISION_COLUMNS`;
    a blank cell is no such rule). A cell that cannot be read leaves that rule out; a row
    without a division, or whose rules do not go together, is left out; a division named twice
    keeps its first row: each said so, quoting the cell."""
    if not _check_headers(sheet, reader):
        return
    divisions = reader.inputs.divisions
    for number, row in sheet.data():
        if all(sheet.get(row, h) is None for h in schema.DIVISIONS_HEADERS):
            continue
        name = cells.text(sheet.get(row, "Division"))
        if not name:
            where = f"cell {sheet.ref(number, 'Division')} (Division) is blank"
            reader.problem(sheet.name, number, "incomplete row", where, "its rules are not used")
            continue
        rules: dict[str, Any] = {}
        for column in DIVISION_COLUMNS[1:]:
            read = _DIVISION_READERS[column.kind]
            value = reader.read_value(
                sheet,
                sheet.get(row, column.header),
                number,
                column.header,
                "bad rule",
                read,
                "not checked",
            )
            if value is not None:
                rules[column.field] = value
        try:
            division = Division(name, row=number, **rules)
        except GradingError as error:
            reader.problem(sheet.name, number, "bad division", str(error), "the row is not used")
            continue
        if name in divisions:
            first = divisions[name].row
            why = f"{quote(name)} is also on row {first}"
            reader.problem(
                sheet.name, number, "duplicate division", why, f"the rules of row {first} are used"
            )
            continue
        divisions[name] = division


def _cell_name(sheet: _Sheet, number: int, header: str) -> str:
    """A cell as a message names it: ``cell D3 (ECF rating)``."""
    return f"cell {sheet.ref(number, header)} ({header})"


def _read_ratings(sheet: _Sheet, reader: _Reader) -> None:
    """The Ratings table: a player's figures on one edition of the rating list a row
    (:func:`xlgrade.editions.listed_rating`). A row that cannot be read is left out, said so
    naming its cell and quoting it."""
    if not _check_headers(sheet, reader):
        return
    pick = sheet.picker(schema.RATINGS_HEADERS)
    for number, row in sheet.data():
        cells_of = dict(zip(schema.RATINGS_HEADERS, pick(row), strict=True))
        try:
            listed = listed_rating(cells_of, number, functools.partial(_cell_name, sheet, number))
        except GradingError as error:
            reader.problem(sheet.name, number, "bad rating row", str(error), "the row is not used")
            continue
        if listed is not None:
            reader.inputs.ratings.append(listed)


def _season(
    inputs: Inputs, values: dict[str, object], blanks: Mapping[str, tuple[int, str]], given: bool
) -> None:
    """Settle the season's dates (module docstring) and say so where they were not given
    (a note, strict or not: nothing is wrong)."""
    filled, season = settings.filled(values, [g.date for g in inputs.games])
    inputs.season = season
    inputs.settings = replace(Settings(), **filled)  # type: ignore[arg-type]
    if season is not None and blanks:
        # Both dates blank (the template's own cells): the season of the games, one note.
        refs = " and ".join(ref for _, ref in blanks.values())
        labels = " and ".join(settings.by_name(name).label for name in blanks)
        are, cell = ("are", "cells") if len(blanks) > 1 else ("is", "cell")
        inputs.problems.append(
            Problem(
                schema.SETTINGS,
                min(number for number, _ in blanks.values()),
                "season from the games",
                f"{labels} {are} blank ({cell} {refs}): {season.note}",
            )
        )
        return
    for name, (number, ref) in blanks.items():
        spec = settings.by_name(name)
        day = filled[name]
        assert isinstance(day, dt.date)
        if name == "season_start":
            why = ", a year before the season's end"
        else:
            why = ", a year after the season's start"
        inputs.problems.append(
            Problem(
                schema.SETTINGS,
                number,
                "blank setting",
                f"cell {ref} ({spec.label}) is blank: {day.isoformat()} is used{why}",
            )
        )
    if season is not None and season.dated and not blanks and given:
        inputs.problems.append(
            Problem(
                schema.SETTINGS,
                None,
                "season from the games",
                f"no season start or end is given: {season.note}",
            )
        )


def read_inputs(
    raw: Mapping[str, Sequence[Sequence[object]]],
    *,
    strict: bool = False,
    places: Mapping[str, str] | None = None,
    row_word: str = "row",
) -> Inputs:
    """Read the Settings, Players and Results tables' cells (header row first; row ``i`` of a
    table's list is row ``i + 1``), and the Divisions table's where there is one, leniently
    or strictly (module docstring). A missing table is a problem, not an error. ``places``
    and ``row_word`` name a table and its rows in a strict reader's error (``{"Players":
    "players.csv"}`` and ``"line"`` for a folder).

    Raises:
        FormatError: ``strict`` only, at the first cell that cannot be read.
    """
    with collector_paused():
        return _read_inputs(raw, _Reader(strict, row_word, places or {}))


def _read_inputs(raw: Mapping[str, Sequence[Sequence[object]]], reader: _Reader) -> Inputs:
    inputs = reader.inputs
    values: dict[str, object] = {}
    blanks: dict[str, tuple[int, str]] = {}
    settings_read = False
    for name in (schema.SETTINGS, schema.PLAYERS, schema.RESULTS):
        rows = raw.get(name)
        if rows is None:
            inputs.problems.append(
                Problem(name, None, "missing sheet", f"the book has no sheet named {quote(name)}")
            )
            continue
        sheet = _Sheet(name, rows)
        if name == schema.SETTINGS:
            values = _read_settings(sheet, reader, blanks)
            settings_read = all(sheet.has(h) for h in REQUIRED_HEADERS[name])
        elif name == schema.PLAYERS:
            _read_players(sheet, reader)
        else:
            _read_results(sheet, reader)
    if schema.DIVISIONS in raw:
        rows = raw[schema.DIVISIONS]
        _read_divisions(_Sheet(schema.DIVISIONS, rows), reader)
    if schema.RATINGS in raw:
        _read_ratings(_Sheet(schema.RATINGS, raw[schema.RATINGS]), reader)
    if schema.LINEUP in raw:
        rows = raw[schema.LINEUP]
        if any(not cells.blank(v) for row in rows for v in row):
            try:
                inputs.lineup = read_lineup(rows, f"the {schema.LINEUP} sheet")
            except FormatError as error:
                reader.problem(schema.LINEUP, None, "bad line-up", str(error), "not checked")
    _season(inputs, values, blanks, settings_read)
    return inputs


def read_table(
    sheet: str, rows: Iterable[Sequence[object]], *, strict: bool = True, place: str = ""
) -> Inputs:
    """One Players or Results table alone (a CSV file), rows numbered as lines: its players
    or games and, lenient, its problems. ``place`` names it in a strict reader's error. The
    rows are read once, in order, as the table reads them (a CSV file's from the file).

    Raises:
        FormatError: ``strict``, at the first cell that cannot be read.
        HeaderError: a header stops the run (module docstring).
    """
    reader = _Reader(strict, "line", {sheet: place})
    with collector_paused():
        table = _Sheet(sheet, rows)
        (_read_players if sheet == schema.PLAYERS else _read_results)(table, reader)
    stopped = reader.inputs.stopped
    if stopped:
        found = "; ".join(f"line {p.row}: {p.why}" for p in stopped)
        raise HeaderError(f"{place}: {found}" if place else found)
    return reader.inputs


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's garbage collector while a table is read, and start it again after
    (if it was running). A reading makes millions of small objects and frees none, and each
    of the collector's passes over them meanwhile would find nothing to free."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


class _Spaced(dict[object, object]):
    """Each text of a sheet with its spaces made single (``None`` for only spaces), made once
    however many cells hold it (a player's name is in many rows); ``None`` is ``None``."""

    def __init__(self) -> None:
        super().__init__({None: None})

    def __missing__(self, text: object) -> object:
        spaced = self[text] = " ".join(str(text).split()) or None
        return spaced


def _cleaned_row(row: Sequence[object], spaced: _Spaced) -> list[object]:
    """The cells of ``row`` with the spaces of each text made single, ``None`` for a blank one
    (only spaces; NaN too)."""
    return [
        spaced[v] if isinstance(v, str) else None if type(v) is float and v != v else v for v in row
    ]


def _cleaned_column(column: Sequence[object], spaced: _Spaced) -> list[object]:
    """The cells of a column as :func:`_cleaned_row` cleans them, each distinct text once (a
    column of texts, a CSV file's, is cleaned by dictionary look-ups alone)."""
    if set(map(type, column)) <= _TEXTS_OR_NONE:
        for text in set(column).difference(spaced):
            spaced[text] = spaced.__missing__(text)
        return list(map(spaced.get, column))
    return _cleaned_row(column, spaced)


_TEXTS_OR_NONE: Final = frozenset({str, type(None)})
