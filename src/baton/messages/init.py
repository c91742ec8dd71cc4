"""`baton init`: its errors and report, and the texts it writes into a draft catalog (``init.<key>``).

The comments of the written files are deliberately bilingual (``_BILINGUAL``: one line in both
languages, the same text as both templates); labels, synonyms and descriptions of the draft
are the catalog's own data in English and Chinese.
"""

from __future__ import annotations

_BILINGUAL: dict[str, str] = {
    # what the command prints
    "wrote": "wrote {path} / 已写入 {path}",
    "summary": (
        "{tables} table(s), {dimensions} dimension(s), {metrics} metric(s), {pii} personal-data column(s) "
        "/ {tables} 张表、{dimensions} 个维度、{metrics} 个指标、{pii} 个个人信息列"
    ),
    "next_steps": (
        "Next / 下一步:\n"
        "  1. read and edit the draft {catalog} (every guess is marked 'draft') / 检查并修改草稿（每处推测都标有“草稿”）\n"
        "  2. baton catalog check --config {config}\n"
        '  3. baton ask "{english}" --config {config}\n'
        '     baton ask "{chinese}" --config {config}'
    ),
    "next_steps_dbt": (
        "Next / 下一步:\n"
        "  1. baton catalog check --config {config}\n"
        '  2. baton ask "{english}" --config {config}\n'
        '     baton ask "{chinese}" --config {config}'
    ),
    "dbt_note": "dbt: {note}",
    # comments of the written files
    "config_header": (
        "Baton settings, written by `baton init`: which warehouse, catalog and policy `baton ask` uses.\n"
        "Baton 配置（由 `baton init` 生成）：`baton ask` 使用的数仓、指标目录与权限策略。\n"
        "Relative paths are relative to this file. See docs/reference.md. / 相对路径相对于本文件；详见 docs/reference.md。"
    ),
    "config_as_of": "questions are read as of this date / 问题按此日期理解",
    "catalog_header_draft": (
        "DRAFT metric catalog, guessed by `baton init` from the warehouse {warehouse}.\n"
        "指标目录草稿：由 `baton init` 根据数仓 {warehouse} 推测生成。\n"
        "Every guess is marked 'draft': check labels, synonyms, units, owners and filters, add Chinese names,\n"
        "remove what is not a metric. / 每处推测都标有“草稿”：请核对名称、同义词、单位、负责人与过滤条件，补充中文名，删除不是指标的条目。\n"
        "Then run `baton catalog check`; the format is described in docs/reference.md.\n"
        "修改后运行 `baton catalog check`；文件格式见 docs/reference.md。"
    ),
    "catalog_header_dbt": (
        "Metric catalog imported by `baton init` from the dbt project {project}.\n"
        "指标目录：由 `baton init` 从 dbt 项目 {project} 导入。\n"
        "Edit the dbt project and run `baton init --dbt` again, or edit this file; then run `baton catalog check`.\n"
        "修改 dbt 项目后重新运行 `baton init --dbt`，或直接修改本文件；然后运行 `baton catalog check`。\n"
        "The format is described in docs/reference.md. / 文件格式见 docs/reference.md。"
    ),
    "policy_header": (
        "Baton policy, written by `baton init`: who may read which tables, and which columns hold personal data.\n"
        "权限策略（由 `baton init` 生成）：谁能读哪些表，哪些列是个人信息。\n"
        "Roles only grant; pii per role: mask | deny | allow. See docs/reference.md. / 角色只授予权限；详见 docs/reference.md。"
    ),
    "policy_pii_draft": (
        "DRAFT: columns guessed to hold personal data (masked for every role with pii: mask); "
        "add what was missed, remove what is not personal.\n"
        "草稿：推测为个人信息的列（pii: mask 的角色看到的是脱敏值）；请补充遗漏的列，删除不是个人信息的列。"
    ),
    "pii_by_name": "draft: guessed from the column name / 草稿：由列名推测",
    "role_description": "Reads every table of the catalog; personal data masked / 读取指标目录中的全部表，个人信息脱敏",
    "policy_cost_budget": (
        "the most one query may cost in the engine's estimate (DuckDB: estimated rows summed over the plan; "
        "PostgreSQL: total cost or largest row estimate); larger queries are refused "
        "/ 单条查询按引擎估算可花费的上限（DuckDB：计划各算子估算行数之和；PostgreSQL：总成本或最大估算行数），超出即拒绝"
    ),
    "user_description": "Written by baton init / 由 baton init 创建",
    "draft_table_no_time": (
        "draft: no date or timestamp column, so no metric is defined on this table (every metric is dated by one) "
        "/ 草稿：没有日期或时间戳列，因此未在本表上定义指标（每个指标都需要时间列）"
    ),
    "draft_join": (
        "draft: {column} is declared a foreign key of {target}; this table's metrics read that table's dimensions "
        "through it / 草稿：{column} 声明为 {target} 的外键；本表的指标可经此关联使用该表的维度"
    ),
    "draft_referenced_key": (
        "draft: {column} is the key the declared foreign key {referenced} references "
        "/ 草稿：{column} 是已声明外键 {referenced} 所引用的键"
    ),
    "draft_primary_key": (
        "draft: {column} held a different value in each of the {rows} row(s) read "
        "/ 草稿：在读取的 {rows} 行中，{column} 每行取值都不同"
    ),
    "draft_skipped": (
        "not read: {columns} (names that need quoting in SQL) / 未读取：{columns}（名称在 SQL 中需加引号）"
    ),
    "draft_dimension": (
        "draft: {count} distinct value(s) read from {columns}; add synonyms and Chinese labels "
        "/ 草稿：从 {columns} 读出 {count} 个取值；请补充同义词与中文名称"
    ),
    "draft_dimension_indexed": (
        "draft: {columns} hold many code-like values (more than {limit}); they are read from the warehouse "
        "when questions are asked / 草稿：{columns} 取值较多且像编码（超过 {limit} 个），提问时从数仓读取"
    ),
    "draft_dimension_names": (
        "draft: {columns} name each row of a table other tables point at; the tables that point at it are "
        "grouped by these names, read from the warehouse when questions are asked / 草稿：{columns} 是被其他表引用的"
        "表中每一行的名称；引用它的表按这些名称分组，提问时从数仓读取"
    ),
    "draft_metric": (
        "draft: guessed from {table}.{column}; check the expression, unit and owner "
        "/ 草稿：由 {table}.{column} 推测；请核对表达式、单位与负责人"
    ),
    "draft_metric_rows": "draft: counts every row of {table} / 草稿：统计 {table} 的全部行",
    "draft_currency": (
        "draft: a money column, but its currency is unknown: set currency (an ISO code such as USD) "
        "/ 草稿：金额列，但币种未知：请设置 currency（ISO 代码，如 USD）"
    ),
    "draft_owner": "draft: set the owning team / 草稿：请填写负责团队",
}
"""Lines written in both languages at once (the same text as both templates)."""

MESSAGES: dict[str, tuple[str, str]] = {
    # errors -------------------------------------------------------------------------------
    "exists": (
        "{files} already exist(s) in {path}; pass --force to overwrite",
        "{path} 中已有 {files}；如需覆盖请加 --force",
    ),
    "not_a_folder": ("{path} exists and is not a folder", "{path} 已存在且不是文件夹"),
    "bad_user": (
        "User name {user!r} must be letters, digits, '_', '-', '.' or '@'",
        "用户名 {user!r} 只能包含字母、数字、'_'、'-'、'.' 或 '@'",
    ),
    "no_duckdb_path": (
        "The DuckDB URL {url} names no file (write duckdb:///relative/path.duckdb or duckdb:////absolute/path.duckdb)",
        "DuckDB 地址 {url} 未指明文件（写作 duckdb:///相对路径.duckdb 或 duckdb:////绝对路径.duckdb）",
    ),
    "duckdb_missing": (
        "No DuckDB file at {path} (from {url}: duckdb:///x is relative to the current folder, "
        "duckdb:////x is absolute)",
        "找不到 DuckDB 文件 {path}（来自 {url}：duckdb:///x 相对于当前目录，duckdb:////x 为绝对路径）",
    ),
    "no_tables": (
        "The warehouse {warehouse} has no table Baton can read",
        "数仓 {warehouse} 中没有 Baton 能读取的表",
    ),
    "check_failed": (
        "The catalog does not match the warehouse ({count} problem(s)); nothing was written:\n{problems}",
        "指标目录与数仓不一致（{count} 个问题），未写入任何文件：\n{problems}",
    ),
    "example_rows": ("How many {table} rows were there {period}?", "{period}{table}有多少行？"),
    "example_metric": ("What was {metric} {period}?", "{period}{metric}是多少？"),
    "last_month": ("last month", "上个月"),
    "problem_line": ("{file}:{line}: {message}", "{file} 第 {line} 行：{message}"),
    "problem_file": ("{file}: {message}", "{file}：{message}"),
    "cannot_write": ("Cannot write {path}: {error}", "无法写入 {path}：{error}"),
    "draft_invalid": (
        "The draft catalog does not load ({error}); this is a bug in `baton init`",
        "生成的指标目录草稿无法加载（{error}）；这是 `baton init` 的缺陷",
    ),
    # the draft's own texts (catalog data) -------------------------------------------------
    "catalog_description": (
        "Draft catalog of the warehouse {warehouse}, guessed by baton init",
        "数仓 {warehouse} 的指标目录草稿，由 baton init 推测生成",
    ),
    "rows_label": ("{table} rows", "{table}行数"),
    "rows_synonym_of": ("rows of {table}", "{table}的行数"),
    "rows_synonym_number": ("number of {table} rows", "{table}有多少行"),
    "rows_synonym_count": ("{table} row count", "{table}多少行"),
    "rows_synonym_few": ("{table} row number", "{table}有几行"),
    "rows_synonym_records": ("{table} records", "{table}记录数"),
    "rows_synonym_record_count": ("number of {table} records", "{table}有多少条记录"),
    "rows_synonym_record_of": ("{table} record count", "{table}的记录数"),
    "rows_synonym_in": ("rows in {table}", "{table}表有多少行"),
    "rows_synonym_table_records": ("records in {table}", "{table}表有多少条记录"),
    "rows_synonym_in_table": ("rows in the {table} table", "{table}表的行数"),
    "rows_synonym_plain": ("{table}", "{table}数"),
    "rows_description": (
        "Number of rows in {table} (a draft by baton init)",
        "{table} 的行数（由 baton init 生成的草稿）",
    ),
    "sum_label": ("total {column}", "{column}合计"),
    "sum_synonym_of": ("sum of {column}", "{column}总和"),
    "sum_synonym_total": ("{column} total", "{column}总计"),
    "sum_description": (
        "Sum of {column} over the rows of {table} (a draft by baton init)",
        "{table} 各行 {column} 之和（由 baton init 生成的草稿）",
    ),
    "avg_label": ("average {column}", "{column}平均值"),
    "avg_synonym_mean": ("mean {column}", "平均{column}"),
    "avg_synonym_per_row": ("{column} per row", "{column}均值"),
    "avg_description": (
        "Average of {column} over the rows of {table} (a draft by baton init)",
        "{table} 各行 {column} 的平均值（由 baton init 生成的草稿）",
    ),
    # why a time column was chosen / a column is personal ---------------------------------
    "reason_date_name": ("its name says date", "列名表明是日期"),
    "reason_event_name": ("its name says when something happened", "列名表明是事件时间"),
    "reason_only": ("the only date or timestamp column", "唯一的日期或时间戳列"),
    "reason_first": ("the first date or timestamp column", "第一个日期或时间戳列"),
    # comments written as "English / Chinese" (a field differs by language) ----------------
    "pii_by_values": ("draft: guessed from the values ({what})", "草稿：由列值推测（{what_zh}）"),
    "draft_table": (
        "draft: time column {time_column} guessed ({reason}); freshness is its newest value",
        "草稿：推测时间列为 {time_column}（{reason_zh}）；数据新鲜度取其最新值",
    ),
    "values_email": ("email addresses", "邮箱地址"),
    "values_phone": ("phone numbers", "电话号码"),
    "values_id_card": ("ID card numbers", "身份证号"),
    **{key: (line, line) for key, line in _BILINGUAL.items()},
}
