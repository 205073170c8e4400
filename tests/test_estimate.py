"""Working grades (GRADING-RULES.md §6): the exact solve and the iterative one agree."""

import numpy as np
import pytest

from xlgrade.estimate import working_grades


def test_a_long_chain_of_newcomers_iterates_to_the_exact_grades() -> None:
    # Player 0 is graded 100; newcomer k beat newcomer k − 1 (newcomer 1 beat player 0). Each
    # newcomer's equation: W_k = (W_{k−1} + 50 + W_{k+1} − 50) / 2, the last one W_{k−1} + 50,
    # so the exact solution is W_k = 100 + 50·k.
    known = [100.0] + [np.nan] * 100
    winners, losers = list(range(1, 101)), list(range(100))
    exact = working_grades(known, winners, losers, [1.0] * 100)
    assert exact.grades == pytest.approx([100 + 50 * k for k in range(101)])
    iterated = working_grades(known, winners, losers, [1.0] * 100, method="iterate")
    assert np.max(np.abs(iterated.grades - exact.grades)) < 0.01
    assert 0 < iterated.iterations <= 101


def test_the_two_methods_agree_on_two_newcomers_who_meet() -> None:
    # W_x = (150 + W_y + 50) / 2, W_y = (140 + W_x − 50) / 2 → 490/3 and 380/3.
    known = [100.0, 140.0, np.nan, np.nan]
    for method in ("exact", "iterate"):
        grades = working_grades(known, [2, 3, 2], [0, 1, 3], [1.0, 0.5, 1.0], method=method)
        assert grades.grades[2:] == pytest.approx([490 / 3, 380 / 3], abs=1e-6)
