"""``xlgrade card FILE``: one player's calculation card, as the YCA page lays it out."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[Any]) -> None:
    """Add the ``card`` command."""
    parser = subparsers.add_parser(
        "card",
        help="print one player's grading calculation from a CSV of his games",
        description=(
            "Print a player's calculation card: each game's points (with * where the 40-point "
            "horizon applied and [ ] for an ungraded opponent's working grade), the games "
            "borrowed from earlier seasons, the new grade and its category."
        ),
        epilog="Example: xlgrade card examples/yca-player.csv",
    )
    parser.add_argument(
        "file", metavar="FILE", type=Path, help="the player's CSV (see examples/yca-player.csv)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Read the file, grade it, print the card; 0 on success."""
    from xlgrade.card import build_card, render_card
    from xlgrade.formats.cardfile import read_card_bytes

    path: Path = args.file
    data = read_card_bytes(path.read_bytes(), str(path))
    card = build_card(
        data.own_grade,
        data.games,
        data.earlier,
        name=data.name,
        horizon=data.horizon,
        junior_enhancement=data.junior_enhancement,
    )
    print(render_card(card), end="")
    for line, reason in data.skipped:
        print(f"line {line}: {reason}")
    return 0
