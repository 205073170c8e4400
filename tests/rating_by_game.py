"""The ECF rating of a month worked game by game with the scalar rules: the loop form of
:func:`xlgrade.ecf_rating.rate_month`, written from docs/rules.md §12 as a grader works a
month on paper, so that the tests and ``benchmarks/bench_ecf_rating.py`` can hold the array
form to it (the same numbers, to the bit)."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from xlgrade import elo
from xlgrade._rounding import round_half_away
from xlgrade.ecf_rating import (
    CATEGORY_A_MONTHS,
    FULL_RATING_GAMES,
    NOMINAL_ADULT,
    PARTIAL_OPPONENT_SHARE,
    UNRATED_AFTER_MONTHS,
    MonthResult,
    PMethod,
    PRating,
    RatingSettings,
    RatingState,
    k_factor,
    nominal_rating_from,
    performance_difference,
)

__all__ = ["rate_month_by_game"]


def _expected(rating: float, opponent: float) -> float:
    """FIDE table 8.1b with the 400-point rule (docs/rules.md §12, "We")."""
    return elo.expected_score(rating, opponent, method="table", rule=elo.RULE_400)


def _p_from_sums(
    opponents: float, score: float, games: int, nominal: float, method: PMethod
) -> PRating:
    """The P method with the fictional draw: Ra = (Σ opponents + nominal) / (n + 1),
    p = (W + ½) / (n + 1), rating = Ra + dp(p), partial below 10 games."""
    n = games + 1
    average = (opponents + nominal) / n
    fraction = (score + 0.5) / n
    difference = performance_difference(fraction, method)
    rating = round_half_away(average + difference)
    return PRating(rating, games, games < FULL_RATING_GAMES, nominal, average, fraction, difference)


def rate_month_by_game(  # noqa: PLR0915 (a month on paper, step by step)
    state: RatingState,
    white: npt.ArrayLike,
    black: npt.ArrayLike,
    score: npt.ArrayLike,
    *,
    junior: npt.ArrayLike = False,
    nominal: npt.ArrayLike = NOMINAL_ADULT,
    settings: RatingSettings | None = None,
) -> MonthResult:
    """Rate one month game by game with the scalar rules: the loop form of
    :func:`xlgrade.ecf_rating.rate_month`, over valid inputs (it checks nothing).

    Each player's games are gathered one game at a time; the P ratings come from
    :func:`xlgrade.ecf_rating.performance_difference` and the K changes from FIDE table 8.1b
    with the 400-point rule (:func:`xlgrade.elo.expected_score`), the rules a grader follows
    on paper. Same arguments, same numbers as ``rate_month``.
    """
    cfg = settings or RatingSettings()
    n, m = state.players, state.month
    wl = np.asarray(white, dtype=np.int64).reshape(-1).tolist()
    bl = np.asarray(black, dtype=np.int64).reshape(-1).tolist()
    sl = np.asarray(score, dtype=np.float64).reshape(-1).tolist()
    jr_arr = np.broadcast_to(np.asarray(junior, dtype=np.bool_), (n,))
    nom_arr = np.broadcast_to(np.asarray(nominal, dtype=np.float64), (n,))
    rating = state.rating.tolist()
    full = state.full.tolist()
    last_month = state.last_month.tolist()
    last_full = state.last_full.tolist()
    # Each player's games this month: (opponent, own score, white side?, game number).
    mine: list[list[tuple[int, float, int]]] = [[] for _ in range(n)]
    for g, (wp, bp, sc) in enumerate(zip(wl, bl, sl, strict=True)):
        mine[wp].append((bp, sc, g))
        mine[bp].append((wp, 1.0 - sc, g))
    active = [
        math.isfinite(rating[i]) and last_month[i] >= m - UNRATED_AFTER_MONTHS for i in range(n)
    ]
    kind = ["" for _ in range(n)]
    for i in range(n):
        if mine[i]:
            kind[i] = "K" if active[i] and full[i] else "P"
    pool: list[tuple[float, float, int, float]] = []
    for i in range(n):
        if kind[i] != "P":
            pool.append((0.0, 0.0, 0, math.nan))
            continue
        last = last_full[i] if math.isfinite(last_full[i]) else None
        returning = nominal_rating_from(float(nom_arr[i]), last, cfg.returning_nominal)
        if not active[i]:
            pool.append((0.0, 0.0, 0, returning))
            continue
        kept = float(state.pool_nominal[i])
        fresh = math.isnan(kept) or cfg.partial_nominal == "current"
        pool.append(
            (
                float(state.pool_opponents[i]),
                float(state.pool_score[i]),
                int(state.pool_games[i]),
                returning if fresh else kept,
            )
        )

    def p_of(i: int, figure: list[float]) -> PRating:
        po, ps, pg, nominal_i = pool[i]
        # White-side games, then black-side ones, as the array form adds them.
        white_sum = math.fsum(figure[o] for o, _, g in mine[i] if wl[g] == i)
        black_sum = math.fsum(figure[o] for o, _, g in mine[i] if wl[g] != i)
        white_score = math.fsum(sc for _, sc, g in mine[i] if wl[g] == i)
        black_score = math.fsum(sc for _, sc, g in mine[i] if wl[g] != i)
        opp = po + (white_sum + black_sum)
        return _p_from_sums(
            opp, ps + (white_score + black_score), pg + len(mine[i]), nominal_i, cfg.p_method
        )

    fig1 = [
        rating[i] if active[i] else (pool[i][3] if kind[i] == "P" else math.nan) for i in range(n)
    ]
    a = [float(p_of(i, fig1).rating) if kind[i] == "P" else math.nan for i in range(n)]
    fig2 = [a[i] if kind[i] == "P" else rating[i] for i in range(n)]
    b_res = [p_of(i, fig2) if kind[i] == "P" else None for i in range(n)]
    bb = [float(r.rating) if r is not None else math.nan for r in b_res]
    fig3 = [bb[i] if kind[i] == "P" else rating[i] for i in range(n)]
    partial_b = [r is not None and r.partial for r in b_res]
    games_n = len(wl)
    opp_used = [[math.nan, math.nan] for _ in range(games_n)]
    exp_used = [[math.nan, math.nan] for _ in range(games_n)]
    k_used = [[math.nan, math.nan] for _ in range(games_n)]
    change = [math.nan] * n
    expected = [math.nan] * n
    kk = [k_factor(junior=bool(jr_arr[i]), settings=cfg) for i in range(n)]
    for i in range(n):
        for o, _, g in mine[i]:
            opp_used[g][0 if wl[g] == i else 1] = fig3[o] if kind[i] == "K" else fig2[o]
        if kind[i] != "K":
            continue
        terms_w: list[float] = []
        terms_b: list[float] = []
        exp_w: list[float] = []
        exp_b: list[float] = []
        shares: list[tuple[int, int, float]] = []
        for o, sc, g in mine[i]:
            side = 0 if wl[g] == i else 1
            e = _expected(rating[i], fig3[o])
            share = PARTIAL_OPPONENT_SHARE if cfg.partial_opponent == "half" and partial_b[o] else 1
            shares.append((g, side, share))
            exp_used[g][side] = e
            (terms_w if side == 0 else terms_b).append(share * (sc - e))
            (exp_w if side == 0 else exp_b).append(e)
        unit = math.fsum(terms_w) + math.fsum(terms_b)
        kk[i] = k_factor(junior=bool(jr_arr[i]), settings=cfg, performance=unit)
        for g, side, share in shares:
            k_used[g][side] = kk[i] * share
        change[i] = round(kk[i] * unit, 10)
        expected[i] = math.fsum(exp_w) + math.fsum(exp_b)
    after = list(rating)
    full_after = list(full)
    last_full_after = list(last_full)
    last_month_after = list(last_month)
    pool_after = [
        (
            float(state.pool_opponents[i]),
            float(state.pool_score[i]),
            int(state.pool_games[i]),
            float(state.pool_nominal[i]),
        )
        for i in range(n)
    ]
    p_games = [0] * n
    for i in range(n):
        if kind[i] == "K":
            step = change[i] if cfg.rounding == "rating" else round_half_away(change[i])
            after[i] = float(round_half_away(rating[i] + step))
        elif kind[i] == "P":
            result = b_res[i]
            assert result is not None
            after[i] = bb[i]
            full_after[i] = not result.partial
            p_games[i] = result.games
            po, ps, _, nominal_i = pool[i]
            if result.partial:
                w_sum = math.fsum(fig2[o] for o, _, g in mine[i] if wl[g] == i)
                b_sum = math.fsum(fig2[o] for o, _, g in mine[i] if wl[g] != i)
                w_sc = math.fsum(sc for _, sc, g in mine[i] if wl[g] == i)
                b_sc = math.fsum(sc for _, sc, g in mine[i] if wl[g] != i)
                pool_after[i] = (po + (w_sum + b_sum), ps + (w_sc + b_sc), result.games, nominal_i)
            else:
                pool_after[i] = (0.0, 0.0, 0, math.nan)
        if mine[i]:
            last_month_after[i] = m
            if full_after[i]:
                last_full_after[i] = after[i]
    slot = state.month % CATEGORY_A_MONTHS
    played = np.array([len(x) for x in mine], dtype=np.int64)
    recent = tuple(played if i == slot else a for i, a in enumerate(state.recent))
    recent_total = state.recent_total - state.recent[slot] + played
    next_state = RatingState(
        month=m + 1,
        rating=np.array(after, dtype=np.float64),
        full=np.array(full_after, dtype=np.bool_),
        last_full=np.array(last_full_after, dtype=np.float64),
        last_month=np.array(last_month_after, dtype=np.int64),
        pool_opponents=np.array([p[0] for p in pool_after], dtype=np.float64),
        pool_score=np.array([p[1] for p in pool_after], dtype=np.float64),
        pool_games=np.array([p[2] for p in pool_after], dtype=np.int64),
        pool_nominal=np.array([p[3] for p in pool_after], dtype=np.float64),
        recent=recent,
        recent_total=recent_total,
    )
    score_sum = [
        math.fsum(sc for _, sc, g in mine[i] if wl[g] == i)
        + math.fsum(sc for _, sc, g in mine[i] if wl[g] != i)
        for i in range(n)
    ]
    return MonthResult(
        state=next_state,
        method=np.array(kind, dtype=np.str_),
        rating_a=np.array(a, dtype=np.float64),
        rating_b=np.array(bb, dtype=np.float64),
        rating=next_state.rating,
        change=np.array(change, dtype=np.float64),
        k=np.array([kk[i] if kind[i] == "K" else math.nan for i in range(n)]),
        score=np.array(score_sum, dtype=np.float64),
        expected=np.array(expected, dtype=np.float64),
        games=np.array([len(x) for x in mine], dtype=np.int64),
        nominal=np.array([pool[i][3] if kind[i] == "P" else math.nan for i in range(n)]),
        p_games=np.array(p_games, dtype=np.int64),
        category=next_state.categories(),
        white_opponent=np.array([x[0] for x in opp_used], dtype=np.float64),
        black_opponent=np.array([x[1] for x in opp_used], dtype=np.float64),
        white_expected=np.array([x[0] for x in exp_used], dtype=np.float64),
        black_expected=np.array([x[1] for x in exp_used], dtype=np.float64),
        white_k=np.array([x[0] for x in k_used], dtype=np.float64),
        black_k=np.array([x[1] for x in k_used], dtype=np.float64),
    )
