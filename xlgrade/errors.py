"""One exception tree for everything xlgrade refuses.

Every error is a :class:`ValueError`, so callers that only care that the input was bad can
catch that. Messages quote the offending input with ``!r`` so a grader can find it in a cell
or a file; callers that know the row or cell (the workbook reader, the file formats, the
command line) put that in front of the message.
"""

from __future__ import annotations

__all__ = [
    "CodeError",
    "FormatError",
    "GradeError",
    "GradingError",
    "HeaderError",
    "InUseError",
    "RepeatedImportError",
    "ResultError",
    "SettingError",
    "TimeControlError",
]


class GradingError(ValueError):
    """Base class of every input xlgrade cannot grade."""


class ResultError(GradingError):
    """A result cell that is neither a game result nor a recognised default."""


class GradeError(GradingError):
    """A grade, rating or count that is not a usable number."""


class TimeControlError(GradingError):
    """A time control written in a form xlgrade does not read."""


class CodeError(GradingError):
    """An ECF grading reference code that is malformed."""


class SettingError(GradingError):
    """A setting with an unknown name or an out-of-range value."""


class FormatError(GradingError):
    """A file that does not follow its format; the message starts with ``line N:``."""


class InUseError(GradingError):
    """A file another program has open, or another xlgrade run is writing."""


class RepeatedImportError(GradingError):
    """A file to import whose games are already there: it was probably imported before."""


class HeaderError(FormatError):
    """A table whose header row lacks a column every row needs, or names a column that is not
    known but close to one that is (``Grading`` for ``Grade``): read as it is, it would change
    the grades without a word."""
