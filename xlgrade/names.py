"""The same player in many files or leagues: match by ECF code, then by name; report likely
duplicates.

Files name players in different ways: the ECF writes "Surname, Forenames", pairing programs
"Lastname,Firstname", league sheets "John A Smith" or "SMITH J A". The rules here:

* An ECF grading reference code whose check letter is right (docs/rules.md §8, checked by
  :func:`xlgrade.convert.parse_ecf_code`) identifies a player outright.
* Otherwise names are compared after normalising: accents, case, full stops and extra spaces
  do not count; the surname is the part before a comma, or — without a comma — the first
  word when the rest are initials ("SMITH J A") or when the first word alone is in capitals
  ("SMITH John"), else the last word ("John A Smith").
* The same surname and the same forenames is a match; the same surname with forenames that
  agree as far as they go, an initial standing for any name it begins ("J A" for "John
  Andrew"), is a match only where exactly one player fits (a decision: "where
  unambiguous"). A player whose valid code differs from the candidate's is never matched by
  name, nor one whose club is named and differs from the candidate's (a namesake at another
  club is another person until the grader says otherwise).
* Nothing is merged silently: :func:`match_players` says how each player matched (or why
  not), and :func:`likely_duplicates` lists pairs for the grader to confirm.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from xlgrade._rounding import quote
from xlgrade.convert import ecf_code_valid, parse_ecf_code
from xlgrade.model import Player

__all__ = [
    "Duplicate",
    "Match",
    "PersonName",
    "canonical_code",
    "key_agreement",
    "likely_duplicates",
    "match_players",
    "name_agreement",
    "names_compatible",
    "split_name",
    "surname_fold",
]


@dataclass(frozen=True)
class PersonName:
    """A name split into surname and forenames, as written.

    Attributes:
        surname: the surname as written ("Sarabia Utrilla").
        forenames: each forename or initial as written (("John", "A")).
    """

    surname: str
    forenames: tuple[str, ...]

    @property
    def ecf_form(self) -> str:
        """The form of the ECF results submission file: "Surname, Forenames"."""
        return f"{self.surname}, {' '.join(self.forenames)}" if self.forenames else self.surname

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """Surname and forenames normalised (:func:`_fold`): equal keys are the same name."""
        return _fold(self.surname), tuple(_fold(f) for f in self.forenames)


@dataclass(frozen=True)
class Match:
    """How one incoming player was matched to the known players.

    Attributes:
        incoming: the player from the file being read.
        known: the known player he is, or ``None``.
        how: ``"code"``, ``"name"`` (same full name), ``"initials"`` (compatible names, one
            candidate), or ``"none"``.
        candidates: the known players whose names fit when more than one did (``how`` is
            then ``"none"``: the grader decides).
        note: anything the grader should know (a code with a wrong check letter…).
    """

    incoming: Player
    known: Player | None
    how: str
    candidates: tuple[Player, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Duplicate:
    """Two players who may be one, for the grader to confirm.

    Attributes:
        first: one player.
        second: the other.
        why: what makes them look the same.
    """

    first: Player
    second: Player
    why: str


def split_name(name: str) -> PersonName:
    """Split a name into surname and forenames by the rules of this module's docstring."""
    text = " ".join(name.replace(".", ". ").split())
    if "," in text:
        surname, _, rest = text.partition(",")
        return PersonName(surname.strip(), _words(rest))
    words = text.split(" ")
    if len(words) <= 1:
        return PersonName(text, ())
    others = words[1:]
    first = words[0].rstrip(".")
    all_initials = all(len(w.rstrip(".")) == 1 for w in others)
    capital_surname = first.isupper() and len(first) > 1 and not all(w.isupper() for w in others)
    if len(first) > 1 and (all_initials or capital_surname):
        return PersonName(first, _words(" ".join(others)))
    return PersonName(words[-1], _words(" ".join(words[:-1])))


def names_compatible(a: str, b: str) -> bool:
    """Whether two names may be the same person: same surname, and forenames that agree as far
    as both go, an initial standing for any name it begins."""
    x, y = split_name(a).key, split_name(b).key
    if x[0] != y[0] or not x[0]:
        return False
    return all(_forename_fits(p, q) for p, q in zip(x[1], y[1], strict=False))


SAME_NAME = "same name"
"""Surname and forenames alike (case, accents, full stops, hyphens and apostrophes ignored)."""
INITIALS = "initials"
"""The forenames agree as far as both go, an initial standing for any name it begins."""
FORENAME_LEFT_OUT = "a forename left out"
"""One name's forenames are the other's in their order, with some left out ("James" of
"NO'D James")."""
SURNAME_ONLY = "surname only"
"""The same surname, and one of the names has no forename."""


def name_agreement(a: str, b: str) -> str:
    """How far two names can be one person's (docs/rules.md §14): :data:`SAME_NAME`,
    :data:`INITIALS`, :data:`FORENAME_LEFT_OUT` or :data:`SURNAME_ONLY`, the closest that
    holds; ``""`` when the surnames differ or the forenames disagree.

    The surnames are compared with hyphens, apostrophes and spaces left out as well
    ("Pitts-Tucker" is "Pitts Tucker").

    >>> name_agreement("Adrian Elwin", "Elwin, Adrian G")
    'initials'
    >>> name_agreement("James Alexander", "Alexander, NO'D James")
    'a forename left out'
    >>> name_agreement("Olajide Mabogunje", "Mabogunje, Ayomide David")
    ''
    """
    return key_agreement(split_name(a).key, split_name(b).key)


def key_agreement(x: tuple[str, tuple[str, ...]], y: tuple[str, tuple[str, ...]]) -> str:
    """:func:`name_agreement` of two names' keys (:attr:`PersonName.key`), for a caller that
    compares one name with many and splits each once."""
    surname = surname_fold(x[0])
    if not surname or surname != surname_fold(y[0]):
        return ""
    if not x[1] or not y[1]:
        return SURNAME_ONLY
    if x[1] == y[1]:
        return SAME_NAME
    if all(_forename_fits(p, q) for p, q in zip(x[1], y[1], strict=False)):
        return INITIALS
    short, long = (x[1], y[1]) if len(x[1]) <= len(y[1]) else (y[1], x[1])
    rest = iter(long)
    if all(any(_forename_fits(p, q) for q in rest) for p in short):
        return FORENAME_LEFT_OUT
    return ""


def surname_fold(folded: str) -> str:
    """A folded surname (:attr:`PersonName.key`) with hyphens, apostrophes and spaces left
    out: how :func:`name_agreement` compares surnames."""
    return folded.translate(_SURNAME_MARKS)


_SURNAME_MARKS: Final = str.maketrans(dict.fromkeys("-'\u2019 "))


def canonical_code(code: str | None) -> str | None:
    """The ECF code in its canonical form if it is valid (check letter verified), else ``None``."""
    if not code or not ecf_code_valid(code):
        return None
    return parse_ecf_code(code)


def match_players(known: Sequence[Player], incoming: Sequence[Player]) -> tuple[Match, ...]:
    """Match each incoming player to at most one known player: by valid ECF code, then by the
    same full name, then by a compatible name where only one fits (module docstring)."""
    by_code: dict[str, list[Player]] = {}
    by_surname: dict[str, list[Player]] = {}
    for player in known:
        code = canonical_code(player.code)
        if code:
            by_code.setdefault(code, []).append(player)
        by_surname.setdefault(split_name(player.name).key[0], []).append(player)
    matches: list[Match] = []
    for player in incoming:
        note = ""
        code = canonical_code(player.code)
        if player.code and code is None:
            note = f"ECF code {quote(player.code)} is not valid (check letter); matched by name"
        if code and len(by_code.get(code, [])) == 1:
            matches.append(Match(player, by_code[code][0], "code", (), note))
            continue
        key = split_name(player.name).key
        pool = [
            k
            for k in by_surname.get(key[0], [])
            if not (code and canonical_code(k.code) and canonical_code(k.code) != code)
        ]
        exact = [k for k in pool if split_name(k.name).key == key]
        if len(exact) > 1 and player.club:
            exact = [k for k in exact if _fold(k.club) == _fold(player.club)] or exact
        fits = exact or [k for k in pool if names_compatible(k.name, player.name)]
        # Two clubs named, and different: another person of the same name, not matched.
        clubs = [k for k in fits if not _clubs_differ(k, player)]
        if len(fits) == 1 and clubs:
            how = "name" if exact else "initials"
            matches.append(Match(player, fits[0], how, (), note))
            continue
        if len(fits) == 1:
            other = fits[0]
            why = (
                f"{quote(other.name)} of {quote(other.club)} fits, but this player is of "
                f"{quote(player.club)}"
            )
            note = (note + "; " if note else "") + f"{why}: not matched"
        elif len(fits) > 1:
            note = (note + "; " if note else "") + f"{len(fits)} players fit: not matched"
        matches.append(Match(player, None, "none", tuple(fits), note))
    return tuple(matches)


def _clubs_differ(known: Player, incoming: Player) -> bool:
    """Whether both players name a club and the clubs are not the same."""
    return bool(known.club and incoming.club and _fold(known.club) != _fold(incoming.club))


def likely_duplicates(players: Sequence[Player]) -> tuple[Duplicate, ...]:
    """Pairs of players who may be one: the same name and club with different (or missing) ECF
    codes; names that differ only by initials standing for forenames, or by one letter of the
    surname with the same forenames. Players with the same valid code are one player already
    and are listed too ("same ECF code"). Compared within the same first forename initial.

    Only the pairs that can have a reason are compared: those that share a valid code, a
    surname (the same name, or names that differ by initials), or, with the same forenames, a
    surname once a letter is left out of one or both (two surnames one letter apart share
    one: "Smith" and "Smyth" both give "Smth", "Smith" and "Smiths" give "Smith"). So the work
    grows with the players and the pairs found, not with the square of the list (2,000 names
    compared pair by pair took 31 s)."""
    blocks: dict[tuple[object, ...], list[int]] = {}
    initials: list[str] = []
    for index, player in enumerate(players):
        surname, forenames = split_name(player.name).key
        initials.append(forenames[0][:1] if forenames else "")
        keys: list[tuple[object, ...]] = []
        if code := canonical_code(player.code):
            keys.append(("code", code))
        if surname:
            keys.append(("surname", surname))
            if forenames:
                keys.extend(
                    ("letter", forenames, surname[:at] + surname[at + 1 :])
                    for at in range(len(surname))
                )
                keys.append(("letter", forenames, surname))
        for key in dict.fromkeys(keys):  # once each: "Allan" less either "l" is "Alan"
            blocks.setdefault(key, []).append(index)
    candidates: set[tuple[int, int]] = set()
    for members in blocks.values():
        for a, i in enumerate(members):
            candidates.update((i, j) for j in members[a + 1 :] if initials[i] == initials[j])
    found: list[Duplicate] = []
    for i, j in sorted(candidates):
        why = _duplicate_reason(players[i], players[j])
        if why:
            found.append(Duplicate(players[i], players[j], why))
    return tuple(found)


def _duplicate_reason(p: Player, q: Player) -> str:
    """Why two players look like one, or ``""``."""
    pc, qc = canonical_code(p.code), canonical_code(q.code)
    if pc and pc == qc:
        return "same ECF code"
    pk, qk = split_name(p.name).key, split_name(q.name).key
    if not pk[0] or not qk[0]:
        return ""
    if pk == qk:
        if _fold(p.club) == _fold(q.club):
            if pc and qc:
                return "same name and club, different ECF codes"
            return "same name and club, one without a valid ECF code"
        return ""
    if pc and qc:
        return ""  # two valid, different codes and different names: two players
    if names_compatible(p.name, q.name):
        return "names differ only by initials"
    if pk[1] == qk[1] and pk[1] and _one_edit(pk[0], qk[0]):
        return "surnames differ by one letter"
    return ""


def _one_edit(a: str, b: str) -> bool:
    """Whether ``a`` becomes ``b`` by changing, adding or removing one character."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return a[i + 1 :] == b[i + 1 :] if len(a) == len(b) else a[i:] == b[i + 1 :]
    return True


def _forename_fits(p: str, q: str) -> bool:
    if len(p) == 1 or len(q) == 1:
        return p[:1] == q[:1]
    return p == q


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.rstrip(".") for w in text.replace(".", ". ").split() if w.rstrip("."))


def _fold(text: str) -> str:
    """Lower case without accents, full stops or extra spaces: "Nuñez  J." → "nunez j"."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return " ".join(re.sub(r"[.]", " ", plain).casefold().split())
