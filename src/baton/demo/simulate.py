"""Simulate the demo business as numpy arrays: traffic cells first, orders drawn from them.

Orders are generated FROM traffic (orders per cell ~ Poisson(visitors x conversion)), so
orders / visitors is a real conversion rate in every (day, channel, region, user_type) cell,
and a planted traffic change moves orders at unchanged conversion. Each component draws from
its own child random stream, so planting an effect does not reshuffle unrelated noise.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from baton.demo.people import PersonCodes, Products, make_person_codes, make_products
from baton.demo.scenario import Effect, Scenario
from baton.demo.world import (
    AS_OF,
    BASE_USERS_AT_SCALE_1,
    BASE_USERS_FIRST_SIGNUP,
    CANCEL_RATE,
    CATEGORIES,
    CATEGORY_MIX,
    CHANNEL_REGION_TILT,
    CHANNEL_SHARE,
    CHANNELS,
    CONVERSION,
    DATA_START,
    DISCOUNT_RATE,
    EXTRA_QUANTITY_MEAN,
    HOUR_WEIGHTS,
    MEMBERS,
    N_DAYS,
    NEW_USER_EXTRA_DISCOUNT,
    NEW_VISITOR_SHARE,
    ORDERS_AT_SCALE_1,
    PRODUCTS_PER_CATEGORY,
    PROMO_EXTRA_DISCOUNT,
    REFUND_DELAY_MEAN_DAYS,
    REFUND_RATE,
    REGION_CONVERSION,
    REGION_SHARE,
    REGIONS,
    SIGNUP_WITHOUT_ORDER_RATE,
    USER_TYPES,
    WEEKDAY_CONVERSION,
    WEEKDAY_TRAFFIC,
    YEARLY_GROWTH,
    promo_intensity,
)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

MICROS_PER_DAY = 86_400_000_000
MICROS_PER_MINUTE = 60_000_000
EPOCH_DAY_OF_START = (DATA_START - dt.date(1970, 1, 1)).days
ORDER_ID_BASE = 1_000_000_000
LOAD_CUTOFF_US = ((AS_OF - dt.date(1970, 1, 1)).days * MICROS_PER_DAY) + 2 * 60 * MICROS_PER_MINUTE
"""Nothing is updated after 2026-07-01 02:00, when the nightly load reads the source."""

SHAPE = (N_DAYS, len(CHANNELS), len(REGIONS), len(USER_TYPES))
SHAPE_K = (*SHAPE, len(CATEGORIES))
_AXIS = {"channel": 1, "region": 2, "user_type": 3, "category": 4}


@dataclass(frozen=True)
class Traffic:
    """fact_traffic rows (one per day x channel x region x user_type); day = days since start."""

    day: IntArray
    channel: IntArray
    region: IntArray
    user_type: IntArray
    visitors: IntArray
    sessions: IntArray


@dataclass(frozen=True)
class Orders:
    """fact_order rows, sorted by order_ts; timestamps in microseconds since 1970."""

    order_id: IntArray
    user_id: IntArray
    product_id: IntArray
    day: IntArray
    ts_us: IntArray
    channel: IntArray
    region: IntArray
    category: IntArray
    user_type: IntArray
    quantity: IntArray
    gmv_cents: IntArray
    discount_cents: IntArray
    status: IntArray
    updated_us: IntArray


@dataclass(frozen=True)
class Users:
    """dim_user rows, user_id = index + 1 in signup order; signup_day may be negative (before 2025)."""

    signup_day: IntArray
    channel: IntArray
    region: IntArray
    codes: PersonCodes


@dataclass(frozen=True)
class World:
    traffic: Traffic
    orders: Orders
    users: Users
    products: Products


@dataclass(frozen=True)
class _Multipliers:
    traffic: FloatArray  # SHAPE
    conversion: FloatArray  # SHAPE_K
    order_value: FloatArray  # SHAPE_K
    refund: FloatArray  # SHAPE_K


def _selection(effect: Effect) -> tuple[slice | int, ...]:
    lo = (effect.period[0] - DATA_START).days
    hi = (effect.period[1] - DATA_START).days + 1
    index: list[slice | int] = [slice(lo, hi), slice(None), slice(None), slice(None), slice(None)]
    for dimension, member in effect.where.items():
        index[_AXIS[dimension]] = MEMBERS[dimension].index(member)
    return tuple(index)


def planted_multipliers(scenario: Scenario) -> _Multipliers:
    """Per-cell multipliers of the four plantable metrics; overlapping effects multiply."""
    mult = _Multipliers(np.ones(SHAPE), np.ones(SHAPE_K), np.ones(SHAPE_K), np.ones(SHAPE_K))
    for effect in scenario.effects:
        index = _selection(effect)
        factor = 1.0 + effect.change
        if effect.metric == "traffic":
            mult.traffic[index[:4]] *= factor
        elif effect.metric == "conversion":
            mult.conversion[index] *= factor
        elif effect.metric == "order_value":
            mult.order_value[index] *= factor
        else:
            mult.refund[index] *= factor
    return mult


def _traffic_shape() -> tuple[FloatArray, FloatArray]:
    """Noise-free visitors (up to a level) and the daily promotion uplift."""
    days = np.arange(N_DAYS)
    weekday = (days + DATA_START.weekday()) % 7
    promo = promo_intensity()
    daily = (1.0 + YEARLY_GROWTH) ** (days / 365.0) * WEEKDAY_TRAFFIC[weekday] * (1.0 + promo)
    channel_region = CHANNEL_SHARE[:, None] * REGION_SHARE[None, :] * CHANNEL_REGION_TILT
    user_split = np.stack([NEW_VISITOR_SHARE, 1.0 - NEW_VISITOR_SHARE], axis=1)  # [channel, user_type]
    cells = channel_region[:, :, None] * user_split[:, None, :]
    return daily[:, None, None, None] * cells[None, :, :, :], promo


def _conversion_shape(promo: FloatArray) -> FloatArray:
    """Orders per visitor for each (day, channel, region, user_type, category) cell."""
    days = np.arange(N_DAYS)
    weekday = (days + DATA_START.weekday()) % 7
    daily = WEEKDAY_CONVERSION[weekday] * (1.0 + 0.15 * np.maximum(promo, 0.0))
    per_cell = CONVERSION[:, None, :] * REGION_CONVERSION[None, :, None]  # [channel, region, user_type]
    rate = daily[:, None, None, None] * per_cell[None, :, :, :]
    mix = CATEGORY_MIX / CATEGORY_MIX.sum(axis=1, keepdims=True)  # [channel, category]
    shaped: FloatArray = rate[..., None] * mix[None, :, None, None, :]
    return shaped


def simulate(scenario: Scenario, *, seed: int, scale: float) -> World:
    """Draw the whole business for ``scenario``; same arguments give identical arrays."""
    streams = np.random.SeedSequence(seed).spawn(7)
    rng_traffic, rng_counts, rng_attrs, rng_users, rng_products, rng_people, rng_faults = (
        np.random.Generator(np.random.PCG64(stream)) for stream in streams
    )
    mult = planted_multipliers(scenario)

    visitors_shape, promo = _traffic_shape()
    conversion = _conversion_shape(promo)
    level = ORDERS_AT_SCALE_1 * scale / float((visitors_shape[..., None] * conversion).sum())
    day_noise = np.exp(rng_traffic.normal(0.0, 0.04, N_DAYS))[:, None, None, None]
    cell_noise = np.exp(rng_traffic.normal(0.0, 0.06, SHAPE))
    visitors = rng_traffic.poisson(level * visitors_shape * day_noise * cell_noise * mult.traffic)
    repeat_visits = np.where(np.arange(len(USER_TYPES)) == 0, 0.25, 0.55)[None, None, None, :]
    sessions = visitors + rng_traffic.poisson(visitors * repeat_visits)

    counts = rng_counts.poisson(visitors[..., None] * conversion * mult.conversion)
    products = make_products(rng_products)
    orders, new_order_rows = _explode_orders(counts, promo, mult, products, rng_attrs)
    signups = rng_users.poisson(visitors[..., 0] * SIGNUP_WITHOUT_ORDER_RATE)  # [day, channel, region]
    users, user_id = _users(orders, new_order_rows, signups, scale, rng_users, rng_people)

    traffic = _traffic_rows(visitors, sessions)
    world = World(traffic, _with_users(orders, user_id), users, products)
    return _apply_faults(world, scenario, rng_faults)


def _traffic_rows(visitors: IntArray, sessions: IntArray) -> Traffic:
    day, channel, region, user_type = (axis.ravel() for axis in np.indices(SHAPE, dtype=np.int64))
    return Traffic(day, channel, region, user_type, visitors.ravel(), sessions.ravel())


def _explode_orders(
    counts: IntArray, promo: FloatArray, mult: _Multipliers, products: Products, rng: np.random.Generator
) -> tuple[Orders, IntArray]:
    """One row per order from the per-cell counts; user ids are filled in later."""
    flat_counts = counts.ravel()
    cell = np.repeat(np.arange(flat_counts.shape[0], dtype=np.int64), flat_counts)
    n = cell.shape[0]
    day, channel, region, user_type, category = (
        np.asarray(axis, dtype=np.int64) for axis in np.unravel_index(cell, SHAPE_K)
    )

    hour_p = HOUR_WEIGHTS / HOUR_WEIGHTS.sum()
    seconds = rng.choice(24, size=n, p=hour_p) * 3600 + rng.integers(0, 3600, n)
    ts_us = (EPOCH_DAY_OF_START + day) * MICROS_PER_DAY + seconds * 1_000_000

    popularity = 1.0 / (np.arange(PRODUCTS_PER_CATEGORY) + 4.0)
    rank = np.searchsorted(np.cumsum(popularity / popularity.sum()), rng.random(n), side="right")
    product_index = category * PRODUCTS_PER_CATEGORY + np.minimum(rank, PRODUCTS_PER_CATEGORY - 1)
    quantity = 1 + np.minimum(rng.poisson(EXTRA_QUANTITY_MEAN[category]), 5)
    value = products.list_price[product_index] * quantity * mult.order_value.ravel()[cell]
    gmv_cents = np.round(value * 100.0).astype(np.int64)
    peak = np.clip(np.maximum(promo[day], 0.0), 0.0, 1.0)
    discount_rate = (
        DISCOUNT_RATE[category]
        + NEW_USER_EXTRA_DISCOUNT * (user_type == 0)
        + PROMO_EXTRA_DISCOUNT * peak
        + rng.uniform(-0.03, 0.03, n)
    )
    discount_cents = np.round(gmv_cents * np.clip(discount_rate, 0.0, 0.6)).astype(np.int64)

    refund_p = np.clip(REFUND_RATE[category] * mult.refund.ravel()[cell], 0.0, 0.95)
    draw_cancel, draw_refund = rng.random(n), rng.random(n)
    status = np.where(draw_cancel < CANCEL_RATE, 2, np.where(draw_refund < refund_p, 1, 0)).astype(np.int64)
    minutes = rng.integers(1, 30, n)
    minutes = np.where(status == 2, rng.integers(5, 180, n), minutes)
    refund_delay = (1.0 + rng.exponential(REFUND_DELAY_MEAN_DAYS, n)) * 24 * 60
    minutes = np.where(status == 1, refund_delay.astype(np.int64), minutes)
    updated_us = np.minimum(ts_us + minutes * MICROS_PER_MINUTE, LOAD_CUTOFF_US)

    order = np.argsort(ts_us, kind="stable")
    rows = Orders(
        order_id=ORDER_ID_BASE + np.arange(1, n + 1, dtype=np.int64),
        user_id=np.zeros(n, dtype=np.int64),
        product_id=product_index[order] + 1,
        day=day[order],
        ts_us=ts_us[order],
        channel=channel[order],
        region=region[order],
        category=category[order],
        user_type=user_type[order],
        quantity=quantity[order],
        gmv_cents=gmv_cents[order],
        discount_cents=discount_cents[order],
        status=status[order],
        updated_us=updated_us[order],
    )
    return rows, np.flatnonzero(rows.user_type == 0)


def _users(
    orders: Orders,
    new_order_rows: IntArray,
    signups: IntArray,
    scale: float,
    rng: np.random.Generator,
    rng_people: np.random.Generator,
) -> tuple[Users, IntArray]:
    """Base users (signed up 2022-2024), one user per first order, plus sign-ups that never ordered.

    Returns the users and each order's user id. Returning orders pick a user of the same region
    who signed up strictly before the order date.
    """
    n_base = max(round(BASE_USERS_AT_SCALE_1 * scale), 500)
    first_base_day = (BASE_USERS_FIRST_SIGNUP - DATA_START).days
    base_day = rng.integers(first_base_day, 0, n_base)
    base_region = rng.choice(len(REGIONS), size=n_base, p=REGION_SHARE / REGION_SHARE.sum())
    base_region[: len(REGIONS)] = np.arange(len(REGIONS))  # every region has someone to return
    base_channel = rng.choice(len(CHANNELS), size=n_base, p=CHANNEL_SHARE / CHANNEL_SHARE.sum())

    flat = signups.ravel()
    signup_cell = np.repeat(np.arange(flat.shape[0], dtype=np.int64), flat)
    s_day, s_channel, s_region = (
        np.asarray(axis, dtype=np.int64) for axis in np.unravel_index(signup_cell, signups.shape)
    )

    day = np.concatenate([base_day, orders.day[new_order_rows], s_day])
    channel = np.concatenate([base_channel, orders.channel[new_order_rows], s_channel])
    region = np.concatenate([base_region, orders.region[new_order_rows], s_region])
    order_row = np.concatenate(
        [np.full(n_base, -1, dtype=np.int64), new_order_rows, np.full(s_day.shape[0], -1, dtype=np.int64)]
    )
    within_day = rng.random(size=int(day.shape[0]))
    first_order_ts = orders.ts_us[new_order_rows] - (EPOCH_DAY_OF_START + orders.day[new_order_rows]) * MICROS_PER_DAY
    within_day[n_base : n_base + new_order_rows.shape[0]] = first_order_ts / MICROS_PER_DAY
    signup_order = np.lexsort((within_day, day))
    day, channel, region, order_row = (a[signup_order] for a in (day, channel, region, order_row))

    user_id = np.zeros(orders.day.shape[0], dtype=np.int64)
    has_order = order_row >= 0
    user_id[order_row[has_order]] = np.flatnonzero(has_order) + 1

    returning = np.flatnonzero(orders.user_type == 1)
    span = N_DAYS - first_base_day + 1
    key = region * span + (day - first_base_day)
    by_key = np.argsort(key, kind="stable")
    sorted_key = key[by_key]
    o_region = orders.region[returning]
    lo = np.searchsorted(sorted_key, o_region * span, side="left")
    hi = np.searchsorted(sorted_key, o_region * span + (orders.day[returning] - first_base_day), side="left")
    pick = lo + np.floor(rng.random(returning.shape[0]) * (hi - lo)).astype(np.int64)
    user_id[returning] = by_key[pick] + 1

    codes = make_person_codes(rng_people, region)
    return Users(day, channel, region, codes), user_id


def _with_users(orders: Orders, user_id: IntArray) -> Orders:
    return Orders(**{**orders.__dict__, "user_id": user_id})


def _apply_faults(world: World, scenario: Scenario, rng: np.random.Generator) -> World:
    """Partly loaded days: drop (1 - keep_fraction) of that table's rows for that date."""
    orders, traffic = world.orders, world.traffic
    for fault in scenario.data_faults:
        day = (fault.date - DATA_START).days
        if fault.table == "fact_order":
            keep = _keep_mask(orders.day, day, fault.keep_fraction, rng)
            orders = Orders(**{name: values[keep] for name, values in orders.__dict__.items()})
        else:
            keep = _keep_mask(traffic.day, day, fault.keep_fraction, rng)
            traffic = Traffic(**{name: values[keep] for name, values in traffic.__dict__.items()})
    return World(traffic, orders, world.users, world.products)


def _keep_mask(days: IntArray, day: int, keep_fraction: float, rng: np.random.Generator) -> BoolArray:
    on_day = days == day
    dropped = on_day & (rng.random(days.shape[0]) >= keep_fraction)
    return np.asarray(~dropped)
