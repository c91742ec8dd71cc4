"""Warehouse failures, as the engine profiles report them (``warehouse.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "timeout": (
        "The query was stopped after its {timeout_s:g} s limit.",
        "查询超过 {timeout_s:g} 秒上限，已被终止。",
    ),
    "rejected": ("The warehouse rejected the query ({error}).", "数据仓库拒绝了该查询（{error}）。"),
    "failed": ("The warehouse failed ({error}).", "数据仓库执行失败（{error}）。"),
    "unavailable": ("The warehouse is unavailable ({error}).", "数据仓库不可用（{error}）。"),
    "file_missing": ("Warehouse file not found: {path}", "找不到数据仓库文件：{path}"),
    "cannot_open": ("Cannot open the warehouse {path} ({error}).", "无法打开数据仓库 {path}（{error}）。"),
    "unlocked": (
        "The warehouse is locked with external access on; refusing to use it.",
        "数据仓库的配置已锁定但仍允许外部访问，拒绝使用。",
    ),
    "cannot_connect": ("Cannot connect to {engine} ({error}).", "无法连接 {engine}（{error}）。"),
    "engine_said": ("The warehouse driver said: {text}", "数据仓库驱动的原话：{text}"),
    "unknown_engine": (
        "Unknown warehouse engine {name!r}; known: {known}.",
        "未知的数据仓库引擎 {name!r}；支持：{known}。",
    ),
    "driver_missing": (
        'The {engine} client is not installed: pip install "baton-analyst[{extra}]"',
        '未安装 {engine} 客户端：pip install "baton-analyst[{extra}]"',
    ),
    "spark_bad_url": (
        "Not a Spark Connect URL: {url!r} (sc://HOST:PORT[/;token=…;database=…]).",
        "不是有效的 Spark Connect 地址：{url!r}（sc://HOST:PORT[/;token=…;database=…]）。",
    ),
    "spark_bad_database": (
        "Not a Spark database name: {database!r} (letters, digits and _).",
        "不是有效的 Spark 数据库名：{database!r}（字母、数字和下划线）。",
    ),
    "spark_no_database": (
        "Spark has no database {database!r} (the URL's database=…); check the name, or create it.",
        "Spark 中没有数据库 {database!r}（地址中的 database=…）；请检查名称，或先创建它。",
    ),
    "spark_tls": (
        "Spark Connect did not accept a TLS connection. A URL with token= (or use_ssl=true) makes the client "
        "use TLS, so the server must serve TLS (e.g. behind a TLS proxy); a local server without TLS takes no token.",
        "Spark Connect 未接受 TLS 连接。地址中带 token=（或 use_ssl=true）时客户端使用 TLS，服务器必须提供 TLS"
        "（例如经由 TLS 代理）；没有 TLS 的本地服务器不接受 token。",
    ),
    "spark_no_statistics": (
        "Spark has no size for {tables}, so the cost cannot be bounded; give it statistics on the cluster "
        "with {statements}",
        "Spark 没有 {tables} 的大小统计，无法限定成本；请在集群上用 {statements} 收集统计信息",
    ),
    "spark_load_failed": (
        "Loading the demo into Spark failed ({error}).",
        "将演示数据载入 Spark 失败（{error}）。",
    ),
    "unsupported_url": (
        "Unsupported warehouse URL {url!r}; use one of: {schemes}",
        "不支持的数据仓库地址 {url!r}；可用：{schemes}",
    ),
}
