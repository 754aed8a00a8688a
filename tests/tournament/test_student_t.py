"""Our pure-Python Student's t quantile (tournament intervals without scipy) against scipy's `stdtrit`."""

from __future__ import annotations

import math

import pytest
from scipy import special as scipy_special  # the reference implementation (the test extra installs scipy)

from tabletop_edu.student_t import regularized_beta, t_quantile, t_upper_tail

PROBABILITIES = (1e-12, 1e-6, 0.001, 0.025, 0.05, 0.1, 0.3, 0.5000001, 0.6, 0.75, 0.9, 0.95, 0.975, 0.99, 0.995,
                 0.9995, 0.999999)


@pytest.mark.parametrize("df", range(1, 201))
def test_the_quantile_matches_scipy_to_1e_9(df: int) -> None:
    for p in PROBABILITIES:
        expected = float(scipy_special.stdtrit(df, p))
        assert t_quantile(df, p) == pytest.approx(expected, rel=1e-9, abs=1e-9), (df, p)


@pytest.mark.parametrize("df", [0.5, 1.5, 2.5, 7.25, 1000.0, 1e6])
def test_fractional_and_large_degrees_of_freedom(df: float) -> None:
    for p in (0.025, 0.975, 0.999):
        assert t_quantile(df, p) == pytest.approx(float(scipy_special.stdtrit(df, p)), rel=1e-9)


def test_the_quantile_inverts_the_tail() -> None:
    for df in (3, 10, 60):
        for p in (0.2, 0.8, 0.99):
            assert 1 - t_upper_tail(df, t_quantile(df, p)) == pytest.approx(p, rel=1e-12)
    assert t_quantile(5, 0.5) == 0.0
    assert t_quantile(5, 0.1) == pytest.approx(-t_quantile(5, 0.9), rel=1e-12)  # 1 - 0.9 rounds


def test_the_incomplete_beta_matches_scipy() -> None:
    for x in (1e-9, 0.1, 0.5, 0.9, 1 - 1e-9):
        for a, b in ((0.5, 0.5), (2.0, 0.5), (30.0, 4.5), (100.0, 0.5)):
            assert regularized_beta(x, a, b) == pytest.approx(float(scipy_special.betainc(a, b, x)), rel=1e-11)
    assert regularized_beta(0.0, 2, 3) == 0.0 and regularized_beta(1.0, 2, 3) == 1.0


@pytest.mark.parametrize("df, p", [(0, 0.9), (-1, 0.9), (math.inf, 0.9), (math.nan, 0.9), (3, 0.0), (3, 1.0),
                                   (3, -0.1), (3, math.nan)])
def test_bad_arguments_are_refused_in_a_sentence(df: float, p: float) -> None:
    with pytest.raises(ValueError, match="degrees of freedom|strictly between 0 and 1"):
        t_quantile(df, p)
