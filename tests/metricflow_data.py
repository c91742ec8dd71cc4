"""MetricFlow's own test fixtures (``tests/fixtures/metricflow``, Apache-2.0) as real warehouses.

The table snapshots are YAML (``table_snapshot: {table_name, column_definitions, rows}``);
they are loaded as typed tables into a DuckDB file or a PostgreSQL schema, so the imported
dbt semantic project runs against the rows MetricFlow's own tests use.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

METRICFLOW = Path(__file__).resolve().parent / "fixtures" / "metricflow"
SIMPLE_MANIFEST = METRICFLOW / "semantic_manifest_yamls" / "simple_manifest"
SNAPSHOTS = METRICFLOW / "source_table_snapshots" / "simple_model"
_TYPES = {"TIME": "TIMESTAMP", "STRING": "VARCHAR", "FLOAT": "DOUBLE", "INT": "BIGINT", "BOOLEAN": "BOOLEAN"}


def snapshots() -> list[dict[str, Any]]:
    out = []
    for path in sorted(SNAPSHOTS.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if isinstance(doc, dict) and "table_snapshot" in doc:
                out.append(doc["table_snapshot"])
    return out


def _value(raw: Any, kind: str) -> Any:
    if raw is None:
        return None
    if kind == "BOOLEAN":
        return str(raw).lower() == "true"
    if kind == "INT":
        return int(raw)
    if kind == "FLOAT":
        return float(raw)
    return str(raw)


def _rows(snap: dict[str, Any]) -> list[tuple[Any, ...]]:
    kinds = [c["type"] for c in snap["column_definitions"]]
    return [tuple(_value(v, k) for v, k in zip(row, kinds, strict=True)) for row in snap.get("rows") or []]


def _ddl(snap: dict[str, Any], pg: bool = False) -> str:
    cols = ", ".join(
        f'"{c["name"]}" {"DOUBLE PRECISION" if pg and c["type"] == "FLOAT" else _TYPES[c["type"]]}'
        for c in snap["column_definitions"]
    )
    return f'CREATE TABLE "{snap["table_name"]}" ({cols})'


def load_duckdb(path: Path) -> None:
    import duckdb

    con = duckdb.connect(str(path))
    try:
        for snap in snapshots():
            con.execute(f'DROP TABLE IF EXISTS "{snap["table_name"]}"')
            con.execute(_ddl(snap))
            rows = _rows(snap)
            if rows:
                marks = ", ".join("?" for _ in snap["column_definitions"])
                con.executemany(f'INSERT INTO "{snap["table_name"]}" VALUES ({marks})', rows)
    finally:
        con.close()


def load_postgres(url: str) -> None:
    """The tables in the current schema of the database at ``url`` (created afresh)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        for snap in snapshots():
            con.execute(f'DROP TABLE IF EXISTS "{snap["table_name"]}"')
            con.execute(_ddl(snap, pg=True))
            rows = _rows(snap)
            if rows:
                marks = ", ".join("%s" for _ in snap["column_definitions"])
                with con.cursor() as cur:
                    cur.executemany(f'INSERT INTO "{snap["table_name"]}" VALUES ({marks})', rows)
