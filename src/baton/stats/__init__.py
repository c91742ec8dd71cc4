"""Baton's pure statistics: tests, intervals, trends, anomalies and decompositions.

No I/O and no SQL: the warehouse sends sufficient statistics (n, Σx, Σx² per period or group)
and, for trend work, short daily series. Direction convention: ``a`` / group 1 is the baseline,
``b`` / group 2 the current period; differences are ``b − a``. Every result is a frozen dataclass
with ``to_dict()`` and carries its method name and assumptions.

Imports are lazy (PEP 562): ``from baton.stats import peak_window_for`` loads only the calendar
module, never SciPy; SciPy loads when a test that needs it runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from baton.lazy import lazy_attributes

if TYPE_CHECKING:
    from baton.errors import InsufficientData, StatsInputError

    from ._result import Interval, StatResult, to_jsonable
    from .anomaly import AnomalyReport, DayScore, seasonal_anomaly_scores
    from .calendar import PeakWindow, exclude_days, peak_window_for
    from .changepoint import ChangePoint, ChangePointResult, Segment, detect_mean_changes, robust_sigma
    from .day_counts import (
        HISTORY_WEEKS,
        DayCheck,
        completeness,
        dispersion,
        lower_tail,
        peak_days_a_year_back,
        weekday_factors,
    )
    from .decomposition import (
        AdditiveDecomposition,
        FactorEffect,
        LmdiDecomposition,
        Member,
        MemberContribution,
        RatioDecomposition,
        RatioMemberEffect,
        additive_contributions,
        lmdi,
        ratio_mix_rate,
    )
    from .means import (
        AnovaResult,
        OneSampleTResult,
        TwoSampleTResult,
        change_test,
        new_observation_t_test,
        one_sample_t_test,
        one_way_anova,
        paired_t_test,
        student_t_test,
        welch_t_test,
    )
    from .multiple import benjamini_hochberg, bh_significant
    from .proportions import (
        RateChangeAgainstResult,
        TwoProportionResult,
        cohens_h,
        newcombe_interval,
        rate_change_against,
        two_proportion_test,
        wilson_interval,
    )
    from .regression import LinearSums, OlsResult, ols_fit, ols_from_sums
    from .suffstats import SuffStats
    from .trend import MannKendallResult, mann_kendall, sens_slope

_WHERE: dict[str, str] = {
    "AdditiveDecomposition": ".decomposition",
    "AnomalyReport": ".anomaly",
    "AnovaResult": ".means",
    "ChangePoint": ".changepoint",
    "ChangePointResult": ".changepoint",
    "DayCheck": ".day_counts",
    "change_test": ".means",
    "new_observation_t_test": ".means",
    "lower_tail": ".day_counts",
    "peak_days_a_year_back": ".day_counts",
    "dispersion": ".day_counts",
    "DayScore": ".anomaly",
    "FactorEffect": ".decomposition",
    "HISTORY_WEEKS": ".day_counts",
    "InsufficientData": "baton.errors",
    "Interval": "._result",
    "LinearSums": ".regression",
    "LmdiDecomposition": ".decomposition",
    "MannKendallResult": ".trend",
    "Member": ".decomposition",
    "MemberContribution": ".decomposition",
    "OlsResult": ".regression",
    "OneSampleTResult": ".means",
    "PeakWindow": ".calendar",
    "RatioDecomposition": ".decomposition",
    "RatioMemberEffect": ".decomposition",
    "Segment": ".changepoint",
    "StatResult": "._result",
    "StatsInputError": "baton.errors",
    "SuffStats": ".suffstats",
    "TwoProportionResult": ".proportions",
    "RateChangeAgainstResult": ".proportions",
    "rate_change_against": ".proportions",
    "TwoSampleTResult": ".means",
    "additive_contributions": ".decomposition",
    "benjamini_hochberg": ".multiple",
    "bh_significant": ".multiple",
    "cohens_h": ".proportions",
    "completeness": ".day_counts",
    "detect_mean_changes": ".changepoint",
    "exclude_days": ".calendar",
    "lmdi": ".decomposition",
    "mann_kendall": ".trend",
    "newcombe_interval": ".proportions",
    "ols_fit": ".regression",
    "ols_from_sums": ".regression",
    "one_sample_t_test": ".means",
    "one_way_anova": ".means",
    "paired_t_test": ".means",
    "peak_window_for": ".calendar",
    "ratio_mix_rate": ".decomposition",
    "robust_sigma": ".changepoint",
    "seasonal_anomaly_scores": ".anomaly",
    "sens_slope": ".trend",
    "student_t_test": ".means",
    "to_jsonable": "._result",
    "two_proportion_test": ".proportions",
    "weekday_factors": ".day_counts",
    "welch_t_test": ".means",
    "wilson_interval": ".proportions",
}


__getattr__ = lazy_attributes(__name__, _WHERE)


__all__ = [
    "HISTORY_WEEKS",
    "AdditiveDecomposition",
    "AnomalyReport",
    "AnovaResult",
    "ChangePoint",
    "ChangePointResult",
    "DayCheck",
    "DayScore",
    "FactorEffect",
    "InsufficientData",
    "Interval",
    "LinearSums",
    "LmdiDecomposition",
    "MannKendallResult",
    "Member",
    "MemberContribution",
    "OlsResult",
    "OneSampleTResult",
    "PeakWindow",
    "RateChangeAgainstResult",
    "RatioDecomposition",
    "RatioMemberEffect",
    "Segment",
    "StatResult",
    "StatsInputError",
    "SuffStats",
    "TwoProportionResult",
    "TwoSampleTResult",
    "additive_contributions",
    "benjamini_hochberg",
    "bh_significant",
    "change_test",
    "cohens_h",
    "completeness",
    "detect_mean_changes",
    "dispersion",
    "exclude_days",
    "lmdi",
    "lower_tail",
    "mann_kendall",
    "new_observation_t_test",
    "newcombe_interval",
    "ols_fit",
    "ols_from_sums",
    "one_sample_t_test",
    "one_way_anova",
    "paired_t_test",
    "peak_days_a_year_back",
    "peak_window_for",
    "rate_change_against",
    "ratio_mix_rate",
    "robust_sigma",
    "seasonal_anomaly_scores",
    "sens_slope",
    "student_t_test",
    "to_jsonable",
    "two_proportion_test",
    "weekday_factors",
    "welch_t_test",
    "wilson_interval",
]
