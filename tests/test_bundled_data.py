"""The real tournament reports the tests read are bundled in ``tests/data/trf`` so that a
checkout alone runs the tests; they are the files of the project's shared data byte for byte."""

from pathlib import Path

import pytest

BUNDLED = Path(__file__).parent / "data" / "trf"
SHARED = Path(__file__).parents[2] / "shared" / "data" / "trf"


@pytest.mark.parametrize(
    "name", ["san_viator_2018.trf", "example1.trf", "2020_06.trf", "SOURCES.md"]
)
def test_a_bundled_report_is_the_shared_original(name: str) -> None:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is not beside this checkout")
    assert (BUNDLED / name).read_bytes() == (SHARED / name).read_bytes()
