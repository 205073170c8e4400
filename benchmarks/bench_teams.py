"""The divisions' team checks on a national-size season: the array form beside the scalar loop.

Run: ``python benchmarks/bench_teams.py`` (add ``--quick`` for a tenth of the size).

Generates a national season (:func:`xlgrade.generate.generate_national`) of about 20,000
matches, takes each team's boards in each match (:func:`xlgrade.teams.appearances`) and checks
every team of every division twice, in the same run: with :func:`xlgrade.teams.team_breaches_array`
(one call a division, the checks on whole columns and the breaches' messages written after) and
with a loop calling :func:`xlgrade.teams.team_breaches` team by team, which is what the array
form must equal. Two sets of rules: a league's (few breaches: board order 20, a maximum total
above most teams) and a strict one (many breaches: board order 0, no player over 150, a total
and an average most teams break, Northamptonshire's junior allowance and Shropshire's adjacent
boards). Prints the matches, teams and breaches, each form's best time of three, and the ratio.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import gc
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from xlgrade.generate import generate_national
from xlgrade.teams import (
    Appearances,
    Board,
    Breach,
    Division,
    appearances,
    team_breaches,
    team_breaches_array,
)

Teams = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[str]]


def best_of(runs: int, work: Callable[[], object]) -> tuple[float, object]:
    """Best wall time of ``runs`` calls, in seconds (garbage collected first), and a result."""
    times, result = [], None
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - start)
    return min(times), result


def by_division(boards: Appearances, juniors: np.ndarray) -> dict[str, Teams]:
    """Each division's boards as the array form takes them: team number, board number, figure,
    defaulted, junior, player name (boards without a number take their places in row order)."""
    rows: dict[str, list[int]] = defaultdict(list)
    for k, name in enumerate(boards.division):
        rows[name].append(k)
    out: dict[str, Teams] = {}
    for name, entries in rows.items():
        groups: dict[tuple[object, ...], int] = {}
        filled: dict[int, int] = defaultdict(int)
        team, number = [], []
        for k in entries:
            key = (boards.date[k], boards.match[k], boards.team[k].name)
            g = groups.setdefault(key, len(groups))
            filled[g] += 1
            team.append(g)
            number.append(int(boards.board[k]) if boards.board[k] > 0 else filled[g])
        chosen = np.array(entries)
        people = boards.player[chosen]
        junior = np.where(people >= 0, juniors[np.maximum(people, 0)], False)
        out[name] = (
            np.array(team),
            np.array(number),
            boards.figure[chosen],
            boards.defaulted[chosen],
            junior,
            [boards.name[k] for k in entries],
        )
    return out


Found = list[tuple[int, Breach]]


def array_form(rules: Mapping[str, Division], teams: Mapping[str, Teams]) -> Found:
    found: list[tuple[int, Breach]] = []
    for name, (team, number, figure, defaulted, junior, names) in teams.items():
        found += team_breaches_array(
            rules[name], team, number, figure, defaulted, names, juniors=junior
        )
    return found


def scalar_loop(rules: Mapping[str, Division], teams: Mapping[str, Teams]) -> Found:
    found: list[tuple[int, Breach]] = []
    for name, (team, number, figure, defaulted, junior, names) in teams.items():
        members: dict[int, list[Board]] = defaultdict(list)
        for k, t in enumerate(team.tolist()):
            value = figure[k]
            members[t].append(
                Board(
                    int(number[k]),
                    names[k],
                    None if value != value else float(value),
                    bool(defaulted[k]),
                    junior=bool(junior[k]),
                )
            )
        for t in sorted(members):
            found += [(t, b) for b in team_breaches(rules[name], members[t])]
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the size")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    season = generate_national(players=15_000 // scale, games=104_000 // scale)
    boards = appearances(
        season.games,
        season.home_index,
        season.away_index,
        [p.grade for p in season.players],
        [p.name for p in season.players],
    )
    juniors = np.array([p.junior for p in season.players], dtype=np.bool_)
    teams = by_division(boards, juniors)
    matches = len({(g.event, g.date, g.match) for g in season.games})
    count = sum(int(t[0].max()) + 1 for t in teams.values())
    print(f"{matches:,} matches, {count:,} teams' boards in {len(teams)} divisions")
    league = Division("", boards=6, min_counting_grade=100, default_grade=100,
                      board_order_tolerance=20, max_total=1000)  # fmt: skip
    strict = Division("", boards=6, max_grade=150, max_players_over=1, over_grade=140,
                      max_total=600, max_average=110, min_counting_grade=60, default_grade=60,
                      board_order_tolerance=0, junior_allowance=100,
                      adjacent_within=10)  # fmt: skip
    for label, rule in (("league rules", league), ("strict rules", strict)):
        rules = {name: dataclasses.replace(rule, name=name) for name in teams}
        array_time, array_found = best_of(3, functools.partial(array_form, rules, teams))
        loop_time, loop_found = best_of(3, functools.partial(scalar_loop, rules, teams))
        assert array_found == loop_found, "the array form must equal the scalar loop"
        breaches = len(array_found)  # type: ignore[arg-type]
        print(
            f"{label}: {breaches:,} breaches; array form {array_time:.3f} s, scalar loop "
            f"{loop_time:.3f} s: the array form {loop_time / array_time:.1f}x as fast"
        )


if __name__ == "__main__":
    main()
