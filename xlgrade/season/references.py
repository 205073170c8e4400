"""Resolving the player references of result rows: codes and names → a player (§8)."""

from __future__ import annotations

import difflib
import itertools
import operator
import re
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import Final

import numpy as np

from xlgrade._rounding import quote
from xlgrade.codes import ecf_codes_valid, parse_ecf_code
from xlgrade.errors import CodeError
from xlgrade.model import (
    Player,
    Problem,
)
from xlgrade.season.shared import Fail, IndexArray

__all__ = ["PlayerIndex", "name_key"]

_SUGGESTIONS: Final = 3
"""How many players an unknown name's "did you mean" names at most."""
_AMBIGUOUS: Final = -1
"""Index stored for a reference that does not name exactly one player."""
_PUNCTUATION: Final = str.maketrans(dict.fromkeys("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", " "))


def name_key(name: str) -> str:
    """A player's name reduced for matching: case, punctuation and word order ignored.

    "Smith, John A." and "John A Smith" have the same key; initials stay distinct from names
    ("J Smith" is not "John Smith").

    >>> name_key("Smith, John A.") == name_key("John A Smith")
    True
    """
    return " ".join(sorted(name.casefold().translate(_PUNCTUATION).split()))


def _turned_round(name: str) -> str:
    """ "Smith, John A" → "John A Smith"; "" for a name with no comma."""
    surname, comma, forenames = name.partition(",")
    return f"{forenames.strip()} {surname.strip()}" if comma else ""


_NAME: Final = operator.attrgetter("name")


class PlayerIndex:
    """The Players table indexed for resolving references in result rows."""

    def __init__(self, players: Sequence[Player]) -> None:
        self.players = players
        self.problems: list[Problem] = []
        self._first_named: dict[str, int] | None = None
        self._shared_names: dict[str, list[int]] = {}
        self._resolved: dict[Hashable, int | Fail] = {}
        self._words: dict[str, list[int]] | None = None
        self._vocabulary: set[str] | None = None
        self._folded = ""
        self._keys: list[str] = []
        self._close: dict[str, set[int]] = {}
        self._close_words: dict[str, list[str]] = {}
        # The words of the names by their first letter, and by their last two letters + "$".
        self._ends: defaultdict[str, list[str]] = defaultdict(list)
        n = len(players)
        typed = [(p.code or "").strip() for p in players]
        canonical = [code if code.isupper() else code.upper() for code in typed]
        valid = ecf_codes_valid(typed)
        coded = np.fromiter(map(bool, typed), np.bool_, n)
        for index in np.flatnonzero(coded & ~valid).tolist():
            try:
                canonical[index] = parse_ecf_code(typed[index])
            except CodeError as error:
                why = f"{error}; games are matched to it as typed"
                self._problem(players[index], "bad code", why)
        # The first player with a code has it: later ones are reported.
        self.codes: dict[str, int] = dict(
            zip(reversed(canonical), range(n - 1, -1, -1), strict=True)
        )
        self.codes.pop("", None)
        if len(self.codes) < int(coded.sum()):
            for index in np.flatnonzero(coded).tolist():
                first_index = self.codes[canonical[index]]
                if first_index != index:
                    first = players[first_index]
                    self._problem(
                        players[index],
                        "duplicate code",
                        f"code {quote(typed[index])} is also {quote(first.name)} (row "
                        f"{first.row}); "
                        "games with this code are credited to the first",
                    )
        self.canonical = canonical
        # References as typed that name exactly one player: codes, and names as written or
        # turned round ("Smith, John" ↔ "John Smith"). Most rows resolve here at once.
        written = [" ".join(p.name.split()) for p in players]
        turned = [_turned_round(name) for name in written]
        forms = [*written, *filter(None, turned)]
        owners = np.concatenate(
            [np.arange(n), np.flatnonzero(np.fromiter(map(bool, turned), np.bool_, n))]
        )
        self.exact: dict[str, int] = dict(zip(forms, owners.tolist(), strict=True))
        if len(self.exact) < len(forms):
            # A form is ambiguous when one of its owners is not its last one, the one the
            # dictionary kept: all such forms are found at once.
            last = np.fromiter(map(self.exact.__getitem__, forms), np.intp, len(forms))
            shared = itertools.compress(forms, (last != owners).tolist())
            self.exact.update(dict.fromkeys(shared, _AMBIGUOUS))
        self.exact.update(self.codes)
        same: dict[tuple[str, str], list[int]] = defaultdict(list)
        for index in np.flatnonzero(~coded).tolist():
            player = players[index]
            same[(name_key(player.name), player.club.strip().casefold())].append(index)
        for members in same.values():
            if len(members) > 1:
                rows = ", ".join(str(players[m].row) for m in members)
                for m in members:
                    self._problem(
                        players[m],
                        "same name and club",
                        f"{quote(players[m].name)} of {quote(players[m].club)} appears "
                        f"{len(members)} "
                        f"times with no code (rows {rows}): give each a code",
                    )

    def named(self, key: str) -> list[int]:
        """The players whose :func:`name_key` is ``key``, in table order (none: ``[]``).

        The keys are made the first time a reference needs them: case and punctuation on one
        joined string, then each name's words sorted and joined again, in C-level maps. Each
        key keeps its first player; only a key several players share keeps a list, so a
        table of distinct names makes no list a player.
        """
        if self._first_named is None:
            self._index_names()
        assert self._first_named is not None
        shared = self._shared_names.get(key)
        if shared is not None:
            return shared
        first = self._first_named.get(key)
        return [] if first is None else [first]

    def _index_names(self) -> None:
        joined = "\n".join(map(_NAME, self.players))
        if joined.count("\n") != max(len(self.players) - 1, 0):  # a name with a line break
            joined = "\n".join(p.name.replace("\n", " ") for p in self.players)
        self._folded = joined.casefold().translate(_PUNCTUATION)
        folded = self._folded.split("\n") if self.players else []
        keys = self._keys = list(map(" ".join, map(sorted, map(str.split, folded))))
        n = len(keys)
        first = self._first_named = dict(zip(reversed(keys), range(n - 1, -1, -1), strict=True))
        if len(first) < n:
            owner = np.fromiter(map(first.__getitem__, keys), np.intp, n)
            for index in np.flatnonzero(owner != np.arange(n)).tolist():
                key = keys[index]
                self._shared_names.setdefault(key, [first[key]]).append(index)

    def did_you_mean(self, text: str, key: str | None = None) -> str:
        """``"; did you mean 'Robert Jarvis' (row 12)?"`` naming up to three players whose
        names are closest to ``text`` (standard library :mod:`difflib`), or ``""`` for none.

        A player is a candidate when each word of ``text`` (case, punctuation and order
        ignored, as :func:`name_key` reads names) is one of his words, or, for a word no
        player has, close to one of them (:func:`difflib.get_close_matches`, ratio 0.75 or
        more); candidates are ranked by the closeness of the whole name. Close words are
        looked up once per word, so a season with many unknown names costs one lookup per
        distinct misspelt word among them; a name with a word neither a player's nor close to
        one has no candidate, found before the players of each word are indexed. ``key`` is
        ``name_key(text)`` when the caller has it already.
        """
        words = (name_key(text) if key is None else key).split()
        if not words:
            return ""
        vocabulary = self._vocabulary if self._vocabulary is not None else self._words_of_names()
        for word in words:
            if word not in vocabulary and not self._close_to(word):
                return ""
        found: set[int] | None = None
        exact: list[tuple[str, list[int]]] = []
        for word in words:
            owners = self._owners_of(word)
            if isinstance(owners, list):
                exact.append((word, owners))
                continue
            found = owners if found is None else found & owners
            if not found:
                return ""
        if exact:
            # The players of the rarest word (or the close ones, if fewer) that have the
            # other words too: no set is made of a common word's thousands of players.
            exact.sort(key=lambda item: len(item[1]))
            pool: Iterable[int]
            if found is None or len(exact[0][1]) < len(found):
                pool, need = exact[0][1], [word for word, _ in exact[1:]]
            else:
                pool, need = found, [word for word, _ in exact]
            within = found
            found = set()
            for i in pool:
                if within is None or i in within:
                    own = self._keys[i].split()
                    if all(word in own for word in need):
                        found.add(i)
            if not found:
                return ""
        assert found is not None
        key = " ".join(words)
        ranked = sorted(
            found,
            key=lambda i: (-difflib.SequenceMatcher(None, key, self._keys[i]).ratio(), i),
        )[:_SUGGESTIONS]
        names = ", ".join(
            f"{quote(self.players[i].name)} (row {self.players[i].row})" for i in ranked
        )
        return f"; did you mean {names}?"

    def _words_of_names(self) -> set[str]:
        """Every word of the players' names (:func:`name_key`), made once from the names'
        folded text; and the words, in order, by their first letter and by their last two
        letters + ``"$"``."""
        if self._vocabulary is None:
            if self._first_named is None:
                self._index_names()  # makes the keys and the folded text
            self._vocabulary = set(self._folded.split())
            for each in sorted(self._vocabulary):
                self._ends[each[0]].append(each)
                self._ends[each[-2:] + "$"].append(each)
        return self._vocabulary

    def _close_to(self, word: str) -> list[str]:
        """The words of the names close to ``word``, one no name has
        (:func:`difflib.get_close_matches`, ratio 0.75 or more; kept for the next name with
        that word)."""
        cached = self._close_words.get(word)
        if cached is not None:
            return cached
        self._words_of_names()
        # Words of about the same length that begin or end as this one does: a typing slip
        # seldom changes both ends, and difflib need not read every word of the table.
        pool = [
            each
            for each in dict.fromkeys(
                self._ends.get(word[0], []) + self._ends.get(word[-2:] + "$", [])
            )
            if abs(len(each) - len(word)) <= 2
        ]
        close = self._close_words[word] = difflib.get_close_matches(word, pool, n=5, cutoff=0.75)
        return close

    def _owners_of(self, word: str) -> list[int] | set[int]:
        """The players with ``word`` among their names' words (a list, as indexed), or, for a
        word no player has, the players with a word close to it (a set, kept for the next
        name with that word)."""
        cached = self._close.get(word)
        if cached is not None:
            return cached
        if self._words is None:
            self._words = defaultdict(list)
            if self._first_named is None:
                self._index_names()
            for index, key in enumerate(self._keys):  # the keys made with the names
                for each in key.split():
                    self._words[each].append(index)
        exact = self._words.get(word)
        if exact is not None:
            return exact
        owners: set[int] = set()
        for close in self._close_to(word):
            owners.update(self._words[close])
        self._close[word] = owners
        return owners

    def indices(self, references: Sequence[str]) -> tuple[IndexArray, dict[int, Fail]]:
        """Each row's player index for one side's ``references`` (−1 where none), and why for
        the rows with none.

        Exact matches (codes, names as written) cost one dictionary lookup each, at C speed;
        only the few other references go through :meth:`resolve`.
        """
        found = np.array(
            list(map(self.exact.get, references, itertools.repeat(_AMBIGUOUS))),
            dtype=np.intp,
        ).reshape(len(references))
        failures: dict[int, Fail] = {}
        resolved_before = self._resolved
        for position in np.flatnonzero(found == _AMBIGUOUS).tolist():
            reference = references[position]
            resolved = resolved_before.get(reference)
            if resolved is None:
                resolved = resolved_before[reference] = self.resolve(reference)
            if isinstance(resolved, Fail):
                failures[position] = resolved
            else:
                found[position] = resolved
        return found, failures

    def _problem(self, player: Player, what: str, why: str) -> None:
        self.problems.append(Problem("Players", player.row, what, why))

    def resolve(self, reference: Hashable) -> int | Fail:
        """The player index a result row's reference (code or name) names, or why not."""
        if isinstance(reference, str):
            hit = self.exact.get(reference, _AMBIGUOUS)
            if hit != _AMBIGUOUS:
                return hit
        text = str(reference).strip() if reference is not None else ""
        if not text:
            return Fail("unknown player", "player is blank")
        compact = text.replace(" ", "").upper()
        if re.fullmatch(r"\d{6}[A-Z]", compact):
            if compact in self.codes:
                return self.codes[compact]
            try:
                parse_ecf_code(compact)
            except CodeError as error:
                return Fail("bad code", f"{error}: not matched to any player")
            return Fail("unknown player", f"no player has code {quote(text)}")
        key = name_key(text)
        candidates = self.named(key)
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            return Fail(
                "unknown player",
                f"no player is called {quote(text)}{self.did_you_mean(text, key)}",
            )
        rows = ", ".join(str(self.players[c].row) for c in candidates)
        return Fail(
            "ambiguous player",
            f"{len(candidates)} players are called {quote(text)} (rows {rows}): use the code",
        )
