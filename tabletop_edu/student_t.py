"""Student's t quantile in pure Python: tournament intervals without scipy (a Pyodide kernel has none).

`t_quantile(df, p)` is the inverse of Student's t distribution function, to about 1e-13 relative: the upper tail
`P(T > t) = I_x(df/2, 1/2) / 2` with `x = df / (df + t^2)` (the regularized incomplete beta, as a continued
fraction) is solved for t by Newton steps kept inside a bracket. Degrees of freedom 1 and 2 have closed forms.

    >>> round(t_quantile(4, 0.975), 6)
    2.776445
"""

from __future__ import annotations

import math

#: Relative precision the continued fraction and the root finder stop at.
_PRECISION = 1e-15
_MAX_ITERATIONS = 500


def t_quantile(df: float, p: float) -> float:
    """The t with P(T <= t) = p for Student's t with `df` degrees of freedom (scipy's `stdtrit(df, p)`)."""
    if not df > 0 or math.isinf(df):
        raise ValueError(f"Student's t needs a positive, finite number of degrees of freedom, not {df!r}.")
    if not 0 < p < 1:
        raise ValueError(f"A quantile's probability is strictly between 0 and 1, not {p!r}.")
    if p == 0.5:
        return 0.0
    tail = min(p, 1 - p)  # the smaller tail, as given: 1 - (1 - p) would lose p's digits when p is tiny
    sign = 1.0 if p > 0.5 else -1.0
    if df == 1:
        return sign / math.tan(math.pi * tail)
    if df == 2:
        return sign * (1 - 2 * tail) / math.sqrt(2 * tail * (1 - tail))
    return sign * _solve_tail(df, tail)


def t_upper_tail(df: float, t: float) -> float:
    """P(T > t) for Student's t with `df` degrees of freedom."""
    if t < 0:
        return 1 - t_upper_tail(df, -t)
    square = t * t
    return 0.5 * regularized_beta(df / (df + square), df / 2, 0.5, complement=square / (df + square))


def t_density(df: float, t: float) -> float:
    """The density of Student's t with `df` degrees of freedom at `t`."""
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_norm - (df + 1) / 2 * math.log1p(t * t / df))


def regularized_beta(x: float, a: float, b: float, *, complement: float | None = None) -> float:
    """I_x(a, b), the regularized incomplete beta function (Lentz's continued fraction, Numerical Recipes 6.4).

    `complement` is 1 - x when the caller knows it more precisely than 1 - x rounds (x close to 1)."""
    rest = 1 - x if complement is None else complement
    if x <= 0:
        return 0.0
    if rest <= 0:
        return 1.0
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast only below the mean: use the symmetry
        return 1 - regularized_beta(rest, b, a, complement=x)
    log_front = a * math.log(x) + b * math.log(rest) - math.log(a) - _log_beta(a, b)
    return math.exp(log_front) * _beta_fraction(x, a, b)


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def _beta_fraction(x: float, a: float, b: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    fraction = d
    for m in range(1, _MAX_ITERATIONS):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + numerator / c
            c = c if abs(c) > tiny else tiny
            fraction *= c * d
        if abs(c * d - 1) < _PRECISION:
            return fraction
    raise ArithmeticError(f"The incomplete beta I_{x}({a}, {b}) did not converge.")  # pragma: no cover


def _solve_tail(df: float, tail: float) -> float:
    """The t > 0 with P(T > t) = tail: Newton's steps, falling back on bisection when one leaves the bracket."""
    low, high = 0.0, 2.0
    while t_upper_tail(df, high) > tail:
        low, high = high, 2 * high
    t = (low + high) / 2
    for _ in range(_MAX_ITERATIONS):
        excess = t_upper_tail(df, t) - tail  # > 0: t is too small
        if excess > 0:
            low = t
        else:
            high = t
        step = excess / t_density(df, t)
        guess = t + step
        if not low < guess < high:
            guess = (low + high) / 2
        if abs(guess - t) <= _PRECISION * guess or high - low <= _PRECISION * high:
            return guess
        t = guess
    return t  # pragma: no cover
