"""Importing beside what a league holds (xlgrade.formats.importing): estimated grades from FIDE
ratings by the ECF's published formula, kept on the ECF scale; the likely duplicates an import
brings, pointed out for the grader and never merged."""

import pytest

from xlgrade.formats.detect import Imported
from xlgrade.formats.importing import check_lines, fide_estimate, merge
from xlgrade.model import Player


# ECF summary page: "Elo ≤ 2325, ECF = (Elo - 1250) / 5; Elo > 2325, ECF = (Elo - 600) / 8".
@pytest.mark.parametrize(
    ("rating", "grade"),
    [
        (2400, 225.0),  # (2400 - 600) / 8
        (2325, 215.0),  # (2325 - 1250) / 5
        (1800, 110.0),  # (1800 - 1250) / 5
        (1255, 1.0),
        (1250, 0.0),  # the foot of the ECF scale
        (1249, None),  # (1249 - 1250) / 5 = -0.2: off the scale
        (1000, None),  # -50
    ],
)
def test_an_estimate_from_fide_is_on_the_ecf_scale_or_none(
    rating: int, grade: float | None
) -> None:
    assert fide_estimate(rating) == grade


def test_a_likely_duplicate_the_import_brings_is_pointed_out() -> None:
    # "Smyth" and "Smith" differ by one letter, with the same forenames: perhaps one player.
    # The two Greens were there before the import: the Exceptions sheet's business, not this.
    known = [
        Player("Smith, John", club="Anytown"),
        Player("Green, Carl", club="Beeton"),
        Player("Grean, Carl", club="Beeton"),
    ]
    incoming = (Player("Smyth, John", club="Cuxton"),)
    merged = merge(known, Imported("players CSV", incoming, (), (), "1 players rows read"))
    assert [p.name for p in merged.added] == ["Smyth, John"]
    assert merged.already_known == 0
    assert check_lines(merged) == [
        "check: 'Smith, John' and 'Smyth, John' may be one player (surnames differ by one letter)"
    ]
