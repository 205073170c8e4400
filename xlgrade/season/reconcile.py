"""A rated season reconciled with the ECF's published rating list (docs/rules.md §14).

For every player with rated games this season, or with a code on the list: whether the
figure xlgrade rated for the list's edition equals the list's, and when it does not, the
likely reason, tried in this order (the first that holds is given):

1. **No code**, or **a code not on the list**: the list may have him under another code —
   a list player whose name agrees (:func:`xlgrade.names.name_agreement`, the same name or
   initials) and whose club is his is named ("known by another code").
2. **The list's name is not his** for his code: the code may be another player's.
3. **The list's edition does not match the dates**: the list's figure is xlgrade's figure
   after another month of the season (the list is of another month than the one
   given, or the season's months are not the list's).
4. **Late results**: the list's other figure (revised when the original was compared, or the
   other way round) equals xlgrade's.
5. **A category that differs** (the same figure, another category; or another category and
   with it another method or nominal, P against K).
6. **No rating**: the Players table gives him none at the start and xlgrade rated none.
7. **Games**: he has no rated game here and the list's figure is not his start (the ECF has
   games the league does not); his start is the list's figure and he has games here (the
   league has games the ECF has not rated); else the games differ.

The figure compared for the list of month M is xlgrade's rating at the start of M (after
the months before it: the ECF's list of the 1st of a month takes the games of the months
before), and the category the list of that day gives him.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from xlgrade import ecf_rating as er
from xlgrade._rounding import quote
from xlgrade.errors import GradingError
from xlgrade.names import INITIALS, SAME_NAME, canonical_code, name_agreement, split_name
from xlgrade.season.checks import STANDARD
from xlgrade.season.result import SeasonResult
from xlgrade.season.tables import Table

__all__ = [
    "RECONCILE_HEADERS",
    "ListedPlayer",
    "Reconciled",
    "reconcile",
]

RECONCILE_HEADERS: Final = (
    "Code", "Name", "Club", "Games", "xlgrade rating", "xlgrade category", "List name",
    "List rating", "List category", "Equal", "Likely reason",
)  # fmt: skip
"""The columns of the reconciliation's report."""
EQUAL: Final = "equal"


@dataclass(frozen=True)
class ListedPlayer:
    """One player of the ECF's rating list, as the reconciliation needs him.

    Attributes:
        code: his ECF code (canonical).
        name: as the list writes it.
        club: the list's club name ("" for none).
        rating, category: the figure compared (original or revised) and its category.
        other, other_category: the list's other figure (revised or original).
        line: the list's line, for messages.
    """

    code: str
    name: str
    club: str
    rating: int | None
    category: str | None
    other: int | None = None
    other_category: str | None = None
    line: int | None = None


@dataclass(frozen=True)
class Reconciled:
    """The reconciliation: a row a player (:data:`RECONCILE_HEADERS`) and a count."""

    table: Table
    equal: int
    differ: int
    by_reason: Mapping[str, int]

    def summary(self) -> str:
        """``"12 players compared: 9 equal, 3 differ (2 games differ, 1 another code)"``."""
        reasons = ", ".join(f"{n} {why}" for why, n in sorted(self.by_reason.items()))
        return (
            f"{self.equal + self.differ} players compared: {self.equal} equal, {self.differ} "
            f"differ{f' ({reasons})' if reasons else ''}"
        )


def reconcile(
    season: SeasonResult,
    listed: Sequence[ListedPlayer],
    edition: dt.date,
    kind: str = STANDARD,
) -> Reconciled:
    """Compare the rated ``season`` with the ECF's list of the month of ``edition``
    (module description).

    Raises:
        GradingError: the season is not rated (the setting System).
    """
    if not season.rated:
        raise GradingError(
            f"the season is graded ({season.settings.system}): a reconciliation with the ECF's "
            "rating list needs the setting System to be 'ECF rating (2020 rules)'"
        )
    rated = season.rated[kind]
    month = er.month_index(edition)
    states = [rated.start, *(r.state for r in rated.results)]
    at = [s for s in states if s.month <= month] or [rated.start]
    state = at[-1]
    ratings, categories = state.rating, state.categories()
    games = rated.games
    by_code = {entry.code: entry for entry in listed}
    by_surname: dict[str, list[ListedPlayer]] = {}
    for each in listed:
        by_surname.setdefault(split_name(each.name).key[0], []).append(each)
    rows: list[tuple[object, ...]] = []
    counts: dict[str, int] = {}
    equal = 0
    for i, player in enumerate(season.players):
        code = canonical_code(season.codes[i] or player.code)
        entry: ListedPlayer | None = by_code.get(code) if code else None
        if entry is None and not games[i]:
            continue  # nothing of his to compare
        ours = None if np.isnan(ratings[i]) else int(ratings[i])
        our_category = str(categories[i]) or None
        if entry is not None and entry.rating == ours and (entry.category or None) == our_category:
            reason = EQUAL
        else:
            reason = _reason(i, player.name, player.club, code, entry, ours, our_category,
                             state, states, by_surname, int(games[i]))  # fmt: skip
        key = EQUAL if reason == EQUAL else reason.split(":")[0]
        if reason == EQUAL:
            equal += 1
        else:
            counts[key] = counts.get(key, 0) + 1
        rows.append((
            code, player.name, player.club or None, int(games[i]), ours, our_category,
            entry.name if entry else None, entry.rating if entry else None,
            entry.category if entry else None, "yes" if reason == EQUAL else "no",
            None if reason == EQUAL else reason,
        ))  # fmt: skip
    return Reconciled(Table(RECONCILE_HEADERS, rows), equal, sum(counts.values()), counts)


def _reason(
    i: int,
    name: str,
    club: str,
    code: str | None,
    entry: ListedPlayer | None,
    ours: int | None,
    our_category: str | None,
    compared: er.RatingState,
    states: list[er.RatingState],
    by_surname: Mapping[str, list[ListedPlayer]],
    games: int,
) -> str:
    """The likely reason xlgrade's figure is not the list's (module description)."""
    if entry is None:
        found = [
            e
            for e in by_surname.get(split_name(name).key[0], [])
            if name_agreement(name, e.name) in (SAME_NAME, INITIALS)
            and e.code != code
            and (not club or not e.club or club.casefold() == e.club.casefold())
        ]
        said = "no code" if code is None else f"code {code} is not on the list"
        if len(found) == 1:
            e = found[0]
            return (
                f"another code: {said}; the list has {quote(e.name)} of {quote(e.club)} as "
                f"{e.code} (rating {e.rating})"
            )
        return f"not on the list: {said}" + (
            f"; {len(found)} list players of that name" if found else ""
        )
    if not name_agreement(name, entry.name):
        return (
            f"another player's code: the list's name for {entry.code} is {quote(entry.name)}, "
            f"not {quote(name)}"
        )
    for state in states[1:] if entry.rating != ours else ():  # after each month
        figure = state.rating[i]
        known = state is not compared and entry.rating is not None and not np.isnan(figure)
        if known and int(figure) == entry.rating:
            return (
                f"list edition: the list's {entry.rating} is xlgrade's rating at the start "
                f"of {er.month_start(state.month).isoformat()[:7]}: the list's month is not "
                "the one given, or its months are not the season's"
            )
    if entry.other is not None and entry.other == ours:
        return (
            f"late results: the list's other figure, {entry.other}, is xlgrade's; results "
            "reported late are in the revised figure"
        )
    if entry.rating == ours:
        return (
            f"category differs: the list has {entry.category or 'none'}, xlgrade "
            f"{our_category or 'none'}"
        )
    if (entry.category or None) != our_category and "P" in {entry.category, our_category}:
        return (
            f"category differs: the list has {entry.category or 'none'}, xlgrade "
            f"{our_category or 'none'}: a P (partial) rating is worked with a nominal "
            "opponent, a K rating by the K method"
        )
    start = states[0].rating[i]
    started = None if np.isnan(start) else int(start)
    if ours is None and started is None:
        return (
            "no rating: the Players table gives him no ECF rating at the start of the season "
            "and xlgrade rated him no figure by the list's month (`xlgrade ratings` fills the "
            "start from the list of the season's start)"
        )
    if not games and entry.rating != started:
        return (
            f"games differ: no rated game here, and the list's {entry.rating} is not his "
            f"start ({started}): the ECF has games the league does not"
        )
    if games and entry.rating == started:
        return (
            f"games differ: the list's {entry.rating} is his rating at the start of the "
            f"season: the league has {games} games the list has not rated (not reported to "
            "the ECF, or the list is older than them)"
        )
    return (
        f"games differ: xlgrade rated {games} games here; the ECF's games for him are not "
        "the league's (games elsewhere, or games it did not rate)"
    )
