"""The editions of the ECF rating list a league has loaded, and which one a rule takes.

The ECF publishes its rating list monthly; a league that loads each month's list
(``xlgrade ratings LIST --into BOOK``) keeps every player's figures per edition on its
``Ratings`` sheet (``ratings.csv`` in a folder), one row a player and edition
(:data:`RATINGS_HEADERS`). A division's rules take their figure from the list it names
(docs/rules.md §13, "the list used (fixed for eligibility, possibly live for board order)"):

- a fixed edition, ``September 2025`` (``2025-09``): Croydon's "the September list";
- ``match date``: the list in force on the match's date, the edition of the latest month that
  has begun by then. Croydon: "the live monthly rating used to determine board order"; Devon:
  board order by "the ones most recently published before the match". The ECF issues a month's
  list on its first day (its rating help: the original rating "is copied from the Revised
  Rating published on the first day of the stated month"), so a match on 1 January is played
  under January's list (a decision: the handbooks say no more).

A player not on an edition has no rating in it (a list extract that leaves him out, or a new
player): the rule's next figure, then his estimate, is used, as for any player without one.

>>> history = RatingHistory.of([ListedRating("123456A", dt.date(2025, 9, 1), 1850.0),
...                             ListedRating("123456A", dt.date(2026, 1, 1), 1780.0)])
>>> history.in_force(dt.date(2025, 9, 20)), history.in_force(dt.date(2026, 1, 1))
(datetime.date(2025, 9, 1), datetime.date(2026, 1, 1))
>>> history.rating("123456a", dt.date(2026, 1, 1))
1780.0
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from xlgrade import cells
from xlgrade._rounding import quote
from xlgrade.errors import GradingError, SettingError

__all__ = [
    "MATCH_DATE",
    "RATINGS_HEADERS",
    "ListChoice",
    "ListedRating",
    "RatingHistory",
    "edition_for",
    "edition_name",
    "list_choice",
    "listed_rating",
]

MATCH_DATE: Final = "match date"
"""A division's list choice for the list in force on each match's date."""
_MATCH_WORDS: Final = frozenset({"match date", "in force", "live", "latest", "on the match date"})

RATINGS_HEADERS: Final = (
    "Code",
    "Name",
    "List",
    "ECF rating",
    "ECF category",
    "ECF rapid rating",
    "ECF rapid category",
)
"""The Ratings sheet's (``ratings.csv``'s) columns: a player's ECF code and name, the edition
(``List``, its month: ``2025-09``), and his figures on it as the Players table names them."""
RATINGS_REQUIRED: Final = ("Code", "List")
"""The columns every Ratings row needs."""

ListChoice = dt.date | Literal["match date"]
"""A division's list: a fixed edition (its month's first day), or :data:`MATCH_DATE`."""


def edition_name(month: dt.date) -> str:
    """An edition as a breach names it: ``September 2025``.

    >>> edition_name(dt.date(2025, 9, 1))
    'September 2025'
    """
    return f"{month:%B %Y}"


def list_choice(text: str) -> ListChoice:
    """A Divisions ``Rating list`` cell read: ``match date`` (also ``in force``, ``live``,
    ``latest``), or an edition's month (``2025-09``, ``Sep 2025``, ``September 2025``).

    >>> list_choice("September 2025"), list_choice("Match date")
    (datetime.date(2025, 9, 1), 'match date')

    Raises:
        SettingError: neither, quoting it.
    """
    words = " ".join(text.split()).casefold()
    if words in _MATCH_WORDS:
        return MATCH_DATE
    try:
        month = cells.month(text)
    except GradingError:
        month = None
    if month is None:
        raise SettingError(
            f"list {quote(text)} is neither 'match date' (the list in force on the match's "
            "date) nor an edition's month such as 'September 2025' or '2025-09'"
        )
    return month


@dataclass(frozen=True, slots=True)
class ListedRating:
    """One player's figures on one edition of the rating list: a Ratings row.

    Attributes:
        code: his ECF code.
        month: the edition, as its month's first day.
        rating, category: his standard rating and its category (A, K, P) on it.
        rapid_rating, rapid_category: the rapidplay ones.
        name: his name, as the row gives it.
        row: the input row, for messages.
    """

    code: str
    month: dt.date
    rating: float | None = None
    category: str | None = None
    rapid_rating: float | None = None
    rapid_category: str | None = None
    name: str = ""
    row: int | None = None


def listed_rating(
    cell: Mapping[str, object],
    row: int | None = None,
    where: Callable[[str], str] = lambda header: header,
) -> ListedRating | None:
    """A Ratings row read from its cells by header (:data:`RATINGS_HEADERS`; missing headers
    are blank), each cell by :mod:`xlgrade.cells`' one reading of it; ``None`` for a blank row.
    ``where(header)`` names a cell in a message (``cell D3 (ECF rating)``).

    Raises:
        GradingError: a cell that cannot be read, or a row without a code or a list, naming
            the cell and quoting it.
    """
    if all(cells.blank(cell.get(h)) for h in RATINGS_HEADERS):
        return None
    code = "".join(cells.text(cell.get("Code")).split()).upper()
    for header, value in (("Code", code), ("List", cell.get("List"))):
        if cells.blank(value):
            raise GradingError(f"{where(header)} is blank: a Ratings row names a player and a list")
    values: dict[str, object] = {}
    for header, read in (
        ("List", cells.month),
        ("ECF rating", cells.rating),
        ("ECF category", cells.rating_category),
        ("ECF rapid rating", cells.rating),
        ("ECF rapid category", cells.rating_category),
    ):
        try:
            values[header] = read(cell.get(header))
        except GradingError as error:
            raise GradingError(f"{where(header)}: {error}") from None
    month = values["List"]
    assert isinstance(month, dt.date)
    return ListedRating(
        code,
        month,
        values["ECF rating"],  # type: ignore[arg-type]
        values["ECF category"],  # type: ignore[arg-type]
        values["ECF rapid rating"],  # type: ignore[arg-type]
        values["ECF rapid category"],  # type: ignore[arg-type]
        cells.text(cell.get("Name")),
        row,
    )


def _code_key(code: str) -> str:
    """An ECF code as compared: spaces dropped, upper case."""
    return "".join(code.split()).upper()


@dataclass(frozen=True)
class RatingHistory:
    """The editions a league has loaded: each player's figures by edition and ECF code.

    Attributes:
        months: the editions, oldest first.
        by_month: each edition's rows by ECF code (upper case, no spaces).
    """

    months: tuple[dt.date, ...]
    by_month: Mapping[dt.date, Mapping[str, ListedRating]]

    @classmethod
    def of(cls, rows: Sequence[ListedRating]) -> RatingHistory:
        """The history of these rows; a player given twice in one edition keeps his last row
        (a list loaded again replaces its rows)."""
        by_month: dict[dt.date, dict[str, ListedRating]] = {}
        for row in rows:
            by_month.setdefault(row.month, {})[_code_key(row.code)] = row
        return cls(tuple(sorted(by_month)), by_month)

    def __bool__(self) -> bool:
        return bool(self.months)

    def in_force(self, day: dt.date) -> dt.date | None:
        """The edition in force on ``day``: the latest whose month has begun (``None``: the
        first loaded is later)."""
        at = bisect.bisect_right(self.months, day) - 1
        return self.months[at] if at >= 0 else None

    def edition(self, choice: ListChoice, day: dt.date | None) -> dt.date | None:
        """The edition ``choice`` takes for a match on ``day`` (``None``: none loaded is, or
        an undated match under ``match date``)."""
        if choice == MATCH_DATE:
            return None if day is None else self.in_force(day)
        assert isinstance(choice, dt.date)
        return choice if choice in self.by_month else None

    def entry(self, code: str | None, month: dt.date) -> ListedRating | None:
        """The row of the player of ``code`` in the edition ``month`` (``None``: not on it)."""
        if not code:
            return None
        return self.by_month.get(month, {}).get(_code_key(code))

    def rating(self, code: str | None, month: dt.date, rapid: bool = False) -> float | None:
        """The player's standard (``rapid``: rapidplay) rating on the edition ``month``."""
        found = self.entry(code, month)
        if found is None:
            return None
        return found.rapid_rating if rapid else found.rating

    def loaded(self) -> str:
        """The editions loaded, in words: ``September 2025, January 2026`` (``none``)."""
        return ", ".join(edition_name(m) for m in self.months) or "none"


def edition_for(history: RatingHistory, cell: object) -> dt.date:
    """The edition a cell names, as a division's list does: a date (a date cell, a serial
    number, ``20/09/2025``) is the edition in force on it; a month (``September 2025``,
    ``2025-09``) that edition.

    Raises:
        GradingError: neither, or no such edition loaded, quoting the cell and naming those
            loaded.
    """
    month: dt.date | None = None
    if isinstance(cell, str):
        try:
            choice = list_choice(cell)
        except SettingError:
            choice = None
        if choice == MATCH_DATE:
            raise GradingError(
                f"{cells.quote(cell)}: give the match's date, the list in force on it"
            )
        month = choice if isinstance(choice, dt.date) else None
    if month is None:
        try:
            day = cells.date(cell)
        except GradingError:
            raise GradingError(
                f"{cells.quote(cell)} is neither a date (the list in force on it) nor an edition's "
                "month such as 'September 2025'"
            ) from None
        if day is None:
            raise GradingError("the list is blank: give a date or an edition's month")
        month = history.in_force(day)
        if month is None:
            raise GradingError(
                f"no list loaded was in force on {day.isoformat()} (loaded: {history.loaded()})"
            )
        return month
    if month not in history.by_month:
        raise GradingError(
            f"the {edition_name(month)} list is not in the ratings (loaded: {history.loaded()})"
        )
    return month
