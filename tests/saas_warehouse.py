"""A new user's own small SaaS warehouse: the failures a first-time user hit, made reproducible.

The catalog, policy and config are hand-written files in ``tests/fixtures/saas/`` (as a user
would write them: no load log, no calendar, USD on the one money metric, no ``[defaults]`` in
``baton.toml``, a default user who is not "analyst"); this module writes the DuckDB file
beside copies of them.

The world: from 2025-01-01 to 2026-06-30 about 80 subscriptions start each day (fewer at
weekends), each for a new account in one of twelve countries. A subscription lasts a
geometric number of days; if it ends inside the window it has an ``end_date`` and a status
(mostly ``churned``, sometimes ``upgraded``: the account then starts a bigger plan the next
day), otherwise ``end_date`` is NULL and the status ``active``. Start and end dates of the same
subscriptions therefore fall in different quarters, so counting churn by the wrong date gives
different numbers.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Final

import duckdb
import numpy as np
import numpy.typing as npt

FILES: Final = Path(__file__).resolve().parent / "fixtures" / "saas"
WAREHOUSE_FILE: Final = "warehouse.duckdb"
IntArray = npt.NDArray[np.int64]

DATA_START: Final = date(2025, 1, 1)
DATA_END: Final = date(2026, 6, 30)
AS_OF: Final = date(2026, 7, 1)
DAILY_STARTS: Final = 80.0
WEEKDAY_FACTOR: Final = (1.1, 1.1, 1.1, 1.1, 1.05, 0.8, 0.75)
COUNTRIES: Final = ("US", "DE", "GB", "FR", "CA", "AU", "JP", "BR", "NL", "ES", "SE", "MX")
COUNTRY_WEIGHTS: Final = (0.30, 0.12, 0.10, 0.08, 0.07, 0.06, 0.06, 0.06, 0.05, 0.04, 0.03, 0.03)
PLANS: Final = ("starter", "team", "business")
PLAN_WEIGHTS: Final = (0.6, 0.3, 0.1)
STATUSES: Final = ("active", "churned", "upgraded")
PLAN_PRICE_USD: Final = (29.0, 99.0, 499.0)
DAILY_HAZARD: Final = (1 / 150, 1 / 300, 1 / 600)
UPGRADE_SHARE: Final = 0.2
"""Of the subscriptions that end inside the window, the share that end by an upgrade, not churn."""


@dataclass(frozen=True)
class SaasFolder:
    """A built copy of the fixture: the config to open and the warehouse file behind it."""

    folder: Path

    @property
    def config(self) -> Path:
        return self.folder / "baton.toml"

    @property
    def warehouse(self) -> Path:
        return self.folder / WAREHOUSE_FILE


def build_saas_warehouse(folder: Path, *, seed: int = 5, half_loaded: date | None = None) -> SaasFolder:
    """Copy the fixture's files into ``folder`` and write its warehouse (deterministic in ``seed``).

    ``half_loaded`` plants a load fault: that day keeps only about half of the subscriptions
    that started on it (as if a load stopped half way)."""
    folder = Path(folder).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("baton.toml", "catalog.yaml", "policies.yaml"):
        shutil.copy(FILES / name, folder / name)
    warehouse = folder / WAREHOUSE_FILE
    warehouse.unlink(missing_ok=True)
    subscriptions, accounts = _simulate(np.random.default_rng(seed))
    con = duckdb.connect(str(warehouse))
    try:
        con.register("_accounts", accounts)
        con.execute(
            f"""CREATE TABLE accounts AS SELECT
                    CAST(account_id AS BIGINT) AS account_id,
                    CAST({_names(COUNTRIES)}[country + 1] AS VARCHAR) AS country,
                    {_day("signup")} AS signup_date
                FROM _accounts ORDER BY account_id"""
        )
        con.register("_subscriptions", subscriptions)
        con.execute(
            f"""CREATE TABLE subscriptions AS SELECT
                    CAST(subscription_id AS BIGINT) AS subscription_id,
                    CAST(account_id AS BIGINT) AS account_id,
                    CAST({_names(COUNTRIES)}[country + 1] AS VARCHAR) AS country,
                    CAST({_names(PLANS)}[plan + 1] AS VARCHAR) AS plan,
                    CAST({_names(STATUSES)}[status + 1] AS VARCHAR) AS status,
                    {_day("start")} AS start_date,
                    CASE WHEN finish < 0 THEN NULL ELSE {_day("finish")} END AS end_date,
                    CAST(mrr_cents / 100.0 AS DECIMAL(10, 2)) AS mrr
                FROM _subscriptions ORDER BY subscription_id"""
        )
        if half_loaded is not None:
            con.execute("DELETE FROM subscriptions WHERE start_date = ? AND subscription_id % 2 = 0", [half_loaded])
        con.execute("CHECKPOINT")
    finally:
        con.close()
    return SaasFolder(folder)


def _names(values: tuple[str, ...]) -> str:
    return "[" + ", ".join(f"'{v}'" for v in values) + "]"


def _day(column: str) -> str:
    return f"(DATE '{DATA_START.isoformat()}' + CAST({column} AS INTEGER))"


def _simulate(rng: np.random.Generator) -> tuple[dict[str, IntArray], dict[str, IntArray]]:
    """Subscriptions and accounts as columns of codes and day offsets; ids follow start order."""
    days = (DATA_END - DATA_START).days + 1
    weekday = np.array([(DATA_START + timedelta(days=d)).weekday() for d in range(days)])
    per_day = rng.poisson(DAILY_STARTS * np.asarray(WEEKDAY_FACTOR)[weekday])
    signup = np.repeat(np.arange(days, dtype=np.int64), per_day)
    n = signup.shape[0]
    country = rng.choice(len(COUNTRIES), size=n, p=COUNTRY_WEIGHTS).astype(np.int64)
    accounts = {"account_id": np.arange(1, n + 1, dtype=np.int64), "country": country, "signup": signup}

    # each account's subscriptions, one after another: an upgrade starts the next plan the next day
    columns: dict[str, list[IntArray]] = {k: [] for k in ("account_id", "country", "plan", "status", "start", "finish")}
    account, start = accounts["account_id"], signup
    plan = rng.choice(len(PLANS), size=n, p=PLAN_WEIGHTS).astype(np.int64)
    while account.shape[0]:
        life = rng.geometric(np.asarray(DAILY_HAZARD)[plan]).astype(np.int64)
        finish = start + life
        ended = finish < days
        upgraded = ended & (rng.random(account.shape[0]) < UPGRADE_SHARE)
        status = np.where(ended, np.where(upgraded, 2, 1), 0)
        for key, values in (
            ("account_id", account), ("country", country), ("plan", plan),
            ("status", status), ("start", start), ("finish", np.where(ended, finish, -1)),
        ):  # fmt: skip
            columns[key].append(values)
        again = upgraded & (finish + 1 < days)
        account, country, start = account[again], country[again], finish[again] + 1
        plan = np.minimum(plan[again] + 1, len(PLANS) - 1)
    merged = {k: np.concatenate(v) for k, v in columns.items()}
    order = np.lexsort((merged["account_id"], merged["start"]))
    subscriptions = {k: v[order] for k, v in merged.items()}
    subscriptions["subscription_id"] = np.arange(1, order.shape[0] + 1, dtype=np.int64)
    price = np.asarray(PLAN_PRICE_USD)[subscriptions["plan"]] * np.exp(rng.normal(0.0, 0.1, order.shape[0]))
    subscriptions["mrr_cents"] = np.round(price * 100).astype(np.int64)
    return subscriptions, accounts
