"""`baton mcp` over stdio, driven by the MCP SDK's own client against the real demo warehouse.

Each user's server is started once per module (a real subprocess: `python -m baton mcp`) and
answers a batch of calls; the tests read that batch. Numbers are checked against DuckDB queries
written here, straight on the demo file, not through Baton.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import anyio
import duckdb
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.types import CallToolResult, ListToolsResult, TextContent

T = TypeVar("T")
AS_OF = "2026-07-01"
BY_CHANNEL = "上个月各渠道的GMV是多少？"
SOUTH = "上个月华南的GMV是多少？"
JUNE = "order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' AND status IN ('paid', 'refunded')"


def _serve(config: Path, user: str, calls: Callable[[ClientSession], Awaitable[T]]) -> T:
    """Start `baton mcp --config CONFIG --user USER` as a subprocess, initialize, run ``calls``."""

    async def main() -> T:
        args = ["-m", "baton", "mcp", "--config", str(config), "--user", user]
        async with (
            stdio_client(StdioServerParameters(command=sys.executable, args=args)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await calls(session)

    return anyio.run(main)


def _sum_gmv(demo_dir: Path, where: str = "") -> Decimal:
    with duckdb.connect(str(demo_dir / "warehouse.duckdb"), read_only=True) as con:
        row = con.execute(f"SELECT SUM(gmv_amount) FROM fact_order WHERE {JUNE} {where}").fetchone()
    assert row is not None
    return Decimal(str(row[0]))


def _structured(result: CallToolResult) -> dict[str, Any]:
    content: dict[str, Any] | None = result.structured_content
    assert content is not None
    return content


def _text(result: CallToolResult) -> str:
    """The text block every result carries (for clients that do not read structured content)."""
    block = result.content[0]
    assert isinstance(block, TextContent)
    return block.text


@pytest.fixture(scope="module")
def analyst(demo_dir: Path) -> dict[str, Any]:
    """One analyst server: the tool list and one call of each kind."""

    def runs() -> int:
        return sum(1 for p in (demo_dir / "runs").glob("run_*"))

    async def calls(session: ClientSession) -> dict[str, Any]:
        before = runs()
        empty = await session.call_tool("ask", {"question": ""})
        blank = await session.call_tool("analyze", {"question": "  \n "})
        blank_runs = runs() - before
        opened = await session.call_tool("ask", {"question": BY_CHANNEL, "as_of": AS_OF, "conversation_id": "new"})
        asked_runs = runs() - before
        conversation = _structured(opened)["conversation_id"]
        return {
            "empty": empty,
            "blank": blank,
            "blank_runs": blank_runs,
            "asked_runs": asked_runs,
            "opened": opened,
            "follow_up": await session.call_tool("ask", {"question": "那华南呢？", "conversation_id": conversation}),
            "no_conversation": await session.call_tool("ask", {"question": "那华南呢？", "conversation_id": "conv_x"}),
            "tools": await session.list_tools(),
            "ask": await session.call_tool("ask", {"question": BY_CHANNEL, "as_of": AS_OF}),
            "list": await session.call_tool("list_metrics", {}),
            "describe": await session.call_tool("describe_metric", {"name": "gmv", "language": "zh"}),
            "unknown": await session.call_tool("describe_metric", {"name": "gmvv"}),
            "bad_date": await session.call_tool("ask", {"question": BY_CHANNEL, "as_of": "2026-13-01"}),
            "query": await session.call_tool(
                "query",
                {
                    "metrics": ["gmv"],
                    "group_by": ["region"],
                    "where": ["{{ Dimension('region') }} = '华南'"],
                    "start_time": "2026-06-01",
                    "end_time": "2026-06-30",
                    "as_of": AS_OF,
                },
            ),
        }

    got: dict[str, Any] = _serve(demo_dir / "baton.toml", "analyst", calls)
    return got


@pytest.fixture(scope="module")
def east_manager(demo_dir: Path) -> dict[str, CallToolResult]:
    async def calls(session: ClientSession) -> dict[str, CallToolResult]:
        return {
            "south": await session.call_tool("ask", {"question": SOUTH, "as_of": AS_OF}),
            "own": await session.call_tool("ask", {"question": BY_CHANNEL, "as_of": AS_OF}),
        }

    return _serve(demo_dir / "baton.toml", "east_manager", calls)


def test_the_five_tools_are_listed_read_only_with_output_schemas(analyst: dict[str, Any]) -> None:
    tools: ListToolsResult = analyst["tools"]
    by_name = {tool.name: tool for tool in tools.tools}
    assert set(by_name) == {"ask", "analyze", "query", "list_metrics", "describe_metric"}
    for tool in tools.tools:
        assert tool.output_schema is not None and tool.output_schema["type"] == "object", tool.name
        assert tool.annotations is not None and tool.annotations.read_only_hint is True, tool.name
        assert tool.description
    ask_schema, analyze_schema = by_name["ask"].output_schema or {}, by_name["analyze"].output_schema or {}
    assert {"interpretation", "table", "sql", "metrics", "run_id"} <= set(ask_schema["properties"])
    assert {"drivers", "tests", "excluded_paths"} <= set(analyze_schema["properties"])
    assert "question" in by_name["ask"].input_schema["required"]
    assert "user" not in by_name["ask"].input_schema["properties"]  # the user is never the caller's to choose


def test_ask_returns_the_governed_answer_as_structured_content(analyst: dict[str, Any], demo_dir: Path) -> None:
    result: CallToolResult = analyst["ask"]
    out = _structured(result)
    assert result.is_error is False
    assert out["status"] == "answered" and out["user"] == "analyst" and out["run_id"].startswith("run_")
    assert out["interpretation"] and "2026-06-01" in out["interpretation"]
    table = out["table"]
    assert [c["name"] for c in table["columns"]] == ["channel", "gmv"]
    assert table["row_count"] == len(table["rows"]) == 4
    total = sum(Decimal(str(row[1])) for row in table["rows"])
    assert total == _sum_gmv(demo_dir)
    assert "SUM" in out["sql"] and "fact_order" in out["sql"]
    assert out["metrics"][0]["name"] == "gmv" and out["metrics"][0]["definition"] and out["metrics"][0]["owner"]
    assert out["assumptions"] and out["data_freshness"]
    assert json.loads(_text(result)) == out  # the text block carries the same answer


def test_a_follow_up_in_a_conversation_keeps_the_reading(analyst: dict[str, Any], demo_dir: Path) -> None:
    opened, follow = _structured(analyst["opened"]), _structured(analyst["follow_up"])
    assert opened["conversation_id"].startswith("conv_") and follow["conversation_id"] == opened["conversation_id"]
    assert follow["status"] == "answered" and follow["as_of"] == AS_OF  # the date is inherited too
    assert [c["name"] for c in follow["table"]["columns"]] == ["channel", "gmv"]  # still by channel
    assert sum(Decimal(str(row[1])) for row in follow["table"]["rows"]) == _sum_gmv(demo_dir, "AND region = '华南'")
    unknown: CallToolResult = analyst["no_conversation"]
    assert unknown.is_error is True and _structured(unknown)["error"]["code"] == "not_found"  # as in the REST API


def test_query_runs_the_semantic_layer_as_the_same_governed_run(analyst: dict[str, Any], demo_dir: Path) -> None:
    out = _structured(analyst["query"])
    assert out["status"] == "answered"
    assert out["table"]["rows"] == [["华南", float(_sum_gmv(demo_dir, "AND region = '华南'"))]]
    assert out["question"].startswith("query --metrics gmv")


def test_list_and_describe_metrics_read_the_catalog(analyst: dict[str, Any]) -> None:
    listed = _structured(analyst["list"])
    assert listed["user"] == "analyst"
    gmv = next(m for m in listed["metrics"] if m["name"] == "gmv")
    assert gmv["unit"] == "currency" and gmv["currency"] == "CNY" and gmv["available"] is True and gmv["description"]
    assert all(m["available"] for m in listed["metrics"])  # the analyst reads every demo table
    described = _structured(analyst["describe"])
    assert described["label"] == "成交总额" and "已支付" in described["description"]
    assert described["expression"] == "SUM(gmv_amount)" and described["time_dimension"] == "order_date"
    channel = next(d for d in described["dimensions"] if d["name"] == "channel")
    assert {"value": "live_stream", "label": "直播"} in channel["members"]
    assert "metric_time__month" in described["time_grains"] and described["owner"]


def test_errors_are_tool_errors_with_the_code_and_message(analyst: dict[str, Any]) -> None:
    unknown: CallToolResult = analyst["unknown"]
    assert unknown.is_error is True
    assert _structured(unknown)["error"]["code"] == "unknown_metric"
    assert "gmv" in _structured(unknown)["error"]["detail"]["suggestions"]
    bad: CallToolResult = analyst["bad_date"]
    assert bad.is_error is True
    assert _text(bad).startswith("invalid_input：")  # a Chinese question: the message in Chinese
    assert "2026-13-01" in _text(bad)
    assert "Traceback" not in _text(bad)


def test_an_empty_question_is_invalid_input_before_any_run(analyst: dict[str, Any]) -> None:
    """As REST answers 422: a blank question is bad input, not a failed run."""
    assert analyst["blank_runs"] == 0 and analyst["asked_runs"] == 1  # where runs are, none was made
    for name in ("empty", "blank"):
        result: CallToolResult = analyst[name]
        assert result.is_error is True
        error = _structured(result)["error"]
        assert error["code"] == "invalid_input" and "run_id" not in error.get("detail", {})
        assert "question is empty" in error["message"] and _text(result).startswith("invalid_input: ")


def test_an_out_of_grant_question_is_refused_with_no_rows(
    east_manager: dict[str, CallToolResult], demo_dir: Path
) -> None:
    refused = east_manager["south"]
    out = _structured(refused)
    assert refused.is_error is True
    assert out["status"] == "refused" and out["table"] is None and out["sql"] is None
    assert out["error"]["code"] == "permission_denied" and "华南" in out["answer"]
    south = _sum_gmv(demo_dir, "AND region = '华南'")
    text = _text(refused)
    assert str(south) not in text and f"{south:,}" not in text  # the number is nowhere in what came back


def test_a_row_filtered_user_gets_only_their_rows(east_manager: dict[str, CallToolResult], demo_dir: Path) -> None:
    out = _structured(east_manager["own"])
    assert out["status"] == "answered" and out["user"] == "east_manager"
    total = sum(Decimal(str(row[1])) for row in out["table"]["rows"])
    assert total == _sum_gmv(demo_dir, "AND region = '华东'")
    assert total < _sum_gmv(demo_dir)


def test_marketing_cannot_query_a_metric_on_a_table_it_is_not_granted(demo_dir: Path) -> None:
    async def calls(session: ClientSession) -> tuple[CallToolResult, CallToolResult]:
        listed = await session.call_tool("list_metrics", {})
        asked = await session.call_tool("query", {"metrics": ["new_users"], "as_of": AS_OF})
        return listed, asked

    listed, asked = _serve(demo_dir / "baton.toml", "marketing", calls)
    available = {m["name"]: m["available"] for m in _structured(listed)["metrics"]}
    assert available["new_users"] is False and available["gmv"] is True
    out = _structured(asked)
    assert asked.is_error is True and out["status"] == "refused" and out["table"] is None
    assert out["error"]["code"] == "permission_denied"


def _baton(*args: str, code: str = "") -> subprocess.CompletedProcess[str]:
    run = [sys.executable, "-c", code + "from baton.cli import main; main()", "mcp", *args] if code else None
    return subprocess.run(
        run or [sys.executable, "-m", "baton", "mcp", *args],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_an_unknown_user_stops_before_serving(demo_dir: Path) -> None:
    done = _baton("--config", str(demo_dir / "baton.toml"), "--user", "nobody")
    assert done.returncode == 3, done.stderr
    assert "permission_denied" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""  # stdout is the protocol's: nothing else is ever written there


def test_without_the_mcp_sdk_the_command_says_what_to_install(demo_dir: Path) -> None:
    hide = "import sys; sys.modules['mcp'] = None; sys.argv[0] = 'baton'; "  # as if the extra were not installed
    done = _baton("--config", str(demo_dir / "baton.toml"), code=hide)
    assert done.returncode == 1, done.stderr
    assert "missing_dependency" in done.stderr and "baton-analyst[mcp]" in done.stderr
    assert "Traceback" not in done.stderr
