"""Build the example league in ``examples/league/``: about 40 players and 300 games of one
season, with a few faults of every kind a grader meets (defaults, typed-in mistakes, the same
match entered twice…); and the league of the example book (``xlgrade template --example``) in
``xlgrade/data/example-league/``, the package data that command reads; and
``examples/ratings-2025-08.csv``, an ECF rating list (in the ECF's layout) for the book's
league.

Run ``python examples/make_example_league.py`` from the repository root; the output is the
same on every run and every machine, and a test checks that the shipped files are what this
script writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository root."""
if str(ROOT) not in sys.path:  # run from a checkout without installing xlgrade
    sys.path.insert(0, str(ROOT))

from xlgrade.formats.folder import write_divisions  # noqa: E402
from xlgrade.generate import (  # noqa: E402
    GeneratedSeason,
    generate_league,
    generate_rating_list,
    write_csv,
)

__all__ = ["BOOK_FOLDER", "FOLDER", "RATINGS", "ROOT", "book_league", "example_league", "main"]

FOLDER = ROOT / "examples" / "league"
"""Where the example league is written."""
BOOK_FOLDER = ROOT / "xlgrade" / "data" / "example-league"
"""Where the example book's league is written (package data)."""
RATINGS = ROOT / "examples" / "ratings-2025-08.csv"
"""Where the example book's league's rating list is written."""


def example_league() -> GeneratedSeason:
    """The example league: seed 2025, 40 players, 300 games, 10 % ungraded, 6 % faulty rows."""
    return generate_league(seed=2025, players=40, games=300, ungraded=0.10, faulty=0.06)


def book_league() -> GeneratedSeason:
    """The example book's league: the generator's defaults (seed 2025, 40 players, 300 games,
    10 % ungraded, 5 % faulty rows)."""
    return generate_league()


def main(folder: Path = FOLDER, book_folder: Path = BOOK_FOLDER, ratings: Path = RATINGS) -> int:
    """Write the example league's CSV files into ``folder`` and the example book's into
    ``book_folder`` (their divisions' rules too), the book's league's rating list to
    ``ratings``, and list them."""
    for season, target in ((example_league(), folder), (book_league(), book_folder)):
        for path in write_csv(season, target):
            print(path)
        print(write_divisions(target, season.divisions))
    ratings.write_text(generate_rating_list(book_league()).text, encoding="utf-8", newline="")
    print(ratings)
    return 0


if __name__ == "__main__":
    sys.exit(main(*(Path(a) for a in sys.argv[1:4])))
