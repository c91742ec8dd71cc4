"""Copy the built demo into another engine and point its baton.toml there (``demo init --warehouse``).

The DuckDB file stays the single source; each engine has its own loader (an administrator's
write path, never the query path), so this only picks the loader by the URL's engine and says
what was done in a line safe to print (a Spark token is never shown).
"""

from __future__ import annotations

from pathlib import Path

from baton.errors import InvalidInput
from baton.messages import bilingual, both
from baton.warehouse.engine import engine_name_for_url
from baton.warehouse.spark_backend import shown_url


def target_engine(url: str) -> str:
    """The engine the demo can be copied into at ``url``; checked before the demo is built."""
    engine = engine_name_for_url(url)
    if engine not in ("postgres", "spark"):
        raise InvalidInput(*both("cli.demo_bad_warehouse", url=shown_url(url)))
    if engine == "spark":
        from baton.warehouse.spark_backend import split_url

        split_url(url)  # a bad database name is a ConfigError now, not after the build
    return engine


def copy_demo(duckdb_path: Path, config: Path, url: str) -> str:
    """Load the demo file into the warehouse at ``url``, rewrite ``config`` to read it there, and
    return the line that tells the user (bilingual)."""
    from baton.demo.pg_loader import point_config_at

    if target_engine(url) == "postgres":
        from baton.demo.pg_loader import load_demo

        reader_url = load_demo(duckdb_path, url)
        point_config_at(config, reader_url)
        return bilingual("cli.demo_loaded_postgres", url=reader_url)
    from baton.demo.spark_loader import load_demo as load_spark
    from baton.warehouse.spark_backend import split_url

    reader_url = load_spark(duckdb_path, url)
    point_config_at(config, reader_url)
    return bilingual("cli.demo_loaded_spark", database=split_url(reader_url)[1], url=shown_url(reader_url))
