"""A Session holds what every question on one config shares: catalog, planner, policy,
warehouse connection, approval registry and result cache. Built lazily, reused across
questions (an eval of 60 questions opens the warehouse once)."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from baton.catalog.loader import load_catalog
from baton.catalog.model import Catalog
from baton.config import Settings
from baton.nlu.parser import Planner
from baton.orchestrator.run import open_store
from baton.orchestrator.store import SqliteRunStore
from baton.policy import Policy, Principal, load_policy
from baton.sql import ApprovalRegistry
from baton.warehouse.duckdb_backend import DuckDBBackend
from baton.warehouse.runner import Backend, Runner


class Session:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @cached_property
    def catalog(self) -> Catalog:
        return load_catalog(self.settings.catalog_path)

    @cached_property
    def planner(self) -> Planner:
        return Planner(self.catalog)

    @cached_property
    def policy(self) -> Policy:
        return load_policy(self.settings.policy_path)

    def principal(self, user: str) -> Principal:
        return self.policy.principal(user)

    @cached_property
    def backend(self) -> Backend:
        if self.settings.dialect == "duckdb":
            return DuckDBBackend(
                self.settings.duckdb_path(), memory_limit=self.settings.memory_limit, threads=self.settings.threads
            )
        from baton.warehouse.postgres_backend import PostgresBackend

        return PostgresBackend(self.settings.warehouse_url)

    @cached_property
    def registry(self) -> ApprovalRegistry:
        return ApprovalRegistry()

    @cached_property
    def runner(self) -> Runner:
        return Runner(self.backend, self.registry, timeout_s=self.settings.timeout_s, row_cap=self.settings.row_cap)

    @cached_property
    def schema(self) -> dict[str, dict[str, str]]:
        return self.backend.schema()

    @property
    def runs_dir(self) -> Path:
        return self.settings.runs_dir

    @cached_property
    def store(self) -> SqliteRunStore:
        return open_store(self.settings.runs_dir)

    def close(self) -> None:
        backend = self.__dict__.get("backend")
        if backend is not None:
            backend.close()
        store = self.__dict__.get("store")
        if store is not None:
            store.close()
