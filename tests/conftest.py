"""Shared fixtures: one real demo warehouse (DuckDB file) per test session."""

from __future__ import annotations

import os
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import psycopg
import pytest

from baton.config import Settings, load_settings
from baton.demo.generator import build_demo
from baton.orchestrator.session import Session
from baton.policy import Policy, load_policy

if TYPE_CHECKING:
    from tests.llm_server import ScriptedLLM
    from tests.redteam.warehouse import Row
    from tests.spark_server import QueryHistory


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--spark-full",
        action="store_true",
        default=False,
        help="run the whole Spark backend suite, not only its small part (make test-spark)",
    )


HEAVIEST_FIRST = (
    "tests/backends/test_eval.py",
    "tests/evals/test_eval_run.py",
    "tests/cli/test_init_cmd.py",
    "tests/catalog/test_check.py",
    "tests/evals/test_model_planner_eval.py",
    "tests/evals/test_conversation_eval.py",
    "tests/examples/test_nycflights13.py",
    "tests/orchestrator/test_crash_resume.py",
    "tests/redteam/test_runs_under_todays_policy.py",
    "tests/bench/test_handoff_bench.py",
    "tests/backends/test_containment.py",
)
"""The slowest test files (`make test --durations`), collected first: `-n 2 --dist loadfile` hands
files out in collection order, so the longest start at once on both workers and the short ones
fill in after, instead of one long file running alone at the end."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The heaviest files first (:data:`HEAVIEST_FIRST`). ``spark_full``: a Spark test (or a
    test's Spark parameter) too slow for `make test` runs only with ``--spark-full`` (`make
    test-spark`, which CI runs after `make test`)."""
    rank = {str(config.rootpath / name): i for i, name in enumerate(HEAVIEST_FIRST)}
    items.sort(key=lambda item: rank.get(str(item.path), len(rank)))
    if config.getoption("--spark-full"):
        return
    skip = pytest.mark.skip(reason="slow on Spark: runs with --spark-full (make test-spark)")
    for item in items:
        if item.get_closest_marker("spark_full") is not None and item.get_closest_marker("spark") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default demo (scale 1, seed 7), built once for the whole session."""
    path = tmp_path_factory.mktemp("demo")
    build_demo(path)
    return path


@pytest.fixture(scope="session")
def small_demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small demo (scale 0.05, seed 7): enough rows for a full ``analyze`` run, quickly built."""
    path = tmp_path_factory.mktemp("small_demo")
    build_demo(path, scale=0.05)
    return path


@pytest.fixture(scope="session")
def demo_policy() -> Policy:
    """The demo's policy file as shipped (the red-team cases' users and grants)."""
    return load_policy(Path(__file__).resolve().parents[1] / "src" / "baton" / "demo" / "data" / "policies.yaml")


@pytest.fixture(scope="session")
def fixture_rows() -> dict[str, list[Row]]:
    """The red-team's small deterministic warehouse rows (tests/redteam/warehouse.py)."""
    from tests.redteam.warehouse import build_rows

    return build_rows()


@pytest.fixture(scope="session")
def demo_settings(demo_dir: Path) -> Settings:
    return load_settings(demo_dir / "baton.toml")


@pytest.fixture(scope="session")
def demo_session(demo_settings: Settings) -> Iterator[Session]:
    session = Session(demo_settings)
    yield session
    session.close()


@pytest.fixture(scope="module")
def scripted_llm_server() -> Iterator[ScriptedLLM]:
    """A scripted OpenAI-protocol server on 127.0.0.1 for one test module (tests/llm_server.py);
    ``server.script(...)`` in each test says how it answers."""
    from tests.llm_server import scripted_llm

    with scripted_llm() as server:
        yield server


PG_ADMIN = os.environ.get("BATON_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def _pg_reachable(url: str) -> str | None:
    try:
        with psycopg.connect(url, connect_timeout=3) as con:
            con.execute("SELECT 1")
    except psycopg.Error as exc:
        return str(exc).strip() or type(exc).__name__
    return None


@pytest.fixture(scope="session")
def pg_admin_url() -> str:
    """A reachable PostgreSQL admin URL: fails in CI when unreachable, skips loudly elsewhere."""
    problem = _pg_reachable(PG_ADMIN)
    if problem is not None:
        message = f"PostgreSQL at {PG_ADMIN} is unreachable ({problem})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + " — CI must provide it (.ci/run starts it)")
        warnings.warn(message + " — PostgreSQL tests are SKIPPED", stacklevel=1)
        pytest.skip(message)
    return PG_ADMIN


def _service_missing(message: str, remedy: str) -> NoReturn:
    """Fail in CI (it must provide the service), skip loudly elsewhere."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + " — CI must provide it (.ci/run starts it)")
    warnings.warn(f"{message} — {remedy}", stacklevel=2)
    pytest.skip(message)


@pytest.fixture(scope="session")
def spark_url() -> str:
    """A reachable Spark Connect URL (env BATON_TEST_SPARK): fails in CI when unreachable, skips loudly elsewhere."""
    from tests.spark_server import SPARK_URL, spark_problem

    problem = spark_problem(SPARK_URL)
    if problem is not None:
        message = f"Spark Connect at {SPARK_URL} is unusable ({problem})"
        _service_missing(message, "Spark tests are SKIPPED; `make spark-up` starts a local server")
    return SPARK_URL


@pytest.fixture(scope="session")
def spark_history(spark_url: str) -> QueryHistory:
    """What the Spark server was asked, from its UI (env BATON_TEST_SPARK_UI)."""
    from tests.spark_server import SPARK_UI, QueryHistory

    history = QueryHistory(SPARK_UI)
    try:
        history.app_id()
    except OSError as exc:
        _service_missing(f"the Spark UI at {SPARK_UI} is unreachable ({exc})", "Spark history tests are SKIPPED")
    return history


@pytest.fixture(scope="session")
def pg_demo_dir(pg_admin_url: str, tmp_path_factory: pytest.TempPathFactory, demo_dir: Path) -> Iterator[Path]:
    """The same demo loaded into a throwaway PostgreSQL database, with a baton.toml pointing at it."""
    from baton.demo.pg_loader import load_demo, point_config_at

    folder = tmp_path_factory.mktemp("pgdemo")
    for name in ("catalog.yaml", "policies.yaml", "baton.toml", "ground_truth.json"):
        shutil.copy(demo_dir / name, folder / name)
    dbname = f"baton_test_{os.getpid()}"
    url = pg_admin_url.rsplit("/", 1)[0] + "/" + dbname
    reader = load_demo(demo_dir / "warehouse.duckdb", url)
    point_config_at(folder / "baton.toml", reader)
    yield folder
    with psycopg.connect(pg_admin_url, autocommit=True) as con:
        con.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
