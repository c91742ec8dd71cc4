"""Governed exports: preview, approval, files (``exports.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # the export run's answer ------------------------------------------------------------------
    "interpretation": (
        "Export of the result of run {run_id} as {format}, run again as {user} under today's policy.",
        "将运行 {run_id} 的结果导出为 {format}：以“{user}”的身份按当前权限重新运行。",
    ),
    "preview": (
        "Export preview: {rows} rows × {columns} columns. The file is written only once the export is approved "
        "(the run's trace then shows the export.write step).",
        "导出预览：{rows} 行 × {columns} 列。导出获批后才写出文件（届时运行轨迹中会有 export.write 步骤）。",
    ),
    "masked_note": ("Masked for {user}: {columns}.", "已为“{user}”脱敏：{columns}。"),
    "filters_note": ("Row filters of {user} applied: {filters}.", "已应用“{user}”的行过滤：{filters}。"),
    "mask_full": ("every value shown as ***", "每个值显示为 ***"),
    "mask_phone": ("first 3 and last 4 characters kept (138****1234)", "保留前 3 位和后 4 位（138****1234）"),
    "mask_email": ("first character and domain kept (a***@example.com)", "保留首字符和域名（a***@example.com）"),
    # refusals ----------------------------------------------------------------------------------
    "bad_format": (
        "Unknown export format {raw!r}: use csv, xlsx or parquet.",
        "未知的导出格式 {raw!r}：请使用 csv、xlsx 或 parquet。",
    ),
    "no_format": (
        "Say the format: --format csv|xlsx|parquet (or an --out file ending in .csv, .xlsx or .parquet).",
        "请指定格式：--format csv|xlsx|parquet（或以 .csv、.xlsx、.parquet 结尾的 --out 文件）。",
    ),
    "missing_dependency": (
        "Exporting {format} needs {package}: pip install 'baton-analyst[dataframes]'.",
        "导出 {format} 需要 {package}：pip install 'baton-analyst[dataframes]'。",
    ),
    "nothing_to_export": (
        "Run {run_id} has no result to export: only a run that read a result table (ask, query, sql run) can be "
        "exported.",
        "运行 {run_id} 没有可导出的结果：只有读取了结果表的运行（ask、query、sql run）才能导出。",
    ),
    "detail_not_permitted": (
        "Not permitted: {user} may not export detail rows (one row per record); the role does not allow "
        "export_detail. Nothing was run or written. Aggregate them (SUM, COUNT … GROUP BY) to export.",
        "不允许：{user} 无权导出明细行（逐条记录），其角色未授予 export_detail。未运行查询，也未写出文件。"
        "请先汇总（SUM、COUNT … GROUP BY）再导出。",
    ),
    "no_export": ("No export {export_id}.", "没有导出 {export_id}。"),
    "expired": (
        "The preview of export {export_id} expired at {expires_at}; request a new export (with a new idempotency key).",
        "导出 {export_id} 的预览已于 {expires_at} 过期；请重新发起导出（使用新的幂等键）。",
    ),
    "grants_changed": (
        "Not permitted: the grants of '{user}' have changed since export {export_id} was previewed; it is neither "
        "written nor shown again. Request a new export under today's grants.",
        "不允许：导出 {export_id} 预览之后，“{user}”的权限已变更，不再写出或展示。请按当前权限重新发起导出。",
    ),
    "key_conflict": (
        "The idempotency key was already used by '{user}' for another export (run {run_id} as {format}); use a "
        "new key.",
        "该幂等键已被“{user}”用于另一个导出（运行 {run_id}，格式 {format}）；请使用新的键。",
    ),
    "bad_key": (
        "An idempotency key is 1 to 200 printable characters.",
        "幂等键须为 1 到 200 个可打印字符。",
    ),
    "in_progress": (
        "Export {export_id} is still being prepared by another request; try again shortly.",
        "导出 {export_id} 正由另一个请求处理中，请稍后再试。",
    ),
    "not_ready": (
        "Export {export_id} cannot be approved: it is {status}.",
        "导出 {export_id} 无法批准：当前状态为 {status}。",
    ),
    "not_approved": (
        "Export {export_id} has not been approved: nothing was written yet.",
        "导出 {export_id} 尚未批准：还没有写出文件。",
    ),
    "unapproved_run": (
        "Run {run_id} is an export that has not been approved: its rows leave only as the approved file. "
        "See its preview with `baton export` or GET /api/exports/{run_id}.",
        "运行 {run_id} 是尚未批准的导出：其数据只能以批准后写出的文件离开。"
        "请用 `baton export` 或 GET /api/exports/{run_id} 查看其预览。",
    ),
    "mismatch": (
        "Export {export_id} exports run {run_id} as {format}, not what this request names.",
        "导出 {export_id} 导出的是运行 {run_id}（格式 {format}），与本次请求不符。",
    ),
    "file_changed": (
        "The stored file of export {export_id} is missing or no longer matches its sha256; it is not served.",
        "导出 {export_id} 的存储文件缺失或与其 sha256 不符，不予提供。",
    ),
    "approval_required": (
        "Detail rows need an explicit approval of this preview: confirm it, or approve it with "
        "`baton export {run_id} --approve {export_id} --out FILE`. Nothing was written.",
        "明细行需要对此预览进行明确批准：请确认，或运行 `baton export {run_id} --approve {export_id} --out 文件` "
        "批准。未写出任何文件。",
    ),
    "declined": ("Not approved: nothing was written.", "未批准：未写出任何文件。"),
    # the terminal ------------------------------------------------------------------------------
    "title": ("Export preview {export_id} (run {run_id}, {format})", "导出预览 {export_id}（运行 {run_id}，{format}）"),
    "rows_line": ("{rows} rows, {columns} columns{truncated}.", "{rows} 行，{columns} 列{truncated}。"),
    "truncated": (" (stopped at the row cap)", "（已达行数上限）"),
    "first_rows": ("first {shown} of {rows} rows", "前 {shown} 行，共 {rows} 行"),
    "masked_line": ("Masked: {items}", "已脱敏：{items}"),
    "masked_none": ("Masked: nothing", "脱敏：无"),
    "filters_line": ("Row filters: {filters}", "行过滤：{filters}"),
    "suppressed_line": (
        "Left out: {groups} groups of fewer than {k} records each (aggregate-only data).",
        "未包含：{groups} 组每组少于 {k} 条记录（仅限汇总的数据）。",
    ),
    "suppressed_uncounted": (
        "Groups of fewer than {k} records are left out (aggregate-only data).",
        "每组少于 {k} 条记录的分组未包含（仅限汇总的数据）。",
    ),
    "detail_line": (
        "Detail rows (one per record): export_detail and an explicit approval are needed.",
        "明细行（逐条记录）：需要 export_detail 权限并明确批准。",
    ),
    "aggregate_line": ("Aggregates (not one row per record).", "汇总数据（非逐条记录）。"),
    "expires_line": ("Approve before {expires_at}.", "请在 {expires_at} 之前批准。"),
    "approved_line": ("Already approved: the same file is returned.", "已批准：返回同一个文件。"),
    "confirm": ("Write these {rows} rows to {out}?", "将这 {rows} 行写入 {out}？"),
    "confirm_detail": (
        "These are detail rows (one per record). Approve writing all {rows} of them to {out}?",
        "这些是明细行（逐条记录）。批准将全部 {rows} 行写入 {out}？",
    ),
    "wrote": (
        "Wrote {path}: {rows} rows, {size} bytes, sha256 {sha256} (export {export_id}).",
        "已写出 {path}：{rows} 行，{size} 字节，sha256 {sha256}（导出 {export_id}）。",
    ),
}
