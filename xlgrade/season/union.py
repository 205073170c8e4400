"""Many leagues' seasons graded as one: a union's (or county's) list (docs/rules.md §14).

The grading chain passes each league's results to the union, which publishes one list "at
union, county or league level" and in the categories each asks for; "if a player cannot be
definitely identified, his results cannot be graded" (the BCF's grading leaflet). The steps:

1. **Each league's references** are resolved in the league's own Players table
   (:class:`~xlgrade.season.references.PlayerIndex`, as one league's season resolves them): a
   row naming no player of its league is listed under the league's Results, with its reason.
2. **One person across leagues** (§14's rule, :func:`xlgrade.names.name_agreement`): the
   grader's decisions first; then the ECF code; then, for a player with no code, his name,
   club and date of birth. Every join says whom it joined and why (:class:`Join`); every
   player the rule cannot decide is listed with the rows he holds back (:class:`Undecided`),
   and none of those rows is graded.
3. **The same game once**: a game two leagues report on the same day is one game (the
   season's duplicate step, :func:`xlgrade.season.duplicates.mark_duplicates`, naming both
   leagues' rows), its colours checked; two reports of one match on different days are
   listed as a conflict, neither graded.
4. **The season**: every league's rows, each keeping its league (:attr:`Game.league`), are
   graded (or rated) as one season by :func:`xlgrade.season.run.recalculate`, so that every
   player's games from every league are on his card.

The work is one pass over the rows and the players, with dictionaries keyed by code and
surname: it grows with the rows, not with the number of leagues.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

import numpy as np

from xlgrade._rounding import quote
from xlgrade.codes import ecf_codes_valid
from xlgrade.errors import GradingError
from xlgrade.model import Game, Player, Problem
from xlgrade.names import (
    FORENAME_LEFT_OUT,
    INITIALS,
    SAME_NAME,
    canonical_code,
    key_agreement,
    name_agreement,
    split_name,
    surname_fold,
)
from xlgrade.season.checks import STANDARD
from xlgrade.season.reconcile import ListedPlayer
from xlgrade.season.references import PlayerIndex, name_key
from xlgrade.season.result import SeasonResult
from xlgrade.season.run import collector_paused, recalculate
from xlgrade.season.shared import Fail, IntArray
from xlgrade.season.tables import Table
from xlgrade.settings import Settings

__all__ = [
    "ECF_LIST",
    "IDENTITY_HEADERS",
    "JOIN_HEADERS",
    "NOT_IDENTIFIED",
    "SCOPES",
    "UNDECIDED_HEADERS",
    "Decision",
    "Join",
    "LeagueSeason",
    "Member",
    "Undecided",
    "UnionSeason",
    "grade_union",
]

ECF_LIST: Final = "ECF list"
"""The "league" a decision names for the ECF's rating list: ``Decision(…, ECF_LIST, code,
same=True)`` says the player is the list's player of that code."""
NOT_IDENTIFIED: Final = "player not identified"
"""The reason of a row held back because one of its players is not yet identified."""
REPORTS_DISAGREE: Final = "reports disagree"
"""The reason of two leagues' reports of one match that give it different days."""
SCOPES: Final = ("union", "county", "league", "club")
"""The scopes a union's list is published at."""
IDENTITY_HEADERS: Final = ("League", "Player", "Other league", "Other player", "Decision")
"""The columns of a union's decisions (``identities.csv``): a player of a league (his code or
his name as that league's Players table has it), the other, and ``same`` or ``different``."""
JOIN_HEADERS: Final = ("Player", "League", "Row", "Name", "Code", "Club", "Why")
"""The columns of the joins' table: the union's player and each league's row joined in him."""
UNDECIDED_HEADERS: Final = (
    "League", "Row", "Name", "Code", "Club", "Why", "Candidates", "Rows held back",
)  # fmt: skip
"""The columns of the table of players the rule cannot decide."""


@dataclass(frozen=True)
class LeagueSeason:
    """One league's season as its reader gave it.

    Attributes:
        name: the league's name in the union (unique, not blank).
        players: its Players table.
        games: its result rows.
        problems: what its reader could not read, on its own sheets (``"Results"``…).
        settings: its settings (``None``: the defaults).
        county: the county it belongs to, for a county's list (``""``: none named).
    """

    name: str
    players: Sequence[Player]
    games: Sequence[Game]
    problems: Sequence[Problem] = ()
    settings: Settings | None = None
    county: str = ""


@dataclass(frozen=True)
class Decision:
    """A grader's decision on two players (``identities.csv``, a row of the union's book).

    Attributes:
        league: the first player's league.
        player: his code or name as his league's Players table has it.
        other_league: the other's league, or :data:`ECF_LIST` for the ECF's rating list.
        other_player: the other's code or name (a code on the ECF's list).
        same: they are one person (``False``: two).
        row: the decision's row, for messages.
    """

    league: str
    player: str
    other_league: str
    other_player: str
    same: bool
    row: int | None = None


@dataclass(frozen=True)
class Member:
    """One league's Players row, as the union knows it.

    Attributes:
        league: the league's name.
        row: the row of its Players table.
        name, code, club: as that row has them.
    """

    league: str
    row: int | None
    name: str
    code: str
    club: str

    def words(self) -> str:
        """``'Smith, John' of 'Redmire' (Northfield Players row 12)``."""
        club = f" of {quote(self.club)}" if self.club else ""
        return f"{quote(self.name)}{club} ({self.league} Players row {self.row})"


@dataclass(frozen=True)
class Join:
    """Two or more leagues' rows taken as one person, and why.

    Attributes:
        player: the union's player (his index in :attr:`SeasonResult.players`).
        members: each league's row, the first the one his record is taken from.
        why: for each member after the first, why it is the first's player.
        first_why: anything said of the first (his code taken from the ECF's list).
    """

    player: int
    members: tuple[Member, ...]
    why: tuple[str, ...]
    first_why: str = ""


@dataclass(frozen=True)
class Undecided:
    """A league's player the rule cannot decide: nothing of his is graded until the grader
    decides.

    Attributes:
        member: his league's row.
        why: what the rule found.
        candidates: the other leagues' players he may be.
        held: the result rows held back, as (league, row).
    """

    member: Member
    why: str
    candidates: tuple[Member, ...]
    held: tuple[tuple[str, int | None], ...] = ()


@dataclass(frozen=True)
class UnionSeason:
    """A union's season: the leagues' seasons graded as one.

    Attributes:
        leagues: the leagues, in the order given.
        result: the season graded (or rated) as one; its players are the union's persons.
        members: for each of the union's players, the leagues' rows he is.
        joins: every join of two or more leagues' rows.
        undecided: every player the rule could not decide.
    """

    leagues: tuple[LeagueSeason, ...]
    result: SeasonResult
    members: tuple[tuple[Member, ...], ...]
    joins: tuple[Join, ...]
    undecided: tuple[Undecided, ...]
    _played: dict[str, set[int]] = field(default_factory=dict, repr=False)

    def leagues_of(self, player: int) -> tuple[str, ...]:
        """The leagues whose Players tables have the union's ``player``."""
        return tuple(dict.fromkeys(m.league for m in self.members[player]))

    def list_table(
        self,
        kind: str = STANDARD,
        scope: str = "union",
        name: str = "",
        categories: Sequence[str] = (),
    ) -> Table:
        """The list published at ``scope`` (:data:`SCOPES`): the whole union; a county's
        leagues' players (``name`` the county); a league's players (those on its Players
        table); a club's (``name`` the club, as any league's row of the player names it). Only
        the ``categories`` given (none: every category the list publishes). A column
        ``Leagues`` names the leagues each player is in.

        Raises:
            GradingError: an unknown scope, or a county, league or club that is not the
                union's.
        """
        table = self.result.list_table(kind)
        keep = self._scope_players(scope, name)
        by_name = {p.name: i for i, p in enumerate(self.result.players)}
        name_at = table.headers.index("Name")
        wanted = {c.strip().upper() for c in categories if c.strip()}
        at = table.headers.index("Category")
        rows = []
        for row in table.rows:
            player = by_name[str(row[name_at])]
            if keep is not None and player not in keep:
                continue
            if wanted and str(row[at]).upper() not in wanted:
                continue
            rows.append((*row, ", ".join(self.leagues_of(player))))
        return Table((*table.headers, "Leagues"), rows)

    def _scope_players(self, scope: str, name: str) -> set[int] | None:
        if scope not in SCOPES:
            raise GradingError(f"scope {quote(scope)} is none of {', '.join(map(quote, SCOPES))}")
        if scope == "union":
            return None
        wanted = _fold(name)
        if scope == "county":
            chosen = {lg.name for lg in self.leagues if _fold(lg.county) == wanted}
            if not chosen:
                counties = sorted({lg.county for lg in self.leagues if lg.county})
                raise GradingError(
                    f"no league of the union is in the county {quote(name)} (counties: "
                    f"{', '.join(map(quote, counties)) or 'none named'})"
                )
        elif scope == "league":
            chosen = {lg.name for lg in self.leagues if _fold(lg.name) == wanted}
            if not chosen:
                names = ", ".join(quote(lg.name) for lg in self.leagues)
                raise GradingError(f"no league of the union is called {quote(name)} ({names})")
        else:
            found = {
                i
                for i, members in enumerate(self.members)
                if any(_fold(m.club) == wanted for m in members)
            }
            if not found:
                raise GradingError(f"no player of the union is of the club {quote(name)}")
            return found
        return {
            i for i, members in enumerate(self.members) if any(m.league in chosen for m in members)
        }

    def joins_table(self) -> Table:
        """Every join: a row for each league's row of each joined player (:data:`JOIN_HEADERS`)."""
        rows: list[tuple[object, ...]] = []
        for join in self.joins:
            union_name = self.result.players[join.player].name
            taken = "the player's record is taken from this row"
            whys = (f"{join.first_why}; {taken}" if join.first_why else taken, *join.why)
            for member, why in zip(join.members, whys, strict=True):
                rows.append(
                    (union_name, member.league, member.row, member.name, member.code or None,
                     member.club or None, why)
                )  # fmt: skip
        return Table(JOIN_HEADERS, rows)

    def undecided_table(self) -> Table:
        """Every player the rule could not decide (:data:`UNDECIDED_HEADERS`)."""
        rows: list[tuple[object, ...]] = []
        for each in self.undecided:
            m = each.member
            held = "; ".join(f"{league} row {row}" for league, row in each.held)
            rows.append(
                (m.league, m.row, m.name, m.code or None, m.club or None, each.why,
                 "; ".join(c.words() for c in each.candidates) or None, held or "none")
            )  # fmt: skip
        return Table(UNDECIDED_HEADERS, rows)


def grade_union(
    leagues: Sequence[LeagueSeason],
    decisions: Sequence[Decision] = (),
    settings: Settings | None = None,
    listed: Sequence[ListedPlayer] | None = None,
) -> UnionSeason:
    """Grade the ``leagues`` as one season (the steps of the module's description).

    Args:
        leagues: each league's season, in the order their rows are to be taken (a person's
            record is taken from his first league's row that has a grade).
        decisions: the grader's decisions, applied before the rule.
        settings: the union's settings; ``None``: the first league's.
        listed: the ECF's rating list, when given (:class:`ListedPlayer`): a code whose
            list name is not the league's name is not decided, and a row with no code whose
            name and club are those of one list player takes his code (§14).

    Raises:
        GradingError: no league, a league with no name, two leagues of one name.
    """
    if not leagues:
        raise GradingError("a union needs at least one league")
    seen: set[str] = set()
    for league in leagues:
        if not league.name.strip():
            raise GradingError("a league of the union has no name")
        if _fold(league.name) in seen:
            raise GradingError(f"two leagues of the union are called {quote(league.name)}")
        seen.add(_fold(league.name))
    with collector_paused():  # as one league's season is worked out (xlgrade.season.run)
        return _grade_union(leagues, decisions, settings, listed or ())


def _grade_union(
    leagues: Sequence[LeagueSeason],
    decisions: Sequence[Decision],
    settings: Settings | None,
    listed: Sequence[ListedPlayer],
) -> UnionSeason:
    people = _People(leagues, {entry.code: entry for entry in listed})
    problems: list[Problem] = []
    problems.extend(people.apply(decisions))
    people.codes_from_list()
    people.join_codes()
    people.join_names()
    players, references = people.union_players()
    games, held_problems, held = _union_games(leagues, people, references)
    problems.extend(held_problems)
    problems.extend(people.league_problems())
    problems.extend(people.differences(players))
    chosen = settings if settings is not None else leagues[0].settings
    problems.extend(_season_notes(leagues, chosen))
    result = recalculate(players, games, chosen, problems)
    undecided = tuple(
        Undecided(people.members[g], why, tuple(people.members[c] for c in cands),
                  tuple(held.get(people.root(g), ())))
        for g, (why, cands) in people.undecided.items()
    )  # fmt: skip
    return UnionSeason(tuple(leagues), result, people.person_members(), people.joins(), undecided)


def _ordinal(day: object) -> int:
    """A date's ordinal, 0 for none."""
    return day.toordinal() if isinstance(day, dt.date) else 0


def _fold(text: str) -> str:
    """Case, full stops and spaces ignored: how clubs, counties and leagues are compared."""
    return " ".join(text.casefold().replace(".", " ").split())


def _initial(key: tuple[str, tuple[str, ...]]) -> str:
    """The first forename's first letter of a name's key (``""`` for none)."""
    return key[1][0][:1] if key[1] else ""


class _People:
    """The leagues' Players rows as union's persons: a union-find over every row."""

    def __init__(self, leagues: Sequence[LeagueSeason], listed: Mapping[str, ListedPlayer]) -> None:
        self.leagues = leagues
        self.listed = listed
        self.indexes = [PlayerIndex(lg.players) for lg in leagues]
        sizes = [len(lg.players) for lg in leagues]
        self.starts = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).tolist()
        self.league_of: list[int] = [k for k, n in enumerate(sizes) for _ in range(n)]
        self.players: list[Player] = [p for lg in leagues for p in lg.players]
        self.members = [
            Member(leagues[k].name, p.row, p.name, (p.code or "").strip(), p.club.strip())
            for k, p in zip(self.league_of, self.players, strict=True)
        ]
        self.codes = self._valid_codes()
        # Each name read once (:func:`split_name`), each club folded once.
        split: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.keys = [
            split.get(m.name) or split.setdefault(m.name, split_name(m.name).key)
            for m in self.members
        ]
        self.surnames = [surname_fold(key[0]) for key in self.keys]
        self.clubs = [_fold(m.club) for m in self.members]
        self.parent = list(range(len(self.players)))
        self.group: dict[int, list[int]] = {g: [g] for g in self.parent}
        self.leagues_in: dict[int, set[int]] = {g: {k} for g, k in enumerate(self.league_of)}
        self.why: dict[int, str] = {}  # a joined row: why it is its person's
        self.undecided: dict[int, tuple[str, list[int]]] = {}
        self.different: set[tuple[int, int]] = set()
        self.decided: set[int] = set()
        self.listed_ok: set[int] = set()
        self.from_list: dict[int, str] = {}  # a row given its code by the ECF's list: why
        self.dropped_code: set[int] = set()
        self.problems: list[Problem] = []

    def _valid_codes(self) -> list[str | None]:
        """Each row's valid code (:func:`canonical_code`), from its league's index: the codes
        checked column by column, only the others one by one."""
        out: list[str | None] = []
        for lg, index in zip(self.leagues, self.indexes, strict=True):
            typed = [(p.code or "").strip() for p in lg.players]
            valid = ecf_codes_valid(typed).tolist()
            out.extend(
                index.canonical[i] if ok else (canonical_code(typed[i]) if typed[i] else None)
                for i, ok in enumerate(valid)
            )
        return out

    # -- the union-find ------------------------------------------------------------------
    def root(self, g: int) -> int:
        parent = self.parent
        while parent[g] != g:
            parent[g] = parent[parent[g]]
            g = parent[g]
        return g

    def _leagues(self, root: int) -> set[int]:
        return self.leagues_in[root]

    def _join(self, a: int, b: int, why: str) -> bool:
        """Join ``b``'s person to ``a``'s; refused (``False``) when that would make one
        person of two rows of one league, or of two the grader said are two."""
        ra, rb = self.root(a), self.root(b)
        if ra == rb:
            return True
        if self.leagues_in[ra] & self.leagues_in[rb]:
            return False
        group_a, group_b = self.group[ra], self.group[rb]
        if self.different and any(
            (min(x, y), max(x, y)) in self.different for x in group_a for y in group_b
        ):
            return False
        first, second = (ra, rb) if ra < rb else (rb, ra)
        self.parent[second] = first
        self.group[first] = sorted(self.group[first] + self.group.pop(second))
        self.leagues_in[first] |= self.leagues_in.pop(second)
        # Said on both rows: the joins list it on whichever is not his person's first row.
        self.why.setdefault(a, why)
        self.why[b] = why
        return True

    # -- the grader's decisions ------------------------------------------------------------
    def _find(self, league: str, reference: str) -> int | str:
        """The row of ``league`` that ``reference`` names, or why none."""
        for k, lg in enumerate(self.leagues):
            if _fold(lg.name) == _fold(league):
                found = self.indexes[k].resolve(reference)
                if isinstance(found, Fail):
                    return f"{league}: {found.why}"
                return int(self.starts[k]) + found
        names = ", ".join(quote(lg.name) for lg in self.leagues)
        return f"no league of the union is called {quote(league)} ({names})"

    def apply(self, decisions: Sequence[Decision]) -> list[Problem]:
        """The grader's decisions: each joins two rows, keeps them apart, or takes a row as
        the ECF list's player of a code; one that names no player is listed."""
        out: list[Problem] = []
        for decision in decisions:
            a = self._find(decision.league, decision.player)
            if isinstance(a, str):
                out.append(Problem("Identities", decision.row, "decision not applied", a))
                continue
            if _fold(decision.other_league) == _fold(ECF_LIST):
                code = canonical_code(decision.other_player)
                if code is None or (self.codes[a] not in (None, code)):
                    out.append(Problem(
                        "Identities", decision.row, "decision not applied",
                        f"{quote(decision.other_player)} is not {self.members[a].words()}'s "
                        "ECF code",
                    ))  # fmt: skip
                    continue
                self.listed_ok.add(a)
                self.decided.add(a)
                continue
            b = self._find(decision.other_league, decision.other_player)
            if isinstance(b, str):
                out.append(Problem("Identities", decision.row, "decision not applied", b))
                continue
            self.decided.update((a, b))
            if not decision.same:
                self.different.add((min(a, b), max(a, b)))
                continue
            where = f"the grader's decision (Identities row {decision.row})"
            if not self._join(a, b, where):
                out.append(Problem(
                    "Identities", decision.row, "decision not applied",
                    f"{self.members[a].words()} and {self.members[b].words()} cannot be one "
                    "player: that would make one player of two rows of one league, or of "
                    "two the grader said are two",
                ))  # fmt: skip
        return out

    # -- the rule: the ECF's list ------------------------------------------------------------
    def codes_from_list(self) -> None:
        """A row with no code takes the code of the one list player whose name agrees with
        his (the same name or initials) and whose club is his (§14), when his league has no
        row of that code already."""
        if not self.listed:
            return
        by_name: dict[tuple[str, str], list[ListedPlayer]] = defaultdict(list)
        for entry in self.listed.values():
            key = split_name(entry.name).key
            by_name[surname_fold(key[0]), _initial(key)].append(entry)
        for g, member in enumerate(self.members):
            if member.code or not self.clubs[g] or g in self.decided:
                continue
            fits = [
                e
                for e in by_name.get((self.surnames[g], _initial(self.keys[g])), [])
                if key_agreement(self.keys[g], split_name(e.name).key) in (SAME_NAME, INITIALS)
                and _fold(e.club) == self.clubs[g]
            ]
            k = self.league_of[g]
            if len(fits) == 1 and fits[0].code not in self.indexes[k].codes:
                entry = fits[0]
                self.codes[g] = entry.code
                self.from_list[g] = (
                    f"no code; {quote(entry.name)} of {quote(entry.club)} on the ECF's list "
                    f"(line {entry.line}) has his name and club: {entry.code}"
                )

    # -- the rule: codes -------------------------------------------------------------------
    def join_codes(self) -> None:
        """Rows with one valid ECF code are one person when their names agree (§14)."""
        by_code: dict[str, list[int]] = defaultdict(list)
        for g, code in enumerate(self.codes):
            k = self.league_of[g]
            # A code twice in one league is the league's own problem: its first row has it.
            if code and (
                g in self.from_list or self.indexes[k].codes.get(code) == g - self.starts[k]
            ):
                by_code[code].append(g)
        for code, rows in by_code.items():
            entry = self.listed.get(code)
            if entry is not None:
                for g in rows:
                    if g not in self.listed_ok and not name_agreement(
                        self.members[g].name, entry.name
                    ):
                        self.undecided[g] = (
                            f"code {code} is {quote(entry.name)} on the ECF's list, not "
                            f"{quote(self.members[g].name)}",
                            [],
                        )
            if len(rows) < 2:
                continue
            first = rows[0]
            kept = [g for g in rows[1:] if (min(first, g), max(first, g)) not in self.different]
            self.dropped_code.update(g for g in rows[1:] if g not in kept)
            agreeing = {g: key_agreement(self.keys[first], self.keys[g]) for g in kept}
            disagree = [g for g in kept if not agreeing[g] and self.root(g) != self.root(first)]
            if disagree:
                names = ", ".join(self.members[g].words() for g in [first, *kept])
                for g in [first, *kept]:
                    if g not in self.decided:
                        others = [h for h in [first, *kept] if h != g]
                        self.undecided[g] = (f"one code {code} on two names: {names}", others)
                continue
            for g in kept:
                how = agreeing[g]
                listed = f" ({self.from_list[g]})" if g in self.from_list else ""
                self._join(first, g, f"ECF code {code}{listed}, the names agree ({how})")

    # -- the rule: names -------------------------------------------------------------------
    def join_names(self) -> None:
        """A row with no code: the player of another league whose name, club and date of
        birth fit, when exactly one does (§14); else not decided."""
        # The rows that can fit or be a doubt: those of the surname and the first initial
        # (the same name or initials), and those of the surname and the club (a forename
        # left out, a surname alone): a common surname's thousands are not each compared.
        by_initial: dict[tuple[str, str], list[int]] = defaultdict(list)
        by_club: dict[tuple[str, str], list[int]] = defaultdict(list)
        for g, surname in enumerate(self.surnames):
            by_initial[surname, _initial(self.keys[g])].append(g)
            if self.clubs[g]:
                by_club[surname, self.clubs[g]].append(g)
        # Same full name and club, no code, one row a league: one person, however many
        # leagues (so that three leagues' "Smith, John" of one club are one, not three
        # candidates for each other).
        exact: dict[tuple[object, ...], list[int]] = defaultdict(list)
        for g, member in enumerate(self.members):
            if self.codes[g] is None and member.club and g not in self.decided:
                exact[(self.keys[g], self.clubs[g])].append(g)
        for rows in exact.values():
            for g in rows[1:]:
                if not self._born_apart(rows[0], g):
                    self._join(rows[0], g, "the same name and club, no code")
        for g, member in enumerate(self.members):
            if self.codes[g] is not None or g in self.decided or g in self.undecided:
                continue
            surname = self.surnames[g]
            pool = by_initial[surname, _initial(self.keys[g])]
            if self.clubs[g]:
                pool = sorted({*pool, *by_club[surname, self.clubs[g]]})
            self._by_name(g, member, pool)

    def _born_apart(self, g: int, h: int) -> bool:
        """Both rows give a date of birth, and not the same one: two people."""
        born, other = self.players[g].date_of_birth, self.players[h].date_of_birth
        return bool(born and other and born != other)

    def _by_name(self, g: int, member: Member, same_surname: list[int]) -> None:
        own = self.root(g)
        own_leagues = self._leagues(own)
        fits: dict[int, tuple[str, int]] = {}
        doubts: dict[int, tuple[str, int]] = {}
        for h in same_surname:
            root = self.root(h)
            if root == own or self.league_of[h] in own_leagues:
                continue
            if (min(g, h), max(g, h)) in self.different or root in fits:
                continue
            other = self.members[h]
            if self._born_apart(g, h):
                continue  # two dates of birth: two people
            born, born_other = self.players[g].date_of_birth, self.players[h].date_of_birth
            agreement = key_agreement(self.keys[g], self.keys[h])
            same_club = bool(self.clubs[g] and self.clubs[g] == self.clubs[h])
            if agreement in (SAME_NAME, INITIALS) and born and born == born_other:
                fits[root] = (f"the names agree ({agreement}) and the same date of birth", h)
            elif agreement in (SAME_NAME, INITIALS) and same_club:
                fits[root] = (f"the names agree ({agreement}) and the same club", h)
            elif agreement == SAME_NAME and not (member.club and other.club):
                fits[root] = ("the same name; no club to tell them apart", h)
            elif agreement in (SAME_NAME, INITIALS):
                doubts[root] = (f"the names agree ({agreement}) but the clubs differ", h)
            elif agreement == FORENAME_LEFT_OUT and same_club:
                doubts[root] = ("the names agree only with a forename left out", h)
            elif agreement and same_club:
                doubts[root] = (f"the names agree only as far as the {agreement}", h)
        for root in fits:
            doubts.pop(root, None)
        if len(fits) == 1 and not doubts:
            ((why, h),) = fits.values()
            if self._join(h, g, why):
                return
        if not fits and not doubts:
            return
        candidates = [h for _, h in [*fits.values(), *doubts.values()]]
        if len(fits) + len(doubts) > 1:
            why = f"{len(fits) + len(doubts)} players of other leagues may be this one"
        else:
            why = next(iter(doubts.values()))[0]
        self.undecided[g] = (f"{why}: not decided", candidates)

    # -- the union's players -----------------------------------------------------------
    def union_players(self) -> tuple[list[Player], list[str]]:
        """One Player a person, in the order of each's first row; and the reference that
        names him in the union's rows (his code, else his name, made unique)."""
        roots = [self.root(g) for g in range(len(self.parent))]
        order = list(dict.fromkeys(roots))
        self.person_of = np.empty(len(roots), dtype=np.int64)
        position = {root: i for i, root in enumerate(order)}
        self.person_of[:] = [position[r] for r in roots]
        groups: list[list[int]] = [[] for _ in order]
        for g, root in enumerate(roots):
            groups[position[root]].append(g)
        self.groups = groups
        chosen = []
        for rows in groups:
            graded = [g for g in rows if self.players[g].grade is not None]
            chosen.append((graded or rows)[0])
        codes = []
        for rows in groups:
            found = [self.codes[g] for g in rows if self.codes[g] and g not in self.dropped_code]
            codes.append(found[0] if found else None)
        names = [self.players[g].name for g in chosen]
        keys = [name_key(n) for n in names]
        clubs = [self.clubs[g] for g in chosen]
        by_name: dict[str, int] = defaultdict(int)
        by_club: dict[tuple[str, str], int] = defaultdict(int)
        for key, club in zip(keys, clubs, strict=True):
            by_name[key] += 1
            by_club[key, club] += 1
        out: list[Player] = []
        references: list[str] = []
        for i, g in enumerate(chosen):
            name = names[i]
            if by_name[keys[i]] > 1:  # two of one name in the union: told apart
                member = self.members[g]
                where = [member.club] if member.club else []
                if not where or by_club[keys[i], clubs[i]] > 1:
                    where.append(member.league)
                    if by_club[keys[i], clubs[i]] > 1:  # two rows of one league, alike
                        where[-1] = f"{member.league} row {member.row}"
                name = f"{name} ({', '.join(where)})"
            player = replace(self.players[g], name=name, code=codes[i], row=i + 2)
            out.append(player)
            references.append(codes[i] or name)
        return out, references

    def person_members(self) -> tuple[tuple[Member, ...], ...]:
        return tuple(tuple(self.members[g] for g in rows) for rows in self.groups)

    def joins(self) -> tuple[Join, ...]:
        """Every person of two or more rows, and every row given its code by the ECF's list."""
        out = []
        for i, rows in enumerate(self.groups):
            if len(rows) > 1 or rows[0] in self.from_list:
                whys = tuple(self.why.get(g, "joined with the rows above") for g in rows[1:])
                first = self.from_list.get(rows[0], "")
                out.append(Join(i, tuple(self.members[g] for g in rows), whys, first))
        return tuple(out)

    def league_problems(self) -> list[Problem]:
        """Each league's reader's problems and its Players table's (a bad code, a code
        twice, two players of one name and club), named by the league's sheets."""
        out: list[Problem] = []
        for lg, index in zip(self.leagues, self.indexes, strict=True):
            out.extend(_in_league(lg.name, p) for p in lg.problems)
            out.extend(_in_league(lg.name, p) for p in index.problems)
        return out

    def differences(self, players: Sequence[Player]) -> list[Problem]:
        """A person whose leagues' rows give different grades: the first's is used."""
        out = []
        for i, rows in enumerate(self.groups):
            grades = {self.players[g].grade for g in rows if self.players[g].grade is not None}
            if len(grades) > 1:
                first = next(g for g in rows if self.players[g].grade is not None)
                given = ", ".join(
                    f"{self.members[g].league} {self.players[g].grade:g}"
                    for g in rows
                    if self.players[g].grade is not None
                )
                out.append(Problem(
                    "Players", players[i].row, "grades differ",
                    f"{quote(players[i].name)} has different grades in his leagues ({given}): "
                    f"{self.members[first].league}'s is used",
                ))  # fmt: skip
        return out


def _in_league(league: str, problem: Problem) -> Problem:
    """A league's problem named by its league's sheet (``"Northfield Results"``)."""
    return problem._replace(sheet=f"{league} {problem.sheet}")


def _union_games(
    leagues: Sequence[LeagueSeason], people: _People, references: list[str]
) -> tuple[list[Game], list[Problem], dict[int, list[tuple[str, int | None]]]]:
    """Every league's rows with its players' union references; the rows not taken (a
    reference its league cannot resolve, a player not decided, two reports of one match on
    different days), each a problem on its league's Results; and the rows each undecided
    person holds back.

    Column by column: each league's references are looked up at once
    (:meth:`PlayerIndex.indices`), its rows' persons and the undecided among them are numpy
    columns, and only the rows not taken, and the rows of pairs that two leagues both report,
    are looked at one by one.
    """
    problems: list[Problem] = []
    held: dict[int, list[tuple[str, int | None]]] = defaultdict(list)
    person_of = people.person_of
    persons = len(references)
    stuck_person = np.zeros(persons + 1, dtype=np.bool_)  # the last: no player
    undecided_of: dict[int, int] = {}
    for g in people.undecided:
        stuck_person[int(person_of[g])] = True
        undecided_of[int(person_of[g])] = g
    named = {p: people.members[g].words() for p, g in undecided_of.items()}
    refs = np.array([*references, ""], dtype=object)
    kept: list[tuple[int, LeagueSeason, IntArray, IntArray, IntArray]] = []
    for k, league in enumerate(leagues):
        index = people.indexes[k]
        home, home_fail = index.indices([g.home for g in league.games])
        away, away_fail = index.indices([g.away for g in league.games])
        start = people.starts[k]
        sheet = f"{league.name} Results"
        failed = np.zeros(len(league.games), dtype=np.bool_)
        for j in sorted(home_fail.keys() | away_fail.keys()):
            fail = home_fail.get(j) or away_fail[j]
            problems.append(Problem(sheet, league.games[j].row, fail.what, fail.why))
            failed[j] = True
        pw = np.where(failed, persons, person_of[np.where(failed, 0, home + start)])
        pb = np.where(failed, persons, person_of[np.where(failed, 0, away + start)])
        stuck = ~failed & (stuck_person[pw] | stuck_person[pb])
        for j in np.flatnonzero(stuck).tolist():
            game = league.games[j]
            who = [int(p) for p in (pw[j], pb[j]) if stuck_person[p]]
            for p in who:
                held[p].append((league.name, game.row))
            words = " and ".join(map(named.__getitem__, who))
            problems.append(Problem(
                sheet, game.row, NOT_IDENTIFIED,
                f"{words} is not yet identified across the leagues (see Undecided): not "
                "graded until the grader decides",
            ))  # fmt: skip
        taken = np.flatnonzero(~failed & ~stuck)
        kept.append((k, league, taken, pw[taken], pb[taken]))
    conflicted = _days_disagree(kept, problems)
    games: list[Game] = []
    for k, league, taken, pw, pb in kept:
        name, rows = league.name, league.games
        drop = conflicted.get(k)
        if drop is not None:
            keep = ~np.isin(taken, np.fromiter(drop, np.int64, len(drop)))
            taken, pw, pb = taken[keep], pw[keep], pb[keep]
        games.extend(
            Game(home, away, g.result, g.date, g.event, g.match, g.board, g.time_control,
                 g.row, name)
            for g, home, away in zip(
                map(rows.__getitem__, taken.tolist()), refs[pw].tolist(), refs[pb].tolist(),
                strict=True,
            )
        )  # fmt: skip
    # The held rows, by the undecided player's first row (:class:`Undecided` reads them so).
    return games, problems, {people.root(undecided_of[p]): rows for p, rows in held.items()}


def _days_disagree(
    kept: list[tuple[int, LeagueSeason, IntArray, IntArray, IntArray]], problems: list[Problem]
) -> dict[int, set[int]]:
    """Two leagues' reports of one match (the same two players and the same match text) on
    different days: both listed as :data:`REPORTS_DISAGREE`, neither taken. Only the rows of
    pairs that two leagues both have, on two days or more, are looked at one by one.
    Returns each league's rows not taken."""
    if len(kept) < 2:
        return {}
    pairs, owners = [], []
    for k, _, _, pw, pb in kept:
        low, high = np.minimum(pw, pb), np.maximum(pw, pb)
        pairs.append(low * (1 << 32) + high)
        owners.append(np.full(low.size, k, dtype=np.int64))
    if not sum(p.size for p in pairs):
        return {}
    # Each pair as a number below the rows' count, so that keys built on it cannot overflow.
    _, pair = np.unique(np.concatenate(pairs), return_inverse=True)
    pair = pair.reshape(-1).astype(np.int64)
    owner = np.concatenate(owners)
    leagues = len(kept)
    distinct = np.unique(pair * leagues + owner) // leagues  # each pair once a league
    values, counts = np.unique(distinct, return_counts=True)
    chosen = np.flatnonzero(np.isin(pair, values[counts > 1]))
    if chosen.size == 0:
        return {}
    # Of those, only the pairs played on two days or more can disagree on the day.
    starts = np.cumsum([0] + [taken.size for _, _, taken, _, _ in kept])
    at = np.searchsorted(starts, chosen, side="right") - 1
    days = np.fromiter(
        (_ordinal(kept[k][1].games[int(kept[k][2][i - starts[k]])].date)
         for k, i in zip(at.tolist(), chosen.tolist(), strict=True)),
        np.int64, chosen.size,
    )  # fmt: skip
    days -= days.min()
    seen, count = np.unique(np.unique(pair[chosen] * (1 << 20) + days) >> 20, return_counts=True)
    shared = seen[count > 1]
    if shared.size == 0:
        return {}
    # The rows of each match (pair and match text) that two leagues both report.
    groups: dict[tuple[int, str], list[tuple[int, int]]] = defaultdict(list)
    offset = 0
    for k, league, taken, _, _ in kept:
        mine = pair[offset : offset + taken.size]
        offset += taken.size
        for position in np.flatnonzero(np.isin(mine, shared)).tolist():
            row = int(taken[position])
            game = league.games[row]
            match = _fold(game.match)
            if match and game.date is not None:
                groups[int(mine[position]), match].append((k, row))
    out: dict[int, set[int]] = defaultdict(set)
    for rows in groups.values():
        _one_match(kept, rows, problems, out)
    return out


def _one_match(
    kept: list[tuple[int, LeagueSeason, IntArray, IntArray, IntArray]],
    rows: list[tuple[int, int]],
    problems: list[Problem],
    out: dict[int, set[int]],
) -> None:
    """One match's reports by two leagues or more: a report on a day no other league has is
    unmatched; when two leagues each have one, those reports disagree on the day (whatever
    the order of the leagues: a league reporting a second meeting the other does not is no
    conflict)."""
    days: dict[int, set[dt.date]] = defaultdict(set)
    for k, row in rows:
        day = kept[k][1].games[row].date
        assert day is not None
        days[k].add(day)
    if len(days) < 2:
        return
    unmatched = [
        (k, row)
        for k, row in rows
        if not any(kept[k][1].games[row].date in d for other, d in days.items() if other != k)
    ]
    if len({k for k, _ in unmatched}) < 2:
        return
    first = kept[unmatched[0][0]][1].games[unmatched[0][1]]
    said = " and ".join(
        f"{kept[k][1].name} row {kept[k][1].games[row].row} on {kept[k][1].games[row].date}"
        for k, row in unmatched
    )
    why = (
        f"the match {quote(first.match)} is {said}: one game on two days; not graded until "
        "one is corrected"
    )
    for k, row in unmatched:
        league = kept[k][1]
        problems.append(
            Problem(f"{league.name} Results", league.games[row].row, REPORTS_DISAGREE, why)
        )
        out[k].add(row)


def _season_notes(leagues: Sequence[LeagueSeason], chosen: Settings | None) -> list[Problem]:
    """A note when the leagues' seasons are not the union's."""
    if chosen is None:
        return []
    out = []
    for lg in leagues:
        s = lg.settings
        if s is not None and (s.season_start, s.season_end) != (
            chosen.season_start,
            chosen.season_end,
        ):
            out.append(Problem(
                "Leagues", None, "season differs",
                f"{lg.name}'s season is {s.season_start} to {s.season_end}; the union grades "
                f"{chosen.season_start} to {chosen.season_end}",
            ))  # fmt: skip
    return out
