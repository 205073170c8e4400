"""The season recalculation: a league's players and result rows → a published grading list,
a rapidplay list, every player's calculation card, and the exceptions.

The steps, each documented where it happens:

1. **Players** are indexed by ECF code and by name. A code whose check letter is wrong, a code
   entered twice, and two players of the same name and club with no code are reported.
2. **Checks before grading**: every result row is resolved and checked in this order, and the
   first failure is its one reason in the exceptions (the order is the declared list
   :data:`xlgrade.season.checks.CHECKS`): ``unknown player`` (home side; also an ambiguous
   name or a bad code), ``unknown player`` (away side), ``self pairing``, ``result not
   understood``, ``date not understood``, ``date outside season``, ``no date`` (only when
   the season is rated: a rating takes a month's games), ``time control not understood, not
   gradable or not rated`` (by the acceptance rules of the season's System,
   :data:`xlgrade.eligibility.RULES`), ``default`` (kept, not graded); then the same game
   entered twice.
   Rapidplay rows go to the rapid list. Nothing is dropped silently: :class:`Accounting`
   adds it up.
3. **Working grades** for ungraded players (:mod:`xlgrade.estimate`).
4. **Grades**: each game's points for both players with the horizon from each player's own
   start grade, season grades with borrowing, categories, junior enhancements, the published
   list.
5. **Elo beside it** when the settings name a K policy.
6. **The ECF rating** instead of the grades on the lists, when the setting ``System`` is
   ``ECF rating (2020 rules)``: each list rated month by month over the season's months
   (:mod:`xlgrade.season.rating`), its rating cards (:mod:`xlgrade.season.rating_card`).

The steps live in the package's modules: :mod:`~xlgrade.season.players` (the Players
table's checks), :mod:`~xlgrade.season.references` (step 1), :mod:`~xlgrade.season.checks` and
:mod:`~xlgrade.season.duplicates` (step 2), :mod:`~xlgrade.season.lists` (steps 3 to 5),
:mod:`~xlgrade.season.result` (the recalculated season, its lists and exceptions),
:mod:`~xlgrade.season.grading_card` and :mod:`~xlgrade.season.rating_card` (a player's card,
graded or rated), :mod:`~xlgrade.season.tables` (the output tables' columns),
:mod:`~xlgrade.season.shared` (the types they share) and :mod:`~xlgrade.season.run` (the
steps in order). The workbook's output sheets are laid out from these in one module,
:mod:`xlgrade.workbook.outputs`.

Everything per game is done on whole columns with numpy; only distinct texts (player
references, result texts, time controls, dates) are parsed one by one, once each.
"""

from xlgrade.season.checks import RAPID, STANDARD
from xlgrade.season.lists import GradedList
from xlgrade.season.references import name_key
from xlgrade.season.result import Accounting, SeasonResult
from xlgrade.season.run import recalculate
from xlgrade.season.tables import CARD_HEADERS, EXCEPTION_HEADERS, LIST_HEADERS, Table

__all__ = [
    "CARD_HEADERS",
    "EXCEPTION_HEADERS",
    "LIST_HEADERS",
    "RAPID",
    "STANDARD",
    "Accounting",
    "GradedList",
    "SeasonResult",
    "Table",
    "name_key",
    "recalculate",
]
