"""Every reader, on mutated bytes of real files and the hostile shapes of
:data:`tests.formats.hostile_inputs.TOKENS`, ends in a result or a clean ``Error: …`` (exit code
0 or 1); anything else raises, since the suite sets ``XLGRADE_RAISE_INTERNAL``. Bounded so the
suite stays fast; ``benchmarks/fuzz_campaign.py`` runs many more inputs and measures their time
and memory (docs/limits.md)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.formats.hostile_inputs import READERS, SEEDS, mutate, run_reader

_EXAMPLES = {"TRF": 40, "ECF file": 60, "card file": 60, "CSV folder": 30, "workbook": 25}


def test_every_reader_has_seeds() -> None:
    assert set(READERS) == set(_EXAMPLES)
    assert all(SEEDS[reader] for reader in READERS)


@pytest.mark.parametrize("reader", READERS)
def test_the_seeds_themselves_give_a_result(reader: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        files = SEEDS[reader] if reader == "CSV folder" else SEEDS[reader][:1]
        assert run_reader(reader, files, Path(folder)) == 0


@pytest.mark.parametrize("reader", READERS)
def test_mutated_input_gives_a_result_or_a_clean_error(reader: str) -> None:
    @settings(
        max_examples=_EXAMPLES[reader],
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 4))
    def run(seed: int, rounds: int) -> None:
        with tempfile.TemporaryDirectory() as folder:
            assert run_reader(reader, mutate(reader, seed, rounds), Path(folder)) in (0, 1)

    run()


@pytest.mark.parametrize(
    ("reader", "seed", "rounds"),
    [
        # A cell past the CSV reader's 131,072 characters on the line an import reads to tell
        # an ECF rating list from other files: once a traceback from the rating list's reader.
        ("ECF file", 748980002, 3),
    ],
)
def test_inputs_the_campaign_found_end_in_a_clean_error(
    reader: str, seed: int, rounds: int
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        assert run_reader(reader, mutate(reader, seed, rounds), Path(folder)) == 1
