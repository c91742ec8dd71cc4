"""The shape of the code, checked: packages depend downward (DESIGN §2), contracts import
nothing of ours, no product code names a particular warehouse, the cli has no import cycle,
and agent functions fit on a screen.

Imports are read with ``ast`` — module-level and inside functions (lazy imports count too)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "baton"

LEVELS: dict[str, int] = {
    "contracts": 0,
    "lazy": 0,
    "patterns": 0,
    "private": 0,
    "visible": 0,
    "yaml_text": 0,
    "messages": 1,
    "errors": 2,
    "numbers": 3,
    "trace": 3,
    "stats": 3,
    "context": 3,
    "catalog": 3,
    "llm": 4,
    "nlu": 5,
    "charts": 5,
    "memory": 6,
    "policy": 6,
    "sql": 7,
    "warehouse": 8,
    "config": 9,
    "reference": 10,
    "agents": 10,
    "orchestrator": 11,
    "report": 11,
    "bench": 11,
    "evals": 12,
    "demo": 13,
    "exports": 12,
    "notebook": 12,
    "_api": 14,
    "server": 15,
    "cli": 16,
    "__init__": 17,
    "__main__": 18,
}
"""A package may import only packages on a lower level (``contracts`` ← … ← ``cli``)."""

DEMO_NAMES = (
    "fact_order",
    "fact_traffic",
    "dim_user",
    "dim_product",
    "gmv",
    "visitors",
    "order_count",
    "meta_table_load",
    "618",
    "双11",
)
THIRD_PARTY = ("report/vendor/", "charts/schema/")
MAX_AGENT_FUNCTION_LINES = 80


def _package(path: Path) -> str:
    parts = path.relative_to(SRC).parts
    return parts[0] if len(parts) > 1 else parts[0].removesuffix(".py")


def _module(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.parts[-1] == "__init__" else rel.parts
    return ".".join(parts)


def _imports(path: Path) -> Iterator[str]:
    """Every ``baton.*`` module ``path`` imports, anywhere in the file."""
    package = _module(path).rsplit(".", 0 if path.name == "__init__.py" else 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("baton"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                yield f"{base}.{node.module}" if node.module else base
            elif node.module == "baton" and all((SRC / f"{a.name}.py").is_file() for a in node.names):
                yield from (f"baton.{a.name}" for a in node.names)  # `from baton import patterns`: a module
            elif node.module and node.module.startswith("baton"):
                yield node.module
                yield from (f"{node.module}.{a.name}" for a in node.names)


def _sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_every_package_has_a_level() -> None:
    assert {_package(p) for p in _sources()} <= set(LEVELS)


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(SRC)))
def test_dependencies_point_downward(path: Path) -> None:
    own = _package(path)
    for target in _imports(path):
        parts = target.split(".")
        other = parts[1] if len(parts) > 1 else "__init__"
        if other != own and other in LEVELS:
            assert LEVELS[other] < LEVELS[own], f"{own} imports {target} ({other} is not below {own})"


def test_contracts_import_nothing_of_ours() -> None:
    for path in (SRC / "contracts").glob("*.py"):
        outside = [t for t in _imports(path) if not t.startswith("baton.contracts")]
        assert not outside, (path.name, outside)


def test_orchestrator_does_not_import_evals() -> None:
    for path in (SRC / "orchestrator").glob("*.py"):
        assert not [t for t in _imports(path) if t.startswith("baton.evals")], path.name


def test_cli_has_no_import_cycle() -> None:
    modules = {_module(p): p for p in (SRC / "cli").glob("*.py")}
    graph = {name: {t for t in _imports(path) if t in modules and t != name} for name, path in modules.items()}
    graph["baton.cli"] = graph.get("baton.cli", set())
    seen: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        seen[node] = 1
        for nxt in graph.get(node, ()):
            assert seen.get(nxt) != 1, "import cycle: " + " -> ".join([*stack, node, nxt])
            if nxt not in seen:
                visit(nxt, [*stack, node])
        seen[node] = 2

    for name in graph:
        if name not in seen:
            visit(name, [])


def test_no_demo_table_column_or_metric_in_product_code() -> None:
    pattern = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, DEMO_NAMES)) + r")(?![\w])")
    found = []
    for path in SRC.rglob("*"):
        rel = path.relative_to(SRC).as_posix()
        if not path.is_file() or rel.startswith("demo/") or rel.startswith(THIRD_PARTY) or "__pycache__" in rel:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            found += [f"{rel}:{number}: {m.group(0)}" for m in pattern.finditer(line)]
    assert not found, "\n".join(found[:20])


def test_agent_functions_fit_on_a_screen() -> None:
    long = []
    for path in (SRC / "agents").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_AGENT_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.name} ({lines} lines)")
    assert not long, long


@pytest.mark.parametrize("package", ["stats", "charts", "report"])
def test_lazy_packages_export_no_name_that_is_also_a_submodule(package: str) -> None:
    """A lazily exported name equal to a submodule's name resolves to the module once the
    submodule is imported (the import system sets the package attribute): order-dependent."""
    import importlib

    module = importlib.import_module(f"baton.{package}")
    submodules = {p.stem for p in (SRC / package).glob("*.py")}
    assert not set(module.__all__) & submodules


def _top_level_names(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    targets = node.targets if isinstance(node, ast.Assign) else []
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        targets = [node.target]
    return [t.id for t in targets if isinstance(t, ast.Name)]


def test_no_module_binds_a_top_level_name_twice() -> None:
    """A second ``CLAUSE_BREAK = …`` (or a second fixture ``with_status``) further down a module
    silently replaces the first for every reader of it; ruff sees neither once the first is used."""
    twice = []
    for path in [*SRC.rglob("*.py"), *(SRC.parents[1] / "tests").rglob("*.py")]:
        seen: set[str] = set()
        for name in (n for node in ast.parse(path.read_text(encoding="utf-8")).body for n in _top_level_names(node)):
            if name in seen:
                twice.append(f"{path.name}:{name}")
            seen.add(name)
    assert not twice, twice
