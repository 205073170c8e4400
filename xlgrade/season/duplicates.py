"""The same game entered twice: found on whole columns, excepted once or all."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Final

import numpy as np

from xlgrade._rounding import quote
from xlgrade.model import (
    Game,
)
from xlgrade.season.shared import BoolArray, Fail, FloatArray, IndexArray, IntArray

__all__ = ["mark_duplicates", "stable_order"]


def mark_duplicates(
    games: Sequence[Game],
    days: IntArray,
    rapid: BoolArray,
    white: IndexArray,
    black: IndexArray,
    score: FloatArray,
    ok: BoolArray,
    defaulted: BoolArray,
    reason: dict[int, Fail],
    counted: str = "graded",
) -> None:
    """The same game entered twice: on the same list (standard or rapid), the same two players
    on the same date, whichever of them is named first (one club may enter the match the other
    way round); undated rows are the same game only within the same event and match.

    When both clubs enter one match, every entry after the first that agrees with it is
    excepted as a duplicate. When the entries disagree on the result, none of them is graded:
    xlgrade cannot know which is right, so all are listed for the grader to correct; so too
    when one club enters a default and the other a played game (``ok`` holds the rows still
    to grade and the ``defaulted`` ones). Entries whose match column names different rounds
    are different games (:func:`_same_game`). ``counted`` is the word the reasons use for what
    the season does with a game ("graded", or "rated" when the season is rated).
    """
    rows = np.flatnonzero(ok)
    if rows.size == 0:
        return
    day = days[rows]
    # The players as int64 (copies), so that the key below is shifted in 64 bits where
    # numpy's index type is 32.
    low, high = np.asarray(white[rows], np.int64), np.asarray(black[rows], np.int64)
    np.minimum(low, high, out=low)  # min and max of the pair, in place
    np.maximum(white[rows], high, out=high)
    undated = day == 0
    if undated.any():
        # Undated rows: a fixture number from the event and match stands in for the day.
        fixtures: dict[tuple[str, str, str], int] = {}
        for position in np.flatnonzero(undated).tolist():
            game = games[int(rows[position])]
            fixture = (game.league, game.event, game.match)
            day[position] = fixtures.setdefault(fixture, len(fixtures) + 1)
    # One int64 key per row: the day counted from the first (ordinals stay below 2²⁰ until
    # the year 2870), a bit for the list, and each player; as few bits as the season needs,
    # so that a radix sort takes few passes. Built in place: a national season's rows are
    # many, and each whole-column temporary is megabytes.
    day -= day.min()
    player_bits = int(high.max()).bit_length()
    bound = 1 << (int(day.max()).bit_length() + 2 * player_bits + 1)
    key = day
    key <<= 2 * player_bits + 1
    part = rapid[rows].astype(np.int64)
    part <<= 2 * player_bits
    key |= part
    np.left_shift(low, player_bits, out=part)
    key |= part
    key |= high
    del part, low, high  # the sort is the peak: only the key and the rows are kept for it
    order = stable_order(key, bound)  # members of a run are sorted again below
    ordered = key[order]
    same = ordered[1:] == ordered[:-1]
    if not same.any():
        return
    # Runs of equal keys: the score from the lower-numbered player's side must agree. Only
    # the rows of runs are looked at again.
    boundary = np.concatenate([[True], ~same])
    starts = np.flatnonzero(boundary)
    sizes = np.diff(np.append(starts, ordered.size))
    in_run = np.zeros(ordered.size, dtype=np.bool_)
    in_run[1:] = same
    in_run[:-1] |= same
    positions = order[in_run]
    run_rows = rows[positions]
    run_white, run_black, run_score = white[run_rows], black[run_rows], score[run_rows]
    as_low = np.where(run_white <= run_black, run_score, 1.0 - run_score)
    run_sizes = sizes[sizes > 1].tolist()
    members, member_scores = run_rows.tolist(), as_low.tolist()
    begin = 0
    for size in run_sizes:
        entries = sorted(
            zip(members[begin : begin + size], member_scores[begin : begin + size], strict=True)
        )
        begin += size
        for group in _same_game(games, entries):
            kinds = {bool(defaulted[row]) for row, _ in group}
            if len(group) > 1 and kinds != {True}:  # a default entered twice stays a default
                agree = len(kinds) == 1 and len({s for _, s in group}) == 1
                entered = [row for row, _ in group]
                _mark_group(games, entered, agree, reason, counted, (white, black))


def _round_number(match: object) -> int | None:
    """The round a row's match column names ("3", "R3", "Rd 3", "Round 3"), else ``None``."""
    if isinstance(match, int) and not isinstance(match, bool):
        return match
    found = _ROUND.fullmatch(str(match).strip()) if isinstance(match, str) else None
    return int(found.group(1)) if found else None


_ROUND: Final = re.compile(r"(?:r|rd|rnd|round)?\.?\s*(\d+)", re.IGNORECASE)


def _same_game(
    games: Sequence[Game], entries: list[tuple[int, float]]
) -> list[list[tuple[int, float]]]:
    """Entries (row, score) of the same two players on one day and list, split into games.

    They are one game entered more than once, unless their match column names two or more
    different rounds: then the players met once a round (a rapidplay or a congress playing
    two rounds a day), and the entries of each round are one game; entries naming no round
    go together.
    """
    rounds = [_round_number(games[row].match) for row, _ in entries]
    if len({r for r in rounds if r is not None}) < 2:
        return [entries]
    by_round: dict[int | None, list[tuple[int, float]]] = defaultdict(list)
    for entry, number in zip(entries, rounds, strict=True):
        by_round[number].append(entry)
    return list(by_round.values())


def _mark_group(
    games: Sequence[Game],
    members: list[int],
    agree: bool,
    reason: dict[int, Fail],
    counted: str = "graded",
    sides: tuple[IntArray, IntArray] | None = None,
) -> None:
    """One game entered ``len(members)`` times: every entry after the first is a duplicate
    when all ``agree`` on the result; none is graded (or ``counted``) when they do not.

    In a union of leagues (:mod:`xlgrade.season.union`) an entry of another league than the
    first's that gives the players the other way round (``sides``: each row's white and
    black player) is counted once too, but listed as ``colours disagree`` for the grader to
    check (docs/rules.md §14): within one league the second club entering the match the
    other way round is usual, across leagues it is one report or the other mistaken."""
    first = games[members[0]]
    if agree:
        for m in members[1:]:
            game = games[m]
            if game.league != first.league and _colours_turned(sides, m, members[0]):
                reason[m] = Fail(
                    "colours disagree",
                    f"the same game as {_row_of(first, game)} ({quote(first.home)} v "
                    f"{quote(first.away)}) with the colours the other way round "
                    f"({quote(game.home)} v {quote(game.away)}, {quote(game.result)}): "
                    f"{counted} once, as {_row_of(first, game)} has it; check the colours",
                )
                continue
            reason[m] = Fail(
                "duplicate game",
                f"the same game as {_row_of(first, game)} ({quote(first.home)} v "
                f"{quote(first.away)}, {quote(game.result)}): {counted} once",
            )
        return
    listed = ", ".join(f"{_row_of(games[m], None)} {quote(games[m].result)}" for m in members)
    for m in members:
        reason[m] = Fail(
            "duplicate disagrees",
            f"the same game entered {len(members)} times with different results "
            f"({listed}): not {counted} until corrected",
        )


def _row_of(game: Game, seen_from: Game | None) -> str:
    """``"row 12"``; in a union (:mod:`xlgrade.season.union`) ``"Northfield row 12"`` when
    the row is another league's than ``seen_from``'s (``None``: any league's)."""
    if game.league and (seen_from is None or seen_from.league != game.league):
        return f"{game.league} row {game.row}"
    return f"row {game.row}"


def _colours_turned(sides: tuple[IntArray, IntArray] | None, row: int, first_row: int) -> bool:
    """Whether two reports (rows) of one game give the players the other way round."""
    if sides is None:
        return False
    white, black = sides
    return bool(white[row] == black[first_row] and black[row] == white[first_row])


def stable_order(keys: IntArray, bound: int) -> IndexArray:
    """``np.argsort(keys, kind="stable")`` for keys in ``[0, bound)``, in linear time.

    numpy sorts keys of 16 bits or fewer by radix; wider keys are sorted the same way 16 bits
    at a time (least significant first, each pass stable), so the time grows linearly with the
    number of keys whatever their width, where a comparison sort grows as n·log n.
    """
    # A cast to 16 bits keeps the low 16 bits (numpy's integer casts wrap), so no mask is made.
    order: IndexArray = np.argsort(keys.astype(np.uint16), kind="stable")
    for shift in range(16, max(bound - 1, 1).bit_length(), 16):
        digits = keys[order]
        digits >>= shift
        order = order[np.argsort(digits.astype(np.uint16), kind="stable")]
        del digits
    return order
