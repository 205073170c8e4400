"""Working grades for ungraded players (docs/rules.md §6).

The sources only say that an ungraded player's grade "can be estimated from his results against
players of known grade … calculate their performance grades and re-do the calculations using
the performance grades" (1997 leaflet), and that a past grade "can be used with an allowance
for the length of inactivity". xlgrade decides, and documents:

1. A grader's estimate is used first; then a lapsed old grade, less an inactivity allowance.
2. Otherwise the working grade is the player's performance grade this season — the mean over
   his games of the opponent's grade (or working grade) ± 50, with no horizon (a horizon
   against one's own working grade would let a 100 % score run away).
3. Ungraded players who meet each other make this a linear system: for each such player *i*
   with *nᵢ* games, ``nᵢ·Wᵢ − Σ W_opponents(ungraded) = Σ grades_opponents(graded) + 50·Σ(2s − 1)``.
   Each connected group is solved exactly (or, as a setting, iterated to a fixed point).
4. A group with no game against any graded player has no anchor: the system is singular. It is
   reported, and given the grader's "unanchored grade" setting if there is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from xlgrade._rounding import quote
from xlgrade.ecf import score_margins
from xlgrade.errors import SettingError

__all__ = ["WorkingGrades", "working_grades"]

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]
"""Player positions: numpy's index type, which ``np.bincount`` takes on every platform."""

_MAX_EXACT_GROUP: Final = 3000
"""Groups larger than this are iterated rather than solved densely (memory ∝ size², 72 MB at
3000); a league's ungraded players who only meet each other are far fewer."""
_STEP_SHARE: Final = 0.01
"""The iteration stops when every player's equation balances to this share of the tolerance."""


@dataclass(frozen=True)
class WorkingGrades:
    """Working grades for every player.

    Attributes:
        grades: each player's grade for this season's calculations: the start grade, the
            estimate or lapsed grade, or the performance-based working grade; NaN for an
            ungraded player with no usable games (or an unanchored one with no default).
        estimated: ``True`` where ``grades`` is not a published start grade (shown as [136]).
        unanchored: groups (tuples of player indices) of ungraded players with no graded
            opponent among them.
        iterations: iterations used by the fixed-point method (0 for the exact solve).
    """

    grades: FloatArray
    estimated: npt.NDArray[np.bool_]
    unanchored: tuple[tuple[int, ...], ...]
    iterations: int


def working_grades(
    known: npt.ArrayLike,
    white: npt.ArrayLike,
    black: npt.ArrayLike,
    white_score: npt.ArrayLike,
    *,
    published: npt.ArrayLike | None = None,
    unanchored_grade: float | None = None,
    method: Literal["exact", "iterate"] = "exact",
    tolerance: float = 0.01,
    max_iterations: int = 100_000,
) -> WorkingGrades:
    """Solve working grades for the players whose ``known`` grade is NaN.

    Args:
        known: per player, the grade to use if there is one (start grade, estimate, lapsed
            grade less allowance), NaN for a player to estimate from results.
        white, black: per graded game, the two players' indices.
        white_score: per game, the first player's score (1, 0.5, 0).
        published: per player, whether ``known`` is a published start grade (default: all
            known grades are); others are flagged ``estimated``.
        unanchored_grade: working grade for players in a group with no graded opponent.
        method: ``"exact"`` (solve each group's linear system densely) or ``"iterate"``
            (conjugate gradients on the games alone, for very large groups).
        tolerance: for ``"iterate"``: the iteration stops when every player's equation
            balances to within 1 % of it, in grade points per game.
    """
    grades = np.array(known, dtype=np.float64)
    n = grades.size
    w = np.asarray(white, dtype=np.intp)
    b = np.asarray(black, dtype=np.intp)
    s = np.asarray(white_score, dtype=np.float64)
    if method not in ("exact", "iterate"):
        raise SettingError(f"working-grade method {quote(method)} is not 'exact' or 'iterate'")
    if tolerance <= 0:
        raise SettingError(f"tolerance {quote(tolerance)} must be positive")
    is_published = ~np.isnan(grades) if published is None else np.asarray(published, dtype=np.bool_)
    unknown = np.isnan(grades)
    estimated = ~is_published & ~unknown
    if not unknown.any():
        return WorkingGrades(grades, estimated, (), 0)

    # Each side of each game played by a player to estimate, as (player, opponent, player's
    # score): the sides are picked before they are joined, so no column of every side is made.
    as_white, as_black = unknown[w], unknown[b]
    player = np.concatenate([w[as_white], b[as_black]])
    opponent = np.concatenate([b[as_white], w[as_black]])
    score = np.concatenate([s[as_white], 1.0 - s[as_black]])
    opp_known = ~unknown[opponent]
    margin = score_margins(score)
    games = np.bincount(player, minlength=n).astype(np.float64)
    anchor_sum: FloatArray = np.bincount(
        player, np.where(opp_known, grades[opponent], 0.0) + margin, minlength=n
    ).astype(np.float64)
    anchored_games = np.bincount(player[opp_known], minlength=n)
    inner_p, inner_o = player[~opp_known], opponent[~opp_known]

    groups = _groups(np.flatnonzero(unknown & (games > 0)), inner_p, inner_o)
    unanchored: list[tuple[int, ...]] = []
    iterations = 0
    for members in groups:
        if anchored_games[members].sum() == 0:
            unanchored.append(tuple(int(m) for m in members))
            if unanchored_grade is not None:
                grades[members] = unanchored_grade
                estimated[members] = True
            continue
        if members.size == 1:
            grades[members] = anchor_sum[members] / games[members]
        elif method == "exact" and members.size <= _MAX_EXACT_GROUP:
            grades[members] = _solve(members, games, anchor_sum, inner_p, inner_o)
        else:
            solved, used = _iterate(
                members, games, anchor_sum, inner_p, inner_o, tolerance, max_iterations
            )
            grades[members] = solved
            iterations = max(iterations, used)
        estimated[members] = True
    return WorkingGrades(grades, estimated, tuple(unanchored), iterations)


def _groups(nodes: IndexArray, a: IndexArray, b: IndexArray) -> list[IndexArray]:
    """Connected groups of ``nodes`` joined by the edges ``a[i]``–``b[i]`` (union–find)."""
    parent = {int(x): int(x) for x in nodes}

    def find(x: int) -> int:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)
    members: dict[int, list[int]] = {}
    for x in parent:
        members.setdefault(find(x), []).append(x)
    return [np.array(sorted(m), dtype=np.intp) for _, m in sorted(members.items())]


def _solve(
    members: IndexArray,
    games: FloatArray,
    rhs: FloatArray,
    inner_p: IndexArray,
    inner_o: IndexArray,
) -> FloatArray:
    """Solve ``nᵢ·Wᵢ − Σ_j W_j = rhsᵢ`` exactly for one anchored group."""
    position = {int(m): i for i, m in enumerate(members.tolist())}
    size = members.size
    matrix = np.diag(games[members])
    inside = np.isin(inner_p, members)
    for p, o in zip(inner_p[inside].tolist(), inner_o[inside].tolist(), strict=True):
        matrix[position[p], position[o]] -= 1.0
    solution = np.linalg.solve(matrix, rhs[members]).reshape(size)
    return np.asarray(solution, dtype=np.float64)


def _iterate(
    members: IndexArray,
    games: FloatArray,
    rhs: FloatArray,
    inner_p: IndexArray,
    inner_o: IndexArray,
    tolerance: float,
    max_iterations: int,
) -> tuple[FloatArray, int]:
    """Solve one group's system ``nᵢ·Wᵢ − Σ W_opponents = rhsᵢ`` by conjugate gradients.

    The matrix is symmetric (every game counts from both sides) and, for an anchored group,
    positive definite, so conjugate gradients reach the exact solution in at most as many steps
    as the group has players, using only the games: no dense matrix. It stops when every
    player's equation balances to within ``tolerance × 0.01`` grade points per game.
    """
    inside = np.isin(inner_p, members)
    position = np.full(games.size, -1, dtype=np.intp)
    position[members] = np.arange(members.size)
    p, o = position[inner_p[inside]], position[inner_o[inside]]
    n = games[members]
    b = rhs[members]

    def apply(x: FloatArray) -> FloatArray:
        product: FloatArray = n * x - np.bincount(p, x[o], minlength=members.size)
        return product

    x = b / n
    r = b - apply(x)
    d = r.copy()
    rr = float(r @ r)
    for step in range(1, max_iterations + 1):
        if float(np.max(np.abs(r) / n)) < tolerance * _STEP_SHARE:
            return x, step - 1
        ad = apply(d)
        alpha = rr / float(d @ ad)
        x = x + alpha * d
        r = r - alpha * ad
        rr_next = float(r @ r)
        d = r + (rr_next / rr) * d
        rr = rr_next
    raise SettingError(
        f"working grades did not settle within {max_iterations} iterations; use method='exact'"
    )
