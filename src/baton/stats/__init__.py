"""Baton's pure statistics: tests, intervals, trends, anomalies and decompositions.

No I/O and no SQL: the warehouse sends sufficient statistics (n, Σx, Σx² per period or group)
and, for trend work, short daily series. Direction convention: ``a`` / group 1 is the baseline,
``b`` / group 2 the current period; differences are ``b − a``. Every result is a frozen dataclass
with ``to_dict()`` and carries its method name and assumptions.
"""

from ._errors import InsufficientData, StatsInputError
from ._result import Interval, StatResult, to_jsonable
from .anomaly import AnomalyReport, DayScore, seasonal_anomaly_scores
from .calendar import KNOWN_PEAKS, PeakWindow, exclude_days, peak_window_for
from .changepoint import ChangePoint, ChangePointResult, Segment, detect_mean_changes, robust_sigma
from .decomposition import (
    AdditiveDecomposition,
    FactorEffect,
    LmdiDecomposition,
    Member,
    MemberContribution,
    RatioDecomposition,
    RatioMemberEffect,
    TreeTotals,
    additive_contributions,
    lmdi,
    metric_tree_factors,
    metric_tree_lmdi,
    ratio_mix_rate,
)
from .means import (
    AnovaResult,
    OneSampleTResult,
    TwoSampleTResult,
    one_sample_t_test,
    one_way_anova,
    paired_t_test,
    student_t_test,
    welch_t_test,
)
from .multiple import benjamini_hochberg, bh_significant
from .proportions import (
    TwoProportionResult,
    cohens_h,
    newcombe_interval,
    two_proportion_test,
    wilson_interval,
)
from .regression import LinearSums, OlsResult, ols_fit, ols_from_sums
from .suffstats import SuffStats
from .trend import MannKendallResult, mann_kendall, sens_slope

__all__ = [
    "KNOWN_PEAKS",
    "AdditiveDecomposition",
    "AnomalyReport",
    "AnovaResult",
    "ChangePoint",
    "ChangePointResult",
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
    "RatioDecomposition",
    "RatioMemberEffect",
    "Segment",
    "StatResult",
    "StatsInputError",
    "SuffStats",
    "TreeTotals",
    "TwoProportionResult",
    "TwoSampleTResult",
    "additive_contributions",
    "benjamini_hochberg",
    "bh_significant",
    "cohens_h",
    "detect_mean_changes",
    "exclude_days",
    "lmdi",
    "mann_kendall",
    "metric_tree_factors",
    "metric_tree_lmdi",
    "newcombe_interval",
    "ols_fit",
    "ols_from_sums",
    "one_sample_t_test",
    "one_way_anova",
    "paired_t_test",
    "peak_window_for",
    "ratio_mix_rate",
    "robust_sigma",
    "seasonal_anomaly_scores",
    "sens_slope",
    "student_t_test",
    "to_jsonable",
    "two_proportion_test",
    "welch_t_test",
    "wilson_interval",
]
