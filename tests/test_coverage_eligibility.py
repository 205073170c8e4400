"""Time controls (GRADING-RULES.md §11): a cell that is not text is refused, quoting it."""

import pytest

from xlgrade.eligibility import parse_time_control
from xlgrade.errors import TimeControlError


@pytest.mark.parametrize(("value", "shown"), [(75, "75"), (None, "None"), (1.5, "1.5")])
def test_a_time_control_must_be_text(value: object, shown: str) -> None:
    with pytest.raises(TimeControlError) as error:
        parse_time_control(value)  # type: ignore[arg-type]
    assert str(error.value) == f"time control {shown} is not text"
