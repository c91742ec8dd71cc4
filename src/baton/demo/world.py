"""The demo business's fixed shape: members, mixes, rates and calendar.

Everything a scenario does NOT plant lives here, as plain constants, so the baseline is the
same for every seed and the planted effects can be tuned against it. The seed only adds noise.
"""

from __future__ import annotations

import datetime as dt
from typing import Final

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

DATA_START: Final = dt.date(2025, 1, 1)
DATA_END: Final = dt.date(2026, 6, 30)
AS_OF: Final = dt.date(2026, 7, 1)
N_DAYS: Final = (DATA_END - DATA_START).days + 1

CHANNELS: Final = ("app", "mini_program", "web", "live_stream")
REGIONS: Final = ("华东", "华南", "华北", "华中", "西南", "西北", "东北")
CATEGORIES: Final = ("手机数码", "家用电器", "服饰鞋包", "美妆个护", "食品生鲜", "家居日用")
USER_TYPES: Final = ("new", "returning")
STATUSES: Final = ("paid", "refunded", "cancelled")

MEMBERS: Final[dict[str, tuple[str, ...]]] = {
    "channel": CHANNELS,
    "region": REGIONS,
    "category": CATEGORIES,
    "user_type": USER_TYPES,
}
"""Dimension -> members, in the index order the generator uses."""

TRAFFIC_DIMENSIONS: Final = ("channel", "region", "user_type")
"""fact_traffic has no category: traffic effects may only select on these."""

ORDERS_AT_SCALE_1: Final = 1_000_000
"""Expected baseline order count (all statuses) at scale 1, before planted effects."""

# --- traffic -------------------------------------------------------------------------------
CHANNEL_SHARE: Final = np.array([0.45, 0.23, 0.18, 0.14])
REGION_SHARE: Final = np.array([0.30, 0.22, 0.18, 0.11, 0.10, 0.05, 0.04])
# channel x region tilt: live streaming is big in the south-west and centre, web in the north
CHANNEL_REGION_TILT: Final = np.array(
    [
        [1.00, 1.05, 0.95, 1.00, 0.95, 1.00, 1.00],
        [1.00, 1.10, 0.95, 1.05, 1.00, 0.95, 1.00],
        [1.05, 0.90, 1.25, 0.90, 0.85, 1.05, 1.10],
        [0.85, 1.00, 0.80, 1.25, 1.40, 1.10, 1.00],
    ]
)
NEW_VISITOR_SHARE: Final = np.array([0.65, 0.50, 0.60, 0.65])
"""Share of each channel's visitors who have never ordered."""
YEARLY_GROWTH: Final = 0.22
WEEKDAY_TRAFFIC: Final = np.array([0.95, 0.94, 0.96, 0.97, 1.00, 1.12, 1.10])  # Mon..Sun

# --- conversion: orders (all statuses) per visitor -------------------------------------------
CONVERSION: Final = np.array(  # [channel, user_type]; new users get 新人券 on the app
    [
        [0.040, 0.045],
        [0.020, 0.030],
        [0.012, 0.022],
        [0.028, 0.034],
    ]
)
REGION_CONVERSION: Final = np.array([1.05, 1.00, 1.00, 0.95, 0.95, 0.90, 0.90])
WEEKDAY_CONVERSION: Final = np.array([0.99, 0.99, 1.00, 1.00, 1.01, 1.02, 1.01])

# --- what is bought -----------------------------------------------------------------------------
CATEGORY_MIX: Final = np.array(  # [channel, category]
    [
        [0.20, 0.15, 0.20, 0.15, 0.15, 0.15],
        [0.10, 0.10, 0.20, 0.15, 0.25, 0.20],
        [0.28, 0.25, 0.15, 0.10, 0.10, 0.12],
        [0.08, 0.07, 0.30, 0.35, 0.12, 0.08],
    ]
)
PRODUCTS_PER_CATEGORY: Final = 80
PRICE_MEDIAN: Final = np.array([1800.0, 1200.0, 220.0, 160.0, 60.0, 80.0])
PRICE_SIGMA: Final = np.array([0.6, 0.7, 0.5, 0.5, 0.5, 0.6])
EXTRA_QUANTITY_MEAN: Final = np.array([0.05, 0.03, 0.35, 0.5, 0.9, 0.7])
"""Mean of Poisson(extra items) added to 1 per order, by category."""
DISCOUNT_RATE: Final = np.array([0.05, 0.08, 0.15, 0.12, 0.10, 0.10])
NEW_USER_EXTRA_DISCOUNT: Final = 0.05
PROMO_EXTRA_DISCOUNT: Final = 0.10
"""Extra discount at the height of a promotion (scaled by how far into the peak a day is)."""

# --- after the order ----------------------------------------------------------------------------
REFUND_RATE: Final = np.array([0.04, 0.03, 0.08, 0.03, 0.02, 0.03])
"""Probability that a non-cancelled order is refunded, by category."""
CANCEL_RATE: Final = 0.03
REFUND_DELAY_MEAN_DAYS: Final = 4.0
HOUR_WEIGHTS: Final = np.array(
    [2, 1, 0.6, 0.4, 0.3, 0.4, 0.8, 1.5, 2.5, 3.5, 4, 4.2, 4.5, 4, 3.8, 3.8, 4, 4.2, 4.5, 5, 6, 6.5, 6, 4]
)

# --- people ---------------------------------------------------------------------------------------
BASE_USERS_AT_SCALE_1: Final = 150_000
"""Users who signed up before the data range (2022-2024) and can place returning orders."""
BASE_USERS_FIRST_SIGNUP: Final = dt.date(2022, 1, 1)
SIGNUP_WITHOUT_ORDER_RATE: Final = 0.004
"""Sign-ups per new visitor that do not order that day (so new_users > first orders)."""


def day_dates() -> npt.NDArray[np.datetime64]:
    """Every date of the data range as datetime64[D]."""
    start = np.datetime64(DATA_START.isoformat(), "D")
    return start + np.arange(N_DAYS)


def _promo_ramp(days: npt.NDArray[np.int64], start: dt.date, peak: dt.date, base: float, ramp: float) -> FloatArray:
    """Uplift (multiplier - 1) that builds up from ``start`` and tops out on ``peak``."""
    first = (start - DATA_START).days
    last = (peak - DATA_START).days
    inside = (days >= first) & (days < last)
    position = np.clip((days - first) / max(last - first, 1), 0.0, 1.0)
    return np.where(inside, base + ramp * position**4, 0.0)


def promo_intensity() -> FloatArray:
    """Per-day promotion uplift on visitors (0 = ordinary day); 618 and 双11 plus their lulls.

    Tuned so June averages only a few per cent above May: the default scenario's conversion drop
    must beat it. 双11 is the bigger festival. Spring Festival (春节) shows as a dip.
    """
    days = np.arange(N_DAYS, dtype=np.int64)
    uplift = np.zeros(N_DAYS)
    for year in (2025, 2026):
        uplift += _promo_ramp(days, dt.date(year, 6, 1), dt.date(year, 6, 18), 0.03, 0.55)
        uplift += _set_days(days, {dt.date(year, 6, 18): 0.95, dt.date(year, 6, 19): 0.10})
        uplift += _set_range(days, dt.date(year, 6, 20), dt.date(year, 6, 30), -0.10)
    uplift += _promo_ramp(days, dt.date(2025, 11, 1), dt.date(2025, 11, 11), 0.10, 1.0)
    uplift += _set_days(days, {dt.date(2025, 11, 11): 2.2, dt.date(2025, 11, 12): 0.25})
    uplift += _set_range(days, dt.date(2025, 11, 13), dt.date(2025, 11, 25), -0.12)
    uplift += _set_range(days, dt.date(2025, 1, 27), dt.date(2025, 2, 4), -0.25)
    uplift += _set_range(days, dt.date(2026, 2, 15), dt.date(2026, 2, 23), -0.25)
    return uplift


def _set_days(days: npt.NDArray[np.int64], values: dict[dt.date, float]) -> FloatArray:
    out = np.zeros(days.shape[0])
    for day, value in values.items():
        out[days == (day - DATA_START).days] = value
    return out


def _set_range(days: npt.NDArray[np.int64], first: dt.date, last: dt.date, value: float) -> FloatArray:
    lo, hi = (first - DATA_START).days, (last - DATA_START).days
    return np.where((days >= lo) & (days <= hi), value, 0.0)


CITIES: Final[dict[str, tuple[str, ...]]] = {
    "华东": ("上海", "杭州", "南京", "苏州", "宁波", "合肥", "济南", "青岛", "福州", "厦门"),
    "华南": ("广州", "深圳", "东莞", "佛山", "南宁", "海口"),
    "华北": ("北京", "天津", "石家庄", "太原", "呼和浩特"),
    "华中": ("武汉", "长沙", "郑州", "南昌"),
    "西南": ("成都", "重庆", "昆明", "贵阳"),
    "西北": ("西安", "兰州", "银川", "乌鲁木齐", "西宁"),
    "东北": ("沈阳", "大连", "长春", "哈尔滨"),
}
