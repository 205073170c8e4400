"""The season recalculation on generated leagues with injected faults: every injected fault is
caught with the right reason, and every row is accounted for."""

import collections

import pytest

from xlgrade.generate import GeneratedSeason, generate_league, generate_national
from xlgrade.season import SeasonResult, recalculate

# What the season reports for each kind of fault the generator injects.
EXPECTED = {
    "unknown player": {"unknown player"},
    "self pairing": {"self pairing"},
    "duplicate game": {"duplicate game"},
    "duplicate disagrees": {"duplicate disagrees"},
    "bad result": {"result not understood"},
    "date outside season": {"date outside season"},
    "default": {"default"},
    "not gradable time control": {"time control not gradable"},
    "bad code check letter": {"bad code"},
    "same name and club": {"same name and club"},
}


@pytest.fixture(
    scope="module",
    params=[
        ("league", lambda: generate_league(2025)),
        ("league-7", lambda: generate_league(7, players=60, games=500)),
        ("national-20k", lambda: generate_national(11, players=1_500, games=20_000)),
    ],
    ids=lambda p: p[0],
)
def generated(request: pytest.FixtureRequest) -> tuple[GeneratedSeason, SeasonResult]:
    data = request.param[1]()
    return data, recalculate(data.players, data.games, data.settings)


def test_every_row_is_graded_or_excepted(generated: tuple[GeneratedSeason, SeasonResult]) -> None:
    data, season = generated
    accounting = season.accounting
    assert accounting.rows == len(data.games)
    assert accounting.balanced
    results = [p for p in season.problems if p.sheet == "Results"]
    assert len(results) == accounting.excepted
    assert len({p.row for p in results}) == len(results)  # one reason per row
    graded_rows = set(season.standard.rows.tolist()) | set(season.rapid.rows.tolist())
    excepted_rows = {p.row for p in results}
    all_rows = {g.row for g in data.games}
    assert {data.games[i].row for i in graded_rows} | excepted_rows == all_rows
    assert not {data.games[i].row for i in graded_rows} & excepted_rows


def test_every_injected_fault_is_caught(generated: tuple[GeneratedSeason, SeasonResult]) -> None:
    data, season = generated
    reported = collections.defaultdict(set)
    for problem in season.problems:
        reported[(problem.sheet, problem.row)].add(problem.what)
    missed = []
    for fault in data.injected:
        if fault.kind == "rapid":
            row = next(i for i, g in enumerate(data.games) if g.row == fault.row)
            if row not in set(season.rapid.rows.tolist()):
                missed.append(fault)
            continue
        if not reported[(fault.sheet, fault.row)] & EXPECTED[fault.kind]:
            missed.append(fault)
    assert missed == []
    kinds = {fault.kind for fault in data.injected}
    assert kinds >= set(EXPECTED) - {"same name and club"}


def test_rows_without_an_injected_fault_are_graded(
    generated: tuple[GeneratedSeason, SeasonResult],
) -> None:
    # A clean row may only be held back as the partner of an injected duplicate that disagrees
    # or as a reference to one of the injected same-name players.
    data, season = generated
    injected = data.injected_rows("Results")
    clean_problems = [p for p in season.problems if p.sheet == "Results" and p.row not in injected]
    assert {p.what for p in clean_problems} <= {"duplicate disagrees", "ambiguous player"}
