"""`baton init`: baton.toml, catalog.yaml and policies.yaml for a warehouse that already exists.

    baton init --warehouse duckdb:///shop.duckdb [--dbt DIR] [--path DIR] [--as-of DATE] [--user NAME] [--force]

The warehouse is opened read-only; the catalog is imported from a dbt project (``--dbt``) or
guessed from the schema and a few aggregates (a draft, every guess marked in a comment); the
catalog is checked against the warehouse *before* anything is written, so a problem is
reported as ``file:line`` (the dbt file's, for an import) and leaves no file behind. The three
files go to temporary names in the target folder first and are renamed into place together,
and existing files are only replaced with ``--force``.

A Spark Connect URL names its database with Baton's own parameter,
``sc://host:15002/;database=sales``, read the way baton.toml reads it.

A DuckDB URL is read the way baton.toml reads it, but from the current folder:
``duckdb:///shop.duckdb`` is relative (to the current folder here, to the file's folder in
baton.toml) and ``duckdb:////data/shop.duckdb`` absolute. The written baton.toml names the
file relative to itself when it lies inside the target folder, else by its absolute path.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Annotated
from urllib.parse import urlsplit

import typer

from baton.cli.common import JsonOpt, parse_as_of, shown_path
from baton.cli.errors import reported
from baton.cli.terminal import terminal_str
from baton.contracts.common import Language
from baton.errors import ConfigError, InvalidInput, ToolFailure
from baton.messages import bilingual, both, text
from baton.warehouse.engine import engine_name_for_url
from baton.yaml_text import safe_load

if TYPE_CHECKING:
    from baton.catalog.check import CatalogProblem
    from baton.catalog.dbt_import import DbtImport
    from baton.catalog.introspect import PiiGuess
    from baton.catalog.model import Catalog
    from baton.catalog.writer import Rendered
    from baton.warehouse.engine import Backend

FILES = ("baton.toml", "catalog.yaml", "policies.yaml")
_USER = re.compile(r"[A-Za-z0-9_.@-]+")

WarehouseOpt = Annotated[
    str,
    typer.Option(
        "--warehouse",
        help="duckdb:///relative.duckdb (from the current folder), duckdb:////absolute.duckdb, postgresql://… "
        "or sc://HOST:PORT/;database=DB (Spark Connect).",
    ),
]
DbtOpt = Annotated[Path | None, typer.Option("--dbt", help="Import the catalog from this dbt project folder.")]
PathOpt = Annotated[Path, typer.Option("--path", help="Folder to write the three files into.")]
InitUserOpt = Annotated[str, typer.Option("--user", help="The user the policy creates and makes the default.")]
InitAsOfOpt = Annotated[
    str | None, typer.Option("--as-of", help="Default analysis date YYYY-MM-DD for baton.toml (default: none, today).")
]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite existing baton.toml, catalog.yaml, policies.yaml.")]


@dataclass(frozen=True)
class _Connection:
    """What an engine needs to open the warehouse before any baton.toml exists."""

    warehouse_url: str
    file: Path | None
    memory_limit: str = "2GB"
    threads: int = 2

    def duckdb_path(self) -> Path:
        assert self.file is not None
        return self.file


@dataclass
class InitResult:
    """What `baton init` wrote and what the catalog holds."""

    folder: Path
    written: list[Path]
    catalog: Catalog
    pii: dict[str, PiiGuess]
    warehouse_url: str
    from_dbt: bool = False
    dbt_notes: list[tuple[str, str]] = field(default_factory=list)
    latest: dict[str, date] = field(default_factory=dict)
    """table -> the newest day of data it holds (of the tables whose time column could be read)"""


def duckdb_file(url: str, cwd: Path) -> Path:
    """The file a ``duckdb://`` URL names, a relative one read from ``cwd``."""
    raw = url.removeprefix("duckdb://")
    raw = raw[1:] if raw.startswith("//") else raw.removeprefix("/")
    if not raw or raw.startswith(":memory:"):
        raise ConfigError(*both("init.no_duckdb_path", url=url))
    path = Path(raw)
    return (path if path.is_absolute() else cwd / path).resolve()


def _written_url(url: str, file: Path | None, folder: Path) -> str:
    if file is None:
        return url
    try:
        return f"duckdb:///{file.relative_to(folder).as_posix()}"
    except ValueError:
        return f"duckdb:///{file.as_posix()}"


def _warehouse_name(url: str, file: Path | None) -> str:
    if file is not None:
        return file.stem
    if engine_name_for_url(url) == "spark":  # sc://host:port/;database=db names no path
        from baton.warehouse.spark_backend import split_url

        return split_url(url)[1] or "default"
    return urlsplit(url).path.strip("/") or "warehouse"


def initialize(
    url: str,
    folder: Path,
    *,
    dbt: Path | None = None,
    as_of: date | None = None,
    user: str = "analyst",
    force: bool = False,
    cwd: Path | None = None,
) -> InitResult:
    """Check everything, then write the three files into ``folder`` (all or none)."""
    from baton.warehouse.engine import engine_for_url

    if not _USER.fullmatch(user):
        raise InvalidInput(*both("init.bad_user", user=user))
    folder = folder.resolve()
    if folder.exists() and not folder.is_dir():
        raise ConfigError(*both("init.not_a_folder", path=folder))
    existing = [name for name in FILES if (folder / name).exists()]
    if existing and not force:
        raise ConfigError(*both("init.exists", files=", ".join(existing), path=folder))
    engine = engine_for_url(url)
    file = duckdb_file(url, cwd or Path.cwd()) if engine.name == "duckdb" else None
    if file is not None and not file.is_file():
        raise ConfigError(*both("init.duckdb_missing", path=file, url=url))
    backend = engine.open(_Connection(url, file))
    try:
        return _build_and_write(backend, url, file, folder, dbt=dbt, as_of=as_of, user=user)
    finally:
        backend.close()


def _build_and_write(
    backend: Backend, url: str, file: Path | None, folder: Path, *, dbt: Path | None, as_of: date | None, user: str
) -> InitResult:
    from baton.catalog.check import check_catalog
    from baton.catalog.introspect import build_draft, members_read_from_data, pii_columns, profile_warehouse
    from baton.catalog.writer import render_catalog, render_config, render_policy
    from baton.policy.model import DEFAULT_MAX_COST

    name = _warehouse_name(url, file)
    schema = backend.schema()
    if not schema:
        raise ConfigError(*both("init.no_tables", warehouse=name))
    imported: DbtImport | None = None
    if dbt is not None:
        from baton.catalog.dbt_import import import_dbt

        imported = import_dbt(dbt, schema=_schema_name(backend), warehouse=schema)
        catalog, notes = imported.catalog, {}
        profiles = profile_warehouse(backend, catalog.tables)
        header = bilingual("init.catalog_header_dbt", project=dbt)
    else:
        profiles = profile_warehouse(backend)
        draft = build_draft(profiles, warehouse=name, foreign_keys=backend.foreign_keys())
        catalog, notes = draft.catalog, draft.notes
        header = bilingual("init.catalog_header_draft", warehouse=name)
    if not catalog.tables:
        raise ConfigError(*both("init.no_tables", warehouse=name))
    pii = {column: guess for column, guess in pii_columns(profiles).items() if column.split(".")[0] in catalog.tables}
    if imported is not None:  # the dimensions the project says nothing of: members read as a draft's are
        catalog = members_read_from_data(catalog, profiles, pii, imported.index_said)
    rendered = render_catalog(catalog, header=header, notes=notes)
    _same_when_read_back(rendered, catalog)
    # the draft must fit its warehouse; whether the engine can cost a table is `catalog check`'s
    problems = check_catalog(catalog, backend, members=True, costs=False)
    if problems:
        raise _check_failed(problems, rendered, folder / "catalog.yaml", imported)
    url = _written_url(url, file, folder)
    texts = {
        "baton.toml": render_config(url, as_of=as_of, user=user),
        "catalog.yaml": rendered.text,
        "policies.yaml": render_policy(
            catalog.tables,
            {column: (guess.mask, guess.note()) for column, guess in pii.items()},
            user=user,
            version=f"init-{date.today().isoformat()}",
            max_cost=DEFAULT_MAX_COST,
        ),
    }
    _valid_policy_and_config(texts)
    written = write_all(folder, texts)
    notes_out = list(imported.notes) if imported is not None else []
    latest = _latest_days(backend, catalog)
    return InitResult(folder, written, catalog, pii, url, imported is not None, notes_out, latest)


def _latest_days(backend: Backend, catalog: Catalog) -> dict[str, date]:
    """The newest day of data of each dated table, so that the example questions ask about a
    month that has data (a draft's first table may hold only old launch dates)."""
    from baton.catalog.freshness import freshness_query, load_key_to_table, tracked_tables

    if not tracked_tables(catalog):
        return {}
    try:
        result = backend.execute(
            freshness_query(catalog).sql(dialect=backend.engine.dialect), timeout_s=30, row_cap=10_000
        )
    except ToolFailure:
        return {}  # the files are written; the examples then fall back to "last month"
    table_of = load_key_to_table(catalog)  # a load log's rows are keyed by its own names for the tables
    return {table_of.get(str(row[0]), str(row[0])): row[2] for row in result.rows if isinstance(row[2], date)}


def _schema_name(backend: Backend) -> str:
    """The schema unqualified table names live in (fills dbt's ``$source_schema``)."""
    if backend.engine.name == "duckdb":
        return "main"
    if backend.engine.name == "spark":
        rows = backend.execute("SELECT current_database()", timeout_s=30, row_cap=1).rows
        return str(rows[0][0]) if rows and rows[0][0] else "default"
    rows = backend.execute("SELECT current_schema()", timeout_s=10, row_cap=1).rows
    return str(rows[0][0]) if rows and rows[0][0] else "public"


def _same_when_read_back(rendered: Rendered, catalog: Catalog) -> None:
    """The text must load as exactly the catalog it renders (a quoting slip is a bug, not a file)."""
    import yaml
    from pydantic import ValidationError

    from baton.catalog.model import Catalog

    try:
        again = Catalog.model_validate(safe_load(rendered.text))
    except (yaml.YAMLError, ValidationError) as exc:
        raise ToolFailure(*both("init.draft_invalid", error=str(exc).splitlines()[0])) from exc
    if again.model_dump() != catalog.model_dump():
        raise ToolFailure(*both("init.draft_invalid", error="the text reads back differently"))


def _valid_policy_and_config(texts: dict[str, str]) -> None:

    from baton.policy.model import Policy

    try:
        Policy.model_validate(safe_load(texts["policies.yaml"]))
        tomllib.loads(texts["baton.toml"])
    except Exception as exc:  # a file init itself renders: any failure is a bug in init
        raise ToolFailure(*both("init.draft_invalid", error=str(exc).splitlines()[0])) from exc


def _origin(problem: CatalogProblem, imported: DbtImport) -> tuple[Path, int | None] | None:
    """The dbt file and line a problem's catalog path (or its closest parent) was imported from."""
    path = problem.path
    while path:
        if path in imported.origins:
            return imported.origins[path]
        path = path[:-1]
    return None


def _check_failed(
    problems: list[CatalogProblem], rendered: Rendered, catalog_file: Path, imported: DbtImport | None
) -> ConfigError:
    from baton.catalog.check import locate

    located: list[tuple[CatalogProblem, Path, int | None]] = []
    for problem in problems:
        where = _origin(problem, imported) if imported is not None else None
        located.append((problem, *(where or locate(problem, rendered.lines, catalog_file))))

    def lines(language: Language) -> str:
        index = 0 if language == "en" else 1
        out = []
        for problem, file, line in located:
            key = "init.problem_line" if line is not None else "init.problem_file"
            out.append("  " + text(key, language, file=file, line=line, message=problem.message[index]))
        return "\n".join(out)

    en = text("init.check_failed", "en", count=len(problems), problems=lines("en"))
    zh = text("init.check_failed", "zh", count=len(problems), problems=lines("zh"))
    detail = {"problems": [{"code": p.code, "file": str(f), "line": n, "path": list(p.path)} for p, f, n in located]}
    return ConfigError(en, zh, detail=detail)


def write_all(folder: Path, texts: dict[str, str]) -> list[Path]:
    """Write every file to a temporary name beside its target, then rename them all into place
    (a failure before the renames leaves the folder as it was)."""
    temporaries: list[tuple[Path, Path]] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, content in texts.items():
            temporary = folder / f".{name}.{os.getpid()}.tmp"
            with temporary.open("w", encoding="utf-8", newline="\n") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            temporaries.append((temporary, folder / name))
        for temporary, final in temporaries:
            os.replace(temporary, final)
    except OSError as exc:
        raise ConfigError(*both("init.cannot_write", path=folder, error=exc.strerror or exc)) from exc
    finally:
        for temporary, _final in temporaries:
            temporary.unlink(missing_ok=True)
    return [final for _temporary, final in temporaries]


def _report(result: InitResult) -> list[str]:
    """What was written, what the catalog holds, and what to do next."""
    catalog = result.catalog
    out = [bilingual("init.wrote", path=shown_path(path)) for path in result.written]
    counts = {"tables": len(catalog.tables), "dimensions": len(catalog.dimensions), "metrics": len(catalog.metrics)}
    out.append(bilingual("init.summary", pii=len(result.pii), **counts))
    out += [bilingual("init.dbt_note", note=f"{en} / {zh}") for en, zh in result.dbt_notes]
    config = shown_path(result.folder / "baton.toml")
    newest = sorted(result.latest, key=lambda t: (result.latest[t], t), reverse=True)
    period = {lang: _example_period(result.latest[newest[0]] if newest else None, lang) for _, lang in _ASKED_IN}
    if result.from_dbt:
        metric = next((m for t in newest for m in catalog.metrics.values() if m.table == t), None)
        metric = metric or next(iter(catalog.metrics.values()), None)
        labels = {"en": metric.label.en, "zh": metric.label.zh} if metric is not None else {"en": "…", "zh": "…"}
        questions = {
            key: text("init.example_metric", lang, metric=labels[lang], period=period[lang]) for key, lang in _ASKED_IN
        }
        out.append(bilingual("init.next_steps_dbt", config=config, **questions))
    else:
        dated = newest[0] if newest else next((t for t, i in catalog.tables.items() if i.time_column is not None), "…")
        questions = {key: text("init.example_rows", lang, table=dated, period=period[lang]) for key, lang in _ASKED_IN}
        out.append(
            bilingual("init.next_steps", catalog=shown_path(result.folder / "catalog.yaml"), config=config, **questions)
        )
    return out


_ASKED_IN: tuple[tuple[str, Language], ...] = (("english", "en"), ("chinese", "zh"))
"""The two example questions `baton init` prints, by the message field each fills."""


def _example_period(latest: date | None, language: Language) -> str:
    """The newest whole month of data ("in 2026-04" / "2026-04 " when data ends on 5 May), or "last
    month" when no day of data is known."""
    if latest is None:
        return text("init.last_month", language)
    following = date(latest.year + latest.month // 12, latest.month % 12 + 1, 1)
    if (following - latest).days > 1:  # the month is not whole yet: the one before it
        latest = date(latest.year, latest.month, 1) - timedelta(days=1)
    month = f"{latest.year:04d}-{latest.month:02d}"
    return f"in {month}" if language == "en" else f"{month} "  # "2026-04 trips有多少行？": apart from a Latin name


def init_command(
    warehouse: WarehouseOpt,
    dbt: DbtOpt = None,
    path: PathOpt = Path("."),
    as_of: InitAsOfOpt = None,
    user: InitUserOpt = "analyst",
    force: ForceOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Write baton.toml, catalog.yaml and policies.yaml for an existing warehouse.

    Without --dbt the catalog is a draft guessed from the data: read it, edit it, then run `baton catalog check`.
    Nothing is written when the catalog does not fit the warehouse."""
    with reported(as_json=as_json, reveal_internal=True):  # its user typed the URL: show what the driver said
        result = initialize(warehouse, path, dbt=dbt, as_of=parse_as_of(as_of), user=user, force=force)
    if as_json:
        document = {
            "written": [str(p) for p in result.written],
            "warehouse_url": result.warehouse_url,
            "tables": list(result.catalog.tables),
            "dimensions": list(result.catalog.dimensions),
            "metrics": list(result.catalog.metrics),
            "pii_columns": {c: g.mask for c, g in result.pii.items()},
            "notes": [en for en, _ in result.dbt_notes],
        }
        print(json.dumps(document, ensure_ascii=False, indent=2))
        return
    for line in _report(result):  # paths, table names and dbt notes: shown as typed
        print(terminal_str(line))
