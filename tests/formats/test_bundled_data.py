"""The real tournament reports the tests read are bundled in ``tests/data/trf`` so that a
checkout alone runs the tests; they are the files of the project's shared data byte for byte."""

import pytest

from tests.paths import TRF, TRF_SHARED

BUNDLED = TRF
SHARED = TRF_SHARED


@pytest.mark.parametrize(
    "name", ["san_viator_2018.trf", "example1.trf", "2020_06.trf", "SOURCES.md"]
)
def test_a_bundled_report_is_the_shared_original(name: str) -> None:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is not beside this checkout")
    assert (BUNDLED / name).read_bytes() == (SHARED / name).read_bytes()
