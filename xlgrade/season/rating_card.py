"""A rated season's rating cards: month by month, as a grader checks a rating by hand.

A card (:class:`RatingCard`) has, for each month the player played, the method (K or P) and
his rating at the start of the month; each game's opponent, result and the rating the
calculation used for the opponent (pass 3's for the K method, pass 2's for the P method); for
the K method each game's expected score from FIDE table 8.1b, the k and the change k(s − e),
then W, We, the change and the new rating (docs/rules.md §12: R1 = R0 + k(W − We)); for the
P method the games it is on (this month's and the earlier ones), the fictional draw's nominal
opponent, Ra, p, dp and the performance Ra + dp, with pass 1's "A" figure beside it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from xlgrade import cells
from xlgrade import ecf_rating as er
from xlgrade._rounding import round_half_away
from xlgrade.model import Game, Player
from xlgrade.season.checks import STANDARD
from xlgrade.season.rating import PlayerMonths
from xlgrade.settings import Settings

if TYPE_CHECKING:
    from xlgrade.season.rating import RatedList

__all__ = [
    "RatingCard",
    "RatingCardGame",
    "RatingCardMonth",
    "month_lines",
    "month_text",
    "path_text",
    "rating_card",
    "render_rating_card",
]


@dataclass(frozen=True)
class RatingCardGame:
    """One game on a rating card.

    Attributes:
        number: the game's number on the card, from 1.
        date: when it was played.
        opponent: the opponent's name.
        score: 1, 0.5 or 0.
        opponent_rating: the rating the calculation used for the opponent.
        expected: the expected score (K method; ``None`` for the P method).
        k: the k the game counted with (K method).
        change: k(s − e) (K method).
        league: the league that reported it, in a union's season (``""`` in one league's).
    """

    number: int
    date: dt.date | None
    opponent: str
    score: float
    opponent_rating: float
    expected: float | None = None
    k: float | None = None
    change: float | None = None
    league: str = ""


@dataclass(frozen=True)
class RatingCardMonth:
    """One month of a rating card.

    Attributes:
        month: its first day.
        method: ``"K"`` or ``"P"``.
        before: the rating at the start of the month (``None``: none).
        games: the month's games.
        score: W, the month's score.
        rating: the rating after the month.
        category: the category on the next month's list.
        expected, k, change: K method: We, the player's k, k(W − We) unrounded.
        k_reason: K method: why a junior has the k he has, when it depends on the month
            (setting ``Junior k`` at ``performance``: "junior, above expectation", or at or
            "below expectation"); ``""`` otherwise.
        nominal: P method: the fictional opponent's rating.
        earlier_games, earlier_opponents, earlier_score: P method: the rated games before
            this month that the P rating is also on (their count, opponents' ratings summed,
            score).
        p_games: P method: the games the rating is on (the fictional draw not counted).
        average, fraction, difference: P method: Ra, p and dp.
        rating_a: P method: pass 1's figure ("A").
    """

    month: dt.date
    method: str
    before: float | None
    games: tuple[RatingCardGame, ...]
    score: float
    rating: int
    category: str
    expected: float | None = None
    k: float | None = None
    change: float | None = None
    k_reason: str = ""
    nominal: float | None = None
    earlier_games: int = 0
    earlier_opponents: float = 0.0
    earlier_score: float = 0.0
    p_games: int = 0
    average: float | None = None
    fraction: float | None = None
    difference: float | None = None
    rating_a: float | None = None


@dataclass(frozen=True)
class RatingCard:
    """A player's rating card for the season on one list.

    Attributes:
        name: the player's name.
        kind: the list, standard or rapid.
        start_rating, start_category: at the start of the season (``None``, ``""``: none).
        months: the months he played.
        rating, category: after the season.
        path: the monthly path (:meth:`xlgrade.season.rating.RatedList.path`).
        start_p_games, start_p_opposition, start_p_score: a partial rating's earlier games at
            the start of the season, their opponents' average and his score in them
            (docs/rules.md §12: the P method counts them; 0 games for the others).
    """

    name: str
    kind: str
    start_rating: float | None
    start_category: str
    months: tuple[RatingCardMonth, ...]
    rating: float | None
    category: str
    path: tuple[int, ...]
    start_p_games: int = 0
    start_p_opposition: float = 0.0
    start_p_score: float = 0.0


def _or_none(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


def month_text(month: int) -> str:
    """A month (:func:`xlgrade.ecf_rating.month_index`) as ``2025-09``; blank for none."""
    if month == er.NO_MONTH:
        return ""
    return er.month_start(month).isoformat()[:7]


def path_text(path: list[int] | tuple[int, ...]) -> str:
    """A monthly path as the list shows it: ``1650 → 1662 → 1655``."""
    return " → ".join(str(r) for r in path)


def rating_card(
    rated: RatedList,
    players: Sequence[Player],
    games: Sequence[Game],
    settings: Settings,
    player: int,
    kind: str = STANDARD,
) -> RatingCard:
    """The rating card of player ``player`` on the list ``rated`` of the ``kind`` given, the
    season's players, result rows and settings (module docstring)."""
    months: list[RatingCardMonth] = []
    number = 0
    for i, month in enumerate(rated.months):
        res = rated.results[i]
        if not res.games[player]:
            continue
        before = rated.state_before(i)
        lo, hi = int(rated.spans[i]), int(rated.spans[i + 1])
        month_games: list[RatingCardGame] = []
        opponents = 0.0
        for g in range(lo, hi):
            white = int(rated.white[g]) == player
            if not white and int(rated.black[g]) != player:
                continue
            j = g - lo
            opponent = int(rated.black[g] if white else rated.white[g])
            s = float(rated.score[g] if white else 1.0 - rated.score[g])
            used = float(res.white_opponent[j] if white else res.black_opponent[j])
            opponents += used
            played = games[int(rated.rows[g])]
            day = cells.day(played.date)
            number += 1
            if res.method[player] == "K":
                e = float(res.white_expected[j] if white else res.black_expected[j])
                k = float(res.white_k[j] if white else res.black_k[j])
                line = RatingCardGame(
                    number, day,
                    players[opponent].name, s, used, e, k, round(k * (s - e), 10), played.league,
                )  # fmt: skip
            else:
                line = RatingCardGame(
                    number, day, players[opponent].name, s, used, league=played.league,
                )  # fmt: skip
            month_games.append(line)
        common = {
            "month": er.month_start(month),
            "method": str(res.method[player]),
            "before": _or_none(float(before.rating[player])),
            "games": tuple(month_games),
            "score": float(res.score[player]),
            "rating": int(res.rating[player]),
            "category": str(res.category[player]),
        }
        if res.method[player] == "K":
            k = float(res.k[player])
            change = float(res.change[player])
            months.append(
                RatingCardMonth(
                    **common,  # type: ignore[arg-type]
                    expected=float(res.expected[player]),
                    k=k,
                    change=change,
                    k_reason=_k_reason(settings, players[player], month, k, change),
                )
            )
            continue
        new = not bool(before.active()[player])
        pool_o = 0.0 if new else float(before.pool_opponents[player])
        pool_s = 0.0 if new else float(before.pool_score[player])
        pool_g = 0 if new else int(before.pool_games[player])
        nominal = float(res.nominal[player])
        p_games = int(res.p_games[player])
        average = (pool_o + opponents + nominal) / (p_games + 1)
        fraction = (pool_s + float(res.score[player]) + 0.5) / (p_games + 1)
        months.append(
            RatingCardMonth(
                **common,  # type: ignore[arg-type]
                nominal=nominal,
                earlier_games=pool_g,
                earlier_opponents=pool_o,
                earlier_score=pool_s,
                p_games=p_games,
                average=average,
                fraction=fraction,
                difference=er.performance_difference(
                    fraction,
                    settings.p_method,  # type: ignore[arg-type]
                ),
                rating_a=float(res.rating_a[player]),
            )
        )
    start_games = int(rated.start.pool_games[player])
    return RatingCard(
        players[player].name,
        kind,
        _or_none(float(rated.start.rating[player])),
        str(rated.start_category[player]),
        tuple(months),
        _or_none(float(rated.rating[player])),
        str(rated.category[player]),
        tuple(rated.path(player)),
        start_games,
        float(rated.start.pool_opponents[player]) / start_games if start_games else 0.0,
        float(rated.start.pool_score[player]),
    )


def _k_reason(settings: Settings, player: Player, month: int, k: float, change: float) -> str:
    """Why a junior's k is what it is in ``month`` (:attr:`RatingCardMonth.k_reason`): with
    ``Junior k`` at ``performance`` (:func:`xlgrade.ecf_rating.k_factor`) a junior has k 40
    in a month above expectation and k 20 in one at or below it."""
    if settings.junior_k != "performance":
        return ""
    if not PlayerMonths.of([player]).junior(month)[0]:
        return ""
    if k == er.K_JUNIOR:
        return "junior, above expectation"
    return "junior, " + ("at" if change == 0 else "below") + " expectation"


def _figure(value: float) -> str:
    """A rating or a sum: whole numbers plain, others to two decimals."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"


def _score(value: float) -> str:
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(value, _figure(value))


def _total(value: float) -> str:
    """A score total: whole, or with ½."""
    whole = int(value)
    return (str(whole) if whole else "") + "½" if value - whole == 0.5 else _figure(value)


def _k_lines(m: RatingCardMonth) -> list[str]:
    assert m.expected is not None
    assert m.k is not None
    assert m.change is not None
    # The change as published: the new rating less the old (the setting Rating rounding).
    rounded = round_half_away(m.rating - (m.before or 0))
    ks = {g.k for g in m.games}
    formula = (
        f"{_figure(m.k)} × ({_total(m.score)} − {m.expected:.2f}) = {m.change:+.2f}"
        if ks == {m.k}
        else f"Σ k(s − e) = {m.change:+.2f}"
    )
    return [
        f"  W = {_total(m.score)}, We = {m.expected:.2f}: {formula} → {rounded:+d}",
        f"  {_figure(m.before or 0)} {rounded:+d} = {m.rating}, category {m.category or '-'}",
    ]


def _p_lines(m: RatingCardMonth) -> list[str]:
    assert m.average is not None
    assert m.fraction is not None
    assert m.difference is not None
    assert m.nominal is not None
    n = m.p_games + 1
    # The sums back from the means: the score to its half point, the ratings' sum to the
    # cent (a mean times n is 7 only to within a rounding error: 6.999999).
    opponents = round(m.average * n - m.nominal, 2)
    score = round((m.fraction * n - 0.5) * 2) / 2
    earlier = (
        f", {m.earlier_games} of them before this month (opponents "
        f"{_figure(m.earlier_opponents)}, score {_total(m.earlier_score)})"
        if m.earlier_games
        else ""
    )
    partial = "partial" if m.p_games < er.FULL_RATING_GAMES else "full"
    return [
        f"  {m.p_games} game{'s' if m.p_games != 1 else ''}{earlier}, and a fictional draw "
        f"against {_figure(m.nominal)}",
        f"  Ra = ({_figure(opponents)} + {_figure(m.nominal)}) / {n} = {m.average:.2f}; "
        f"p = ({_total(score)} + ½) / {n} = {m.fraction:.2f}; dp = {m.difference:+g}",
        f"  Ra + dp = {m.rating} ({partial}; pass A {_figure(m.rating_a or 0)}), "
        f"category {m.category or '-'}",
    ]


def month_lines(m: RatingCardMonth) -> list[str]:
    """The lines of a month's calculation, by its method (K or P), as the card prints them."""
    return _k_lines(m) if m.method == "K" else _p_lines(m)


def render_rating_card(card: RatingCard) -> str:
    """The rating card as text: month by month, as a grader checks it by hand."""
    play = "rapidplay" if card.kind != STANDARD else "standard play"
    start = "none" if card.start_rating is None else _figure(card.start_rating)
    category = f", category {card.start_category}" if card.start_category else ""
    if card.start_p_games:
        n = card.start_p_games
        category += (
            f", on {n} earlier game{'s' if n != 1 else ''} (opposition "
            f"{_figure(round(card.start_p_opposition, 2))}, score {_total(card.start_p_score)})"
        )
    out = [f"{card.name} — ECF rating, {play}", f"Start of the season: {start}{category}"]
    leagues = any(g.league for m in card.months for g in m.games)  # a union's card
    for m in card.months:
        out.append("")
        head = "  Game  Date        Opponent                  Res  Opp rating"
        if m.method == "K":
            k = _figure(m.k or 0) + (f" ({m.k_reason})" if m.k_reason else "")
            out.append(f"{m.month.isoformat()[:7]}: K method, from {_figure(m.before or 0)}, k {k}")
            head += "  Exp  Change"
        else:
            out.append(f"{m.month.isoformat()[:7]}: P method")
        out.append(head + ("  League" if leagues else ""))
        for g in m.games:
            day = g.date.isoformat() if g.date else ""
            line = (
                f"  {g.number:>4}  {day:<10}  {g.opponent[:24]:<24}  {_score(g.score):>3}  "
                f"{_figure(g.opponent_rating):>10}"
            )
            if g.expected is not None and g.change is not None:
                line += f"  {g.expected:.2f}  {g.change:+.2f}"
            if leagues:
                line += f"  {g.league}"
            out.append(line)
        out.extend(month_lines(m))
    out.append("")
    if card.path:
        out.append(f"Monthly path: {path_text(card.path)}")
    end = "none" if card.rating is None else _figure(card.rating)
    out.append(f"After the season: {end}, category {card.category or 'unrated'}")
    return "\n".join(out) + "\n"
