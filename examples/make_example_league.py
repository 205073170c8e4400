"""Build the example league in ``examples/league/``: about 40 players and 300 games of one
season, with a few faults of every kind a grader meets (defaults, typed-in mistakes, the same
match entered twice…).

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
from xlgrade.generate import GeneratedSeason, generate_league, write_csv  # noqa: E402

__all__ = ["FOLDER", "ROOT", "example_league", "main"]

FOLDER = ROOT / "examples" / "league"
"""Where the example league is written."""


def example_league() -> GeneratedSeason:
    """The example league: seed 2025, 40 players, 300 games, 10 % ungraded, 6 % faulty rows."""
    return generate_league(seed=2025, players=40, games=300, ungraded=0.10, faulty=0.06)


def main(folder: Path = FOLDER) -> int:
    """Write the example league's CSV files into ``folder`` (its divisions' rules too) and list
    them."""
    season = example_league()
    for path in write_csv(season, folder):
        print(path)
    print(write_divisions(folder, season.divisions))
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER))
