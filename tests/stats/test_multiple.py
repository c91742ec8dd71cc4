"""Benjamini–Hochberg against its definition, the 1995 paper's example and scipy."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps

from baton.stats import StatsInputError, benjamini_hochberg, bh_significant

# Benjamini & Hochberg (1995), JRSS B 57:289, section 4: 15 p-values; BH at q = 0.05 rejects 4
# while Bonferroni rejects 3.
BH_1995 = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
           0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000]  # fmt: skip


def _by_definition(ps: list[float]) -> list[float]:
    """q_i = min over j with p_j ≥ p_i of m·p_j / rank_j, capped at 1 (O(m²), obviously right)."""
    m = len(ps)
    ranked = sorted(ps)
    rank = {p: max(i + 1 for i, v in enumerate(ranked) if v == p) for p in ps}
    return [min(1.0, *(m * pj / rank[pj] for pj in ps if pj >= p)) for p in ps]


def test_bh_1995_example_rejects_four() -> None:
    assert bh_significant(BH_1995, 0.05) == [True] * 4 + [False] * 11
    assert sum(p <= 0.05 / len(BH_1995) for p in BH_1995) == 3


def test_bh_hand_computed_vector() -> None:
    ps = [0.01, 0.04, 0.03, 0.005, 0.5]
    # sorted 0.005,0.01,0.03,0.04,0.5 → 5p/r = 0.025,0.025,0.05,0.05,0.5 (already monotone)
    assert benjamini_hochberg(ps) == pytest.approx([0.025, 0.05, 0.05, 0.025, 0.5])


def test_bh_matches_scipy_and_definition() -> None:
    assert benjamini_hochberg(BH_1995) == pytest.approx(list(sps.false_discovery_control(BH_1995)))
    assert benjamini_hochberg(BH_1995) == pytest.approx(_by_definition(BH_1995))


@given(st.lists(st.floats(min_value=0.0, max_value=1.0), max_size=40))
def test_bh_properties(ps: list[float]) -> None:
    q = benjamini_hochberg(ps)
    assert q == pytest.approx(_by_definition(ps))
    assert all(p <= qi <= 1.0 for p, qi in zip(ps, q, strict=True))
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    assert all(q[a] <= q[b] for a, b in itertools.pairwise(order))


@pytest.mark.parametrize("bad", [[0.1, float("nan")], [1.2], [-0.1]])
def test_bh_refuses_invalid_p_values(bad: list[float]) -> None:
    with pytest.raises(StatsInputError):
        benjamini_hochberg(bad)
