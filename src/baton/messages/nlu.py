"""What the question reader says when it cannot read a question (``nlu.<key>``): the input
gate, the rule parser's clarifications and the time-expression errors.

The words the reader *matches* (vocabularies, regular expressions) are language data and live
with the parser in :mod:`baton.nlu`, not here.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # the input gate -------------------------------------------------------------------------------
    "control_characters": ("The question contains binary or control characters.", "问题中包含二进制或控制字符。"),
    "empty": ("The question is empty.", "问题为空。"),
    "too_long": (
        "The question is too long ({length} characters; at most {limit}).",
        "问题过长（{length} 个字符，上限 {limit}）。",
    ),
    "out_of_scope": (
        "Baton is a read-only analyst: it cannot change data or its rules ({matched!r}). "
        "Ask a question about the data instead.",
        "Baton 是只读的数据分析助手，不能修改数据或绕过规则（“{matched}”）。请改为询问数据相关的问题。",
    ),
    # the rule parser ------------------------------------------------------------------------------
    "which_metric": ("Which metric do you mean? For example: {examples}.", "请问您想看哪个指标？例如：{examples}。"),
    "which_metric_named": (
        "{word!r} is part of the name of {metrics}, not a whole name. Which metric do you mean?",
        "“{word}”是 {metrics} 名称的一部分，而不是完整名称。请问是哪个指标？",
    ),
    "which_period": (
        "Which period do you mean? For example: last month, last quarter, the last 7 days.",
        "请问时间范围是？例如：上个月、上季度、近7天。",
    ),
    "several_metrics": (
        "{term!r} can mean several metrics: {labels}. Which one?",
        "“{term}”可能指多个指标：{labels}。请问是哪一个？",
    ),
    "unsupported_dimension": (
        "{metric} cannot be split or filtered by {dimension}; it allows: {allowed}.",
        "{metric}不支持按{dimension}拆分或筛选；可用维度：{allowed}。",
    ),
    "no_dimensions": ("no dimensions", "无"),
    "outside_of_definition": (
        "{metric} counts only rows whose {dimension} is {kept} (its definition), so for {members} it is empty by "
        "definition. Ask for a metric that includes {members}, e.g. {others}.",
        "{metric}按口径只统计{dimension}为 {kept} 的数据，{members} 按定义为空。请改问包含 {members} 的指标，例如：{others}。",
    ),
    "excluded_of_definition": (
        "{metric} counts only rows whose {dimension} is {kept} (its definition), so without {members} nothing is "
        "left. Ask for a metric that covers every {dimension}, e.g. {others}.",
        "{metric}按口径只统计{dimension}为 {kept} 的数据，去掉 {members} 后不剩任何数据。请改问涵盖所有{dimension}的指标，例如：{others}。",
    ),
    "share_whole_of_definition": (
        "{metric} counts only rows whose {dimension} is {kept} (its definition), so the share of {members} in it is "
        "100 % by definition. Ask for a metric that covers every {dimension}, e.g. {others}.",
        "{metric}按口径只统计{dimension}为 {kept} 的数据，其中 {members} 的占比按定义为 100%。请改问涵盖所有{dimension}的指标，例如：{others}。",
    ),
    "breakdown_of_definition": (
        "{metric} counts only rows whose {dimension} is {kept} (its definition), so by {dimension} it has one group. "
        "Ask for a metric that covers every {dimension}, e.g. {others}.",
        "{metric}按口径只统计{dimension}为 {kept} 的数据，按{dimension}拆分只有一组。请改问涵盖所有{dimension}的指标，例如：{others}。",
    ),
    "not_about_data": (
        "This does not look like a question about the data Baton can see (no metric, dimension or member of the "
        "catalog is named). Ask about a metric, for example: What was {metric} by {dimension} last month?",
        "这个问题似乎与 Baton 可查询的数据无关（没有提到指标目录中的指标、维度或成员）。请询问某个指标，例如：上个月各{dimension}的{metric}是多少？",
    ),
    "action_requested": (
        "Baton reads and analyses data; it does not take actions such as sending messages or changing records. "
        "Ask a question about the data instead.",
        "Baton 只读取和分析数据，不执行发送消息、修改记录之类的操作。请改问一个关于数据的问题。",
    ),
    "personal_data": (
        "Baton answers with figures of the metric catalog; it does not list people's personal data such as "
        '"{said}". Ask about a metric instead.',
        "Baton 只回答指标目录中的统计数字，不提供个人信息（如“{said}”）。请改问某个指标。",
    ),
    "forecast": (
        "Baton reports what the data shows up to its latest complete day; it does not forecast. Ask about a "
        "period that has data, for example the trend of a metric over the last few months.",
        "Baton 只报告截至最近完整日的数据，不做预测。请询问已有数据的时间段，例如某个指标近几个月的走势。",
    ),
    "advice_requested": (
        "Baton reports what the data shows; it does not decide budgets or what to do. Ask what the data says, "
        "for example how a metric changed.",
        "Baton 只报告数据显示了什么，不替您做预算或经营决策。请询问数据本身，例如某个指标的变化。",
    ),
    "breakdown_by_what": (
        "Break it down by what? Name a dimension (e.g. {dimensions}) or a time unit.",
        "按什么拆分？请说明一个维度（如{dimensions}）或时间单位。",
    ),
    "approximate_count": (
        "{said!r} is a rough number (one or the other), so Baton will not pick one. Say the exact number.",
        "“{said}”是约数，Baton 不会替您选定。请说出确切的数字。",
    ),
    "no_such_breakdown": (
        "The catalog has no dimension {word!r} to break {metric} down by, so Baton will not guess one. {metric} can be "
        "broken down by: {allowed}.",
        "指标目录中没有“{word}”这个维度，无法按它拆分{metric}，Baton 不会猜测。{metric}可用的拆分维度：{allowed}。",
    ),
    "code_in_lower_case": (
        "Does {word!r} mean the {dimension} {member}? Baton reads it so only when it is written {member}: write it "
        "so, or rephrase the question without it.",
        "“{word}”是指{dimension}“{member}”吗？只有写成“{member}”时 Baton 才这样理解：请照此书写，或换个说法。",
    ),
    "no_ratio_over": (
        "The catalog defines no ratio of {metric} over {unit}, so Baton will not divide one by the other itself. "
        "Ask for {metric} and {unit} side by side instead.",
        "指标目录中没有{metric}与{unit}之比的指标，Baton 不会自行相除。可以改为同时查看{metric}和{unit}。",
    ),
    "not_understood": (
        "Baton did not understand {words} in the question, so it will not guess. Please rephrase it with the "
        "catalog's metrics, dimensions and members, or ask without it.",
        "Baton 没有理解问题中的“{words}”，不会猜测其含义。请用指标目录中的指标、维度和成员重新表述，或去掉这部分再问。",
    ),
    "ranking_too_long": (
        "A ranking lists at most {most} rows, and {n} were asked for: ask for fewer, or for the whole breakdown "
        "ranked.",
        "排名最多列出 {most} 行，问题要的是 {n} 行：请少要一些，或直接问整体排名。",
    ),
    "too_many_periods": (
        "The question names more periods than Baton can compare at once. Ask about one period, or one period "
        "against another.",
        "问题中的时间段太多，无法同时比较。请只问一个时间段，或一个时间段与另一个时间段对比。",
    ),
    "which_weekday": (
        "{text!r} can mean {recent} (this week) or {earlier} (last week). Which day?",
        "“{text}”可以指 {recent}（本周）或 {earlier}（上周），请问是哪一天？",
    ),
    "which_date_order": (
        "{text!r} can be read month first or day first. Which date do you mean (e.g. 2025-06-05)?",
        "“{text}”既可以按月/日也可以按日/月理解，请用 2025-06-05 这样的格式说明是哪一天。",
    ),
    "grain_with_comparison": (
        "Baton cannot yet show a series by {grain} and compare it with another period in one answer; ask for "
        "the series, or for the comparison.",
        "暂不支持在一个回答中同时按{grain}展示序列并与另一期间对比；请分别询问序列或对比。",
    ),
    "series_before_not_whole": (
        "Each {grain} can be compared with the {grain} before it only over whole {grain}s, and {period!r} holds "
        "part of one. Which whole {grain}s should the series cover?",
        "每{grain}与上一{grain}对比（环比）只能按完整的{grain}计算，而“{period}”包含不完整的{grain}。请说明序列覆盖哪些完整的{grain}。",
    ),
    "series_before_whole_inside": (
        " For example the whole {grain}s inside it: {start} to {end}.",
        "例如其中完整的{grain}：{start} 至 {end}。",
    ),
    "week_earlier_too_long": (
        "'The same days a week earlier' fits a period of up to a week, not {period!r}. Which period should it "
        "be compared with?",
        "“上周同期”只适用于一周以内的期间，不适用于“{period}”。要和哪个期间对比？",
    ),
    "window_mismatch": (
        "The comparison period the question names is not as long as {period!r}. Which two periods should be compared?",
        "问题中的对比期与“{period}”长度不同。要对比哪两个期间？",
    ),
    "previous_or_named": (
        "{said!r} after {period!r} can mean the period before it ({before}) or {said} as of today ({named}). "
        "Which one should {period!r} be compared with?",
        "“{period}”之后的“{said}”可以指它的前一期（{before}），也可以指今天算起的{said}（{named}）。要和哪一个比？",
    ),
    "week_of_the_year_or_month": (
        "Is {week!r} week {n} of the year, or of the month in {other!r}? Please say the month or the year with it.",
        "“{week}”是全年的第 {n} 周，还是“{other}”那个月的第 {n} 周？请在它前面写明月份或年份。",
    ),
    "which_year_of": (
        "{other!r} is in {year}; is {period!r} in {year} too, or the latest {period} ({latest})? Please say its year.",
        "“{other}”是 {year} 年；“{period}”也是 {year} 年，还是最近的{period}（{latest} 年）？请说明年份。",
    ),
    "periods_overlap": (
        "{current!r} ({current_span}) and {previous!r} ({previous_span}) share days, so one cannot be compared "
        "with the other. Which two separate periods should be compared?",
        "“{current}”（{current_span}）和“{previous}”（{previous_span}）有重叠的日期，无法相互对比。请给出两个不重叠的期间。",
    ),
    "periods_differ": (
        "{current!r} and {previous!r} differ in length, so their totals are not comparable. Which periods of "
        "the same length should be compared?",
        "“{current}”和“{previous}”长度不同，合计值不可比。请给出两个长度相同的期间。",
    ),
    "this_period_or_that": (
        '"{said}" beside {parent}: that period a year earlier ({same}), or the current one a year back ({current})? '
        'Say "the same period last year" for the first, or name the dates.',
        "“{said}”和{parent}并列：是指后者的去年同期（{same}），还是当前这一期的去年（{current}）？前者请说“去年同期”，或直接说日期。",
    ),
    "change_from_a_point_on": (
        '"{said}" runs from a point to the latest day: a change over it against what? Name the two periods (e.g. '
        '"June vs April"), or ask for the period\'s figures by month.',
        "“{said}”是从某一时点到最新一天的时段：它的变化和什么比？请说出要比较的两个时段（如“6月和4月比”），或按月看这段时间的数值。",
    ),
    "cut_period_against_another": (
        "{cut!r} stops partway, while {others} is whole: compare the same days of {others}, or the whole of "
        "it? Say which, e.g. with both periods' dates.",
        "“{cut}”只到中途，而“{others}”是完整的：是对比{others}的相同天数，还是整个{others}？请说明，例如写出两个期间的日期。",
    ),
    "all_time_beside_a_period": (
        "{every!r} (all time) and {other!r} both name the period asked: which one? Ask for one of them.",
        "“{every}”（全部时间）和“{other}”都指定了时间范围：问的是哪一个？请只保留其中一个。",
    ),
    "until_with_no_start": (
        '"{said}" gives an end but no start: from when? Say the whole range (e.g. "from January 1 to March 31", '
        '"this year to the end of March"), or ask for the period itself.',
        "“{said}”只给了结束时间，没有开始时间：从什么时候算起？请说出完整的时间范围（如“今年1月1日到3月31日”“今年到3月底”），或只问该时段本身。",
    ),
    "range_change": (
        "The change over {period!r}: from its first to its last period, or of the whole range against the "
        "period before it?",
        "“{period}”的变化：是从第一个期间到最后一个期间的变化，还是整个区间与之前同长度期间的对比？",
    ),
    "other_than_what": (
        "'Other' than which members? Name the members to leave out (e.g. excluding one of them), or the "
        "members to show.",
        "“其他”是指哪些成员以外？请说明要排除的成员，或要查看的成员。",
    ),
    "measure_word": (
        '"{word}" asks for money, but {metrics} is not an amount: which metric do you mean? Ask for a catalog '
        "metric that is an amount (or have one defined).",
        "“{word}”问的是金额，但{metrics}不是金额：您指的是哪个指标？请改问目录中的金额类指标（或先在目录中定义它）。",
    ),
    "metric_as_a_word": (
        'In "{words}" a metric is a condition, part of another measure or said of another metric (a count of rows '
        "that meet a condition, an amount per row, a metric of one group of users), which the catalog does not "
        "define; Baton will not answer with the metrics side by side. Ask for a catalog metric (or a member, such as {ex_a}), or "
        "have the metric defined.",
        "“{words}”中的指标是筛选条件、另一个度量的一部分或另一个指标的修饰语（满足某条件的记录数、每条记录的金额、"
        "某类用户的某个指标），指标目录没有这样的定义；Baton 不会把几个指标并列作答。请改问目录中的指标（或成员，如{ex_a}），或先在目录中定义它。",
    ),
    "threshold_share": (
        "'{bound}' bounds a share of {metric}: say it as a percentage of the whole, of the parts of a breakdown (e.g. '{ex_dims} with more than half of {metric}').",
        "“{bound}”限定的是{metric}的占比：请用占整体的百分比来说，并说明按什么拆分（例如“{metric}占比超过一半的{ex_dims}”）。",
    ),
    "threshold_change_shape": (
        "'{bound}' bounds {metric}'s change. Baton keeps the groups of a breakdown whose change against another period passes a bound (e.g. '{ex_dims} whose {metric} grew more than 5% vs the previous month'); name the groups and the period to compare with, or ask for each group's change.",
        "“{bound}”限定的是{metric}的变化。Baton 可以保留变化超过某个界限的分组（例如“{metric}环比增长超过5%的{ex_dims}”）；请说明按什么分组、和哪个时期比，或直接看各组的变化。",
    ),
    "threshold_signed_move": (
        "'{bound}' says a move of {metric} with a minus sign: a rise by less than nothing, or a fall? Bound the "
        "growth rate itself (e.g. 'growth rate below -5%') or say the fall (e.g. 'fell more than 5%').",
        "“{bound}”给{metric}的涨跌加了负号：是涨幅为负，还是下降？请直接限定增长率（例如“环比增长率低于-5%”），"
        "或说明下降（例如“环比下降超过5%”）。",
    ),
    "threshold_change_under": (
        "'{bound}' is an upper bound on a move of {metric}: should groups that moved the other way count too? "
        "Ask for each group's change (the table shows every sign), or bound the growth rate itself (e.g. 'growth "
        "rate below 5%').",
        "“{bound}”是{metric}涨跌幅度的上限：反方向变动的分组算不算？请查看各组的变化（表中有每组的正负），"
        "或直接限定增长率（例如“增长率低于5%”）。",
    ),
    "threshold_change_of_rate": (
        "'{bound}' on the change of {metric}, a rate: in percentage points, or relative to its value? Say "
        "'points' (e.g. 'up more than 1 percentage point') and Baton keeps those groups.",
        "“{bound}”是{metric}（一个比率）的变化：是百分点，还是相对变化？请说“个百分点”（例如“上升超过1个百分点”），"
        "Baton 就会保留这些分组。",
    ),
    "two_thresholds": (
        'The question sets two bounds at once ({words}); Baton keeps groups by one bound at a time. Ask with one, e.g. "{ex_dims} with {ex_metric} above 1 million".',
        "问题同时给了两个阈值（{words}）；Baton 一次只按一个阈值筛选分组。请只保留一个，例如“{ex_metric}超过100万的{ex_dims}”。",
    ),
    "threshold_needs_groups": (
        '"{bound}" keeps the groups whose {metric} passes it, so it needs groups to keep: say which, e.g. "{ex_dims} with {metric} {bound}". For one total, ask for its value.',
        "“{bound}”是筛选分组的条件：请说明按什么分组，例如“{metric}{bound}的{ex_dims}”。如果只是想知道总数是否达到，请直接问它的值。",
    ),
    "threshold_of_what": (
        '"{bound}" is said of {term}, which is not a metric; a bound keeps the groups whose metric passes it, e.g. "{ex_dims} with {ex_metric} above 5 million".',
        "“{bound}”说的是{term}，它不是指标；阈值只用来筛选指标达标的分组，例如“{ex_metric}超过500万的{ex_dims}”。",
    ),
    "threshold_percent": (
        '{metric} is a rate: say its bound as a percentage ("above 5%"), so "{bound}" is not read as something else.',
        "{metric}是比率：请用百分数写阈值（如“超过5%”），以免把“{bound}”读成别的意思。",
    ),
    "threshold_not_percent": (
        '{metric} is not a rate, so "{bound}" cannot be a percentage of it; to compare groups\' shares, ask for '
        "the share by group.",
        "{metric}不是比率，“{bound}”不能是它的百分数；若要比较各组的占比，请直接问按组的占比。",
    ),
    "threshold_not_money": (
        '{metric} is not an amount of money, so "{bound}" cannot bound it. Say the bound in its own unit, or ask '
        "for a metric of money.",
        "{metric}不是金额，“{bound}”不能作为它的阈值。请用它自己的单位表述阈值，或改问金额类指标。",
    ),
    "threshold_of_which_groups": (
        'Is "{bound}" said of each {first}\'s total, or of each {groups} combination? Baton bounds one set of '
        'groups: first ask for each {first} that passes it, then break those down; or say "combinations".',
        "“{bound}”是指每个{first_zh}的合计，还是每个{groups_zh}组合？Baton 只按一组分组筛选：请先问达到阈值的{first_zh}，"
        "再拆开看；或说明是“组合”。",
    ),
    "threshold_beside": (
        'A bound on the groups ("{bound}") is not combined with a ranking, a share, a comparison, a gap, several '
        "metrics or a breakdown and a series at once yet: ask for the groups that pass it first, then the rest on "
        'its own. To rank or list only the groups that pass a bound on another metric, say it first or with "among", '
        'e.g. "top 3 by refund rate among those with at least 5,000 orders".',
        "按阈值筛选分组（“{bound}”）暂不能与排名、占比、对比、差值、多个指标或同时按维度和时间拆分一起使用："
        "请先问达到阈值的分组，再单独问其余部分。若只想在另一指标达到阈值的分组中排名或列出，请先说阈值，"
        "例如“订单量超过5000的品类中退款率最高的3个”。",
    ),
    "unit_currency": (
        "{metric} is counted in {currency}, and the question asks it in another currency: Baton does not convert.",
        "{metric}以 {currency} 计，而问题要求用另一种货币表示：Baton 不做换算。",
    ),
    "unit_not_money": (
        "{metric} is no amount of money: it cannot be given in a currency.",
        "{metric}不是金额，无法用货币表示。",
    ),
    "threshold_currency": (
        '{metric} is counted in {currency}, and "{bound}" names another currency: Baton does not convert. Say the '
        "bound in {currency}.",
        "{metric}以 {currency} 计，而“{bound}”是另一种货币：Baton 不做换算。请用 {currency} 表述阈值。",
    ),
    "two_comparisons": (
        'The question asks for two comparisons at once ({words}). Ask one at a time, e.g. "{ex_metric} last month YoY", then "and MoM?".',
        "问题同时要求两种对比（{words}）。请一次问一种，例如先问“上个月{ex_metric}同比”，再问“环比呢”。",
    ),
    "rank_metric": (
        'Rank by which metric: {metrics}? Say it with the ranking, e.g. "top 3 {ex_dims} by {ex_metric}".',
        "按哪个指标排名：{metrics}？请把排名和指标写在一起，例如“{ex_metric}最高的3个{ex_dims}”。",
    ),
    "against_the_whole": (
        "'{words}' sets a value against the whole, which Baton does not compute in one question: ask for each "
        "group's value, then for the whole's.",
        "“{words}”是与整体比较，Baton 还不能在一个问题里计算：请先问各组的值，再问整体的值。",
    ),
    "against_the_average": (
        "'{words}' sets a value against the average of the groups, which Baton does not compute yet: ask for "
        "every group's value (the answer names the highest and the lowest), or for the whole's value.",
        "“{words}”是与各组平均值比较，Baton 还不能计算：请改问各组的值（回答会指出最高和最低），或问整体的值。",
    ),
    "place_by_change": (
        "Place {place} of a ranking by a change is not stated yet: ask for the top N by the change (e.g. 'the 2 {ex_dims} that grew fastest'), whose table lists each one in order.",
        "按变化排的第 {place} 名暂不支持：请问按变化的前 N 个（例如“环比增长最快的2个{ex_dims}”），结果表会按顺序列出。",
    ),
    "all_together_or_each": (
        "{said!r}: all of them together as one figure, or each one listed? Say e.g. '{said} in total' or "
        "'by …' / 'each …'.",
        "“{said}”：是全部加起来的一个数，还是每个分别列出？请说“{said}合计”，或“各…”/“按…”。",
    ),
    "check_sum_or_each": (
        "Is the bound on all of them together, or on each one? Say e.g. 'all {ex_dims} together' or 'does every {ex_dim} …'.",
        "阈值是指全部加起来，还是每一个都要达到？请说明，例如“所有{ex_dims}加起来超过…吗”或“每个{ex_dim}都超过…吗”。",
    ),
    "ranked_none": (
        "{said!r} asks for none of the groups: how many (or which place) did you mean?",
        "“{said}”没有选出任何一组：请说明要前几个（或第几名）。",
    ),
    "excluded_then_named": (
        "“{excluded}, {named}” reads two ways: both left out, or {named} only. Please say which — e.g. "
        "“excluding {excluded} and {named}” or “{named} only”.",
        "“{excluded}，{named}”有两种读法：两者都不含，或只看{named}。请说明是哪一种，例如“不含{excluded}和{named}”或“只看{named}”。",
    ),
    "member_beside_the_whole": (
        "A member beside the whole (overall, all of them) takes one figure filtered and one not: ask for the "
        "member's and then for the whole's, one at a time.",
        "成员与整体（全国、整体、总计）对比或并列，需要一个筛选过的数和一个未筛选的数：请先问该成员的，再问整体的。",
    ),
    "kept_and_excluded": (
        "The question keeps {kept} and excludes {excluded}, two members of {dimension}: keeping {kept} already leaves "
        '{excluded} out. Did you mean the gap between them ("{kept} minus {excluded}") or {kept} alone?',
        "同一{dimension_zh}里既选了{kept_zh}又排除了{excluded_zh}：排除对已选的成员不起作用。"
        "是想问两者之差（“{kept_zh}减去{excluded_zh}”），还是只看{kept_zh}？",
    ),
    "gap_of_two_metrics": (
        "The question asks for a difference with two metrics, {first} and {second}: the gap between the "
        "two metrics themselves, or how each changed against the period before? Baton does not subtract one "
        "metric from another; ask for both values, or for each one's change against a period you name.",
        "问题里有两个指标（{first_zh}、{second_zh}）和“差”：是两个指标之间的差，还是各自和上一期相比的变化？"
        "Baton 不做指标之间的相减；请分别问两个指标的数值，或说明和哪一期比，问各自的变化。",
    ),
    "everything_excluded": (
        "The question takes out every {dimension}, which leaves nothing to count. Which ones did you mean to keep?",
        "问题把所有{dimension_zh}都排除了，剩下的数据为空。请问要保留哪些？",
    ),
    "count_of_a_rate": (
        '"{written}" counts something, but {metric} is a rate, not a count. Ask for {metric} by its name, or for '
        "the count you mean by its catalog name.",
        "“{written}”是在数数量，但{metric_zh}是比率，不是计数。请直接问{metric_zh}，或用指标目录里的名字问要数的指标。",
    ),
    "average_across_groups": (
        "An average of a rate across groups: the overall rate of all of them together, or the plain mean of each "
        "group's rate? They differ, and Baton will not guess. Ask for the rate without the groups (overall), or by "
        "the groups (each one's).",
        "跨分组求比率的平均：是所有分组合在一起的整体比率，还是各分组比率的简单平均？两者不同，Baton 不会猜测。"
        "请直接问整体比率（不拆分），或按分组看各自的比率。",
    ),
    "ratio_of_two": (
        "A ratio is computed between two members of one dimension (\"{ex_a}'s {ex_metric} is how many times {ex_b}'s\") or two periods' totals (\"June's {ex_metric} is how many times May's\"); a ratio of two metrics, of a change or per group is not built yet: ask for the values themselves.",
        "倍数和比值只在同一维度的两个成员之间（“{ex_a}的{ex_metric}是{ex_b}的几倍”）或两个时间段的总数之间（“6月{ex_metric}是5月的几倍”）计算；还不能计算两个指标之比、变化的倍数或各组的倍数：请直接问数值。",
    ),
    "gap_per_group": (
        "The gap (or ratio) between two members is computed for one period with no other breakdown; by month or "
        'inside each group it is not built yet. Ask for one period (e.g. "June"), or for the values side by side '
        '("respectively").',
        "两个成员之差（或倍数）目前只在一个时间段、不再拆分时计算；按月或在每个分组内分别计算还不支持。"
        "请只问一个时间段（如“6月”），或请分别列出数值。",
    ),
    "members_change_or_gap": (
        "Two members are set against each other and a change is asked: the gap between the two, or how each "
        'changed against an earlier period? Say "how much higher/lower" for the gap, or name the period to compare with.',
        "问题把两个成员放在一起比较，又问变化：是两者之差，还是各自与之前某个时期相比的变化？问差值请说“高/低多少”，"
        "问变化请说明对比的时期。",
    ),
    "move_without_base": (
        "A change is asked, but not against which period, and this question does not build one: name the period "
        'to compare with (e.g. "vs May", "month over month"), or ask for the values on their own.',
        "问题问了变化，但没有说明与哪个时期相比，这样的问法也无法推断：请说明对比的时期（如“和5月比”“环比”），或只问数值本身。",
    ),
    "gap_of_two": (
        "A gap is between two members: name the two whose difference you want.",
        "差值只在两个成员之间计算：请说明要比较哪两个成员。",
    ),
    "sum_against_member": (
        "Setting the sum of some members against another member is not built yet: ask for each member's value "
        '("respectively"), or for the sum on its own.',
        "还不能把几个成员的合计与另一个成员对比：请问各成员分别的数值，或单独问合计。",
    ),
    "each_then_which_pass": (
        "The question asks for each group's value and then \"{said}\": two answers. Ask for each group's "
        'value, or keep only those that pass (e.g. "…, only those above 5M").',
        "问题先问了各分组的数值，又问“{said}”：这是两个回答。请只问各分组的数值，或只看满足条件的分组（例如“……，只看超过500万的”）。",
    ),
    "total_then_which": (
        'The question asks for a total and then which group ranks first: ask one at a time, e.g. "{metric} last '
        'month" and then "which {dimension} had the highest {metric} last month", or ask for each group\'s value '
        '("{metric} by {dimension} last month, and which was highest").',
        "问题先问了总数，又问了哪个分组排第一：请分开问，例如先问“上个月{metric}多少”，再问“上个月哪个{dimension}{metric}最高”；"
        "或问各分组的数值（“上个月各{dimension}{metric}多少，哪个最高”）。",
    ),
    "average_in_a_later_clause": (
        '"{words}" is said in a later clause than {metrics}, while one question computes every metric alike: '
        "ask for the totals and for the average one at a time.",
        "“{words}”说在{metrics}之后的另一句里，而一个问题里所有指标的算法相同：请分开问合计和平均值。",
    ),
    "edge_of_month_alone": (
        '"{said}" on its own could be one day ({day}) or the last (or first) days of the month: say the dates you '
        'mean, e.g. "{day}".',
        "“{said}”单独使用含义不明确：可能是一天（{day}），也可能是月末（或月初）的几天。请说明具体日期，例如“{day}”。",
    ),
    "each_and_total": (
        'Each one and their total at once: ask for each ("respectively") and for the total ("in total") one at a time.',
        "同时问了分别和合计：请分开问，先问分别（“分别是多少”），再问合计（“合计多少”）。",
    ),
    "each_then_members": (
        "The question asks for every {dimension} and then about {members} in particular; answering the second "
        'part would drop the other groups\' rows. Ask one at a time: "{metric} by {dimension}", then the '
        "question about {members}.",
        "问题先问了每个{dimension_zh}，又单独问了{members_zh}；只回答后一部分会丢掉其他分组。请分开问：先问“各{dimension_zh}的"
        "{metric_zh}”，再单独问{members_zh}。",
    ),
    "total_of_ranked": (
        "The total of the {ends} {n} is not added up yet: ask for the {ends} {n} (each is listed), or name them "
        "and ask for their total.",
        "{ends_zh} {n} 名的合计还不能直接计算：请问{ends_zh} {n} 名（逐个列出），或列出这些成员再问合计。",
    ),
    "both_members_overlap": (
        '"{said}": those in {first} and in {second} at once? Baton counts each of them, or both together, '
        "but not the overlap of the two. Ask for each (by {first} and {second}) or for the two together.",
        "“{said}”：是同时属于{first}和{second}的吗？Baton 可以分别统计，或合起来统计，但不能统计两者的交集。"
        "请改问分别的数值，或两者合计。",
    ),
    "member_of_one_metric": (
        '"{member}" is said of {metric} only, and one question filters every metric alike: should {first} '
        "be of {member} too? Ask for them one at a time, or say that all are of {member}.",
        "“{member}”只说的是{metric}，而一个问题的筛选对所有指标相同：{first}也只看{member}吗？请分开问，或说明都只看{member}。",
    ),
    "rank_by_change": (
        'Baton ranks by a change when the question says which way and the largest one: "which {ex_dim}\'s {ex_metric} fell the most", "top 3 {ex_dims} by growth rate". Say which (the largest fall or the largest rise), or ask for the change of every member (it shows the largest rise and fall).',
        "Baton 按变化排名时，需要问题说明方向并问最大的一个，如“哪个{ex_dim}{ex_metric}环比下降最多”“增幅最大的3个{ex_dims}”。请说明是降得最多还是涨得最多，或改问各成员的变化（会指出涨幅和跌幅最大的成员）。",
    ),
    "rank_value_or_change": (
        'Best or worst by the value in the period, or by its change against the other period? Ask e.g. "which {ex_dim} had the highest {ex_metric} last month" or "which {ex_dim}\'s {ex_metric} fell the most last month".',
        "“最好/最差”是按本期的值，还是按相对对比期的变化？可问如“上个月{ex_metric}最高的{ex_dim}”或“哪个{ex_dim}上个月{ex_metric}环比下降最多”。",
    ),
    "same_period_compared": (
        "{periods} are read as the same dates, so there is nothing to compare. Which period should the first be "
        "compared with (e.g. 'June 2025', 'the same month last year')?",
        "“{periods}”读出来是同一段日期，无法对比。请问要和哪个时间段比（例如“2025年6月”、“去年同期”）？",
    ),
    "why_one_metric": (
        "An analysis explains one metric at a time ({metrics}): ask why for each of them in turn.",
        "一次分析只解释一个指标（{metrics}）：请分别问每个指标为什么变化。",
    ),
    "why_day_against_a_day": (
        "One day against one other day ({day} vs {other}) is a single observation on each side, which no test "
        "can weigh. Ask why {day} moved against its usual level (leave out the other day), or ask for the two "
        "days' values with `baton ask`.",
        "一天对另一天（{day} 对 {other}）两边各只有一个观测值，无法检验。请问 {day} 相对其常规水平为什么变化（去掉另一天），"
        "或用 `baton ask` 查看这两天的数值。",
    ),
    "why_of_each_group": (
        "An analysis explains one total, and each {dims} is among its drivers: ask why the total moved, or name one {dims} in the question — each one's move is not checked alone.",
        "一次分析解释一个总数，各{dims}都在它的驱动因素里：请问总数为什么变化，或在问题里说出其中一个{dims}——不会逐个核对每个{dims}的变化。",
    ),
    "why_of_a_ranked_group": (
        "Which {dims} should be analysed? Name it in the question: an analysis explains one scope, not the group a ranking picks.",
        "要分析哪个{dims}？请在问题里直接说出它：分析解释一个明确的范围，而不是排名选出的那一组。",
    ),
    "place_past_the_members": (
        "The question asks for place {place}, but keeps only {count} members of the dimension it ranks, so there "
        "is no such row. Ask for that place among all of them (without naming the members), or name the member.",
        "问题要第 {place} 名，但只保留了所排名维度的 {count} 个成员，没有这一名。请在全部成员中问这一名（不指定成员），或直接说出成员。",
    ),
    "ranking_of_one_period": (
        "The period read is {period}: a single {grain}, so there is nothing to rank it against. To see where a {grain} stands in a longer period, ask for that period's ranking (e.g. '{ex_metric} by {grain} this year, lowest first'): every {grain} is listed in order.",
        "读到的时间是{period}：只有一个{grain}，没有可以比较排名的对象。想知道它在更长时间里排第几，请问那段时间的排名（例如“今年各{grain}{ex_metric}从低到高”），Baton 会把每个{grain}按顺序列出。",
    ),
    "place_of_other_kind": (
        "The question asks where '{member}' ranks, but ranks groups of another kind than '{member}': its place "
        "among its own kind, or the ranking of the groups inside it?",
        "问题问“{member}”排第几，但排序的是另一类分组：是问它在同类中排第几，还是看它内部各分组的排名？",
    ),
    "ranking_of_one": (
        "The question ranks a single member. Should Baton rank every member (and show where it stands), or show "
        "that member alone?",
        "问题只对一个成员排名。是要对所有成员排名（并看它排第几），还是只看这一个成员？",
    ),
    "why_between_members": (
        "Baton explains why a metric changed over time, not why two members differ. Ask why one of them changed, "
        "or compare them.",
        "Baton 解释指标随时间的变化原因，不解释两个成员之间为何不同。请问其中一个成员为什么变化，或直接对比它们。",
    ),
    "two_rankings": (
        "The question asks for two rankings at once (e.g. the top 3 and the bottom 3). Ask for one, then the other.",
        "问题同时要求两个排名（例如前三和后三）。请一次只问一个排名。",
    ),
    "members_of_two_dimensions": (
        '"{first}" and "{second}" are members of two different dimensions, joined as a list ("{phrase}"): both at '
        "once ({second} within {first}), either one, or each on its own? Baton will not guess. Ask one at a time, or "
        'say both at once, e.g. "{first}\'s {second}".',
        "“{first}”和“{second}”属于两个不同的维度，却像列表一样连在一起（“{phrase}”）：是同时满足（{first}中的{second}）、"
        "满足其一，还是分别看各自的值？Baton 不会猜测。请分开问，或明确说“{first}的{second}”。",
    ),
    "exclusion_across_dimensions": (
        '"{first}" and "{second}" stand side by side after an exclusion ("{phrase}") but belong to two '
        "dimensions: take both out, take out only {first} within {second}, or take out {first} and keep "
        '{second}? Baton will not guess. Join what is taken out with "and", e.g. "excluding {first} and {second}".',
        "排除词后的“{first}”和“{second}”紧挨在一起（“{phrase}”），却属于两个不同的维度：是两个都排除、只排除"
        "{second}中的{first}，还是排除{first}、只看{second}？Baton 不会猜测。请用“和”连接要排除的成员，"
        "例如“不含{first}和{second}”。",
    ),
    "count_of_an_amount": (
        '"{words}" asks how many, but {metric} is an amount of money, not a count. Ask for the count by its name ({ex_count} …), or for the amount without the counting words.',
        "“{words}”问的是数量，但{metric}是金额，不是计数。请直接问要数的指标（{ex_count}…），或去掉计数的说法问金额。",
    ),
    "period_left_out_unplaced": (
        'Baton cannot leave "{said}" out of "{whole}": it is not a part at its start or its end. Ask for the '
        "period you mean, by its dates if need be.",
        "Baton 无法从“{whole}”中去掉“{said}”：它不是“{whole}”开头或结尾的一段。请直接说要看的期间，必要时写出日期。",
    ),
    "year_before_last_not_before": (
        "{period} is not after {year}, the year before last: it has no same period there. Name the period to "
        "compare with (e.g. a year said in full).",
        "“{period}”不晚于前年（{year}年），前年没有它的同期。请直接说要对比的期间（例如写出年份）。",
    ),
    "period_and_member_left_out": (
        '"{left}" is left out of "{whole}" together with a member: that member in "{left}" only, or "{left}" and the '
        "member each left out? Baton will not guess: ask with the member's exclusion in a clause of its own "
        '(e.g. "{whole} excluding {left}, excluding <member>").',
        "“{left}”和一个成员一起从“{whole}”中去掉：是只去掉“{left}”里的这个成员，还是“{left}”和这个成员都去掉？Baton 不会猜测："
        "请把成员的排除单独成句（例如“{whole}不含{left}，不含某成员”）。",
    ),
    "period_left_out_of_the_middle": (
        'Leaving "{left}" out of "{whole}" leaves two runs of days, and Baton answers one period at a time. Ask for each run of days, or for "{whole}" whole.',
        "从“{whole}”中去掉“{left}”后剩下两段不相连的日期，Baton 一次只回答一个连续的期间。请分别问每一段，或问整个“{whole}”。",
    ),
    "one_member_said_twice": (
        '"{first}" and "{second}" are the same {dimension} in the catalog ({member}): there is one figure for both, not two. Ask about {member} once, or name two different values.',
        "“{first}”和“{second}”在指标目录中是同一个{dimension}（{member}），只有一个数，分不出两个。请只问{member}，或换成两个不同的成员。",
    ),
    "count_of_an_average": (
        '"{words}" asks how many, but {metric} is an average or a rate, not a count. Ask for the count by its name ({ex_count} …), or for the average without the counting words.',
        "“{words}”问的是数量，但{metric}是平均值或比率，不是计数。请直接问要数的指标（{ex_count}…），或去掉计数的说法问平均值。",
    ),
    "adjacent_members": (
        '"{phrase}" names two members side by side: one of them, or both? Say "… and …" for both, or name the one '
        "you mean.",
        "“{phrase}”并排写了两个成员：是其中一个，还是两个都要？两个都要请写“…和…”，否则请写出所指的那一个。",
    ),
    "rank_within_or_across": (
        'Rank the {keys} combinations as a whole, or within each group (the top ones in each)? Say which: "the top 3 {keys} combinations", or "the top 2 {ex_dim2} in each {ex_dim}" (one group marked with each/per, a plain top N).',
        "是对“{keys}”的组合整体排名，还是分组后在每组内分别排名（每组里最高的）？请说明：如“最高的3个“{keys}”组合”，或“每个{ex_dim}最高的2个{ex_dim2}”（用“每个/各”标出分组，只取前 N 名，不带对比或占比）。",
    ),
    "better_unknown": (
        "The catalog does not say whether a higher or a lower value of this metric is better, so 'best' and "
        "'worst' cannot be ranked. Ask for the highest or the lowest instead.",
        "指标目录没有说明这个指标是越高越好还是越低越好，无法按“最好/最差”排名。请改问最高或最低。",
    ),
    "event_not_dated": (
        "The catalog's calendar gives no dates for {name!r} in {year}, so Baton will not guess them. Ask with "
        "its first and last day, or add that year to the event in the catalog.",
        "指标目录的日历没有给出{year}年“{name}”的日期，Baton 不会猜测。请直接给出起止日期，或在目录中为该活动补上这一年。",
    ),
    "moving_event_last_year": (
        "Last year's {name} was {held}, not the same dates a year back ({same_days}). Compare with which? Ask "
        '"during {name} this year vs during {name} last year", or name both periods\' dates.',
        "去年的{name}是 {held}，而不是一年前的同样日期（{same_days}）。要和哪一段比？请改问如“今年{name}期间和去年{name}期间比”，"
        "或直接给出两段日期。",
    ),
    "which_event_span": (
        "{name!r} can mean its day ({day}) or the whole event ({start} to {end}). Which one?",
        "“{name}”可以指当天（{day}）或整个活动期间（{start} 至 {end}），请问是哪一个？",
    ),
    "two_periods": (
        'The question names two periods. Should Baton compare them (e.g. "June vs May"), or cover the whole '
        'range (e.g. "from May to June")?',
        "问题中有两个时间段。是要对比它们（例如“6月对比5月”），还是看整个区间（例如“5月到6月”）？",
    ),
    "per_member": (
        "{phrase!r} asks a metric per member, a ratio Baton does not guess. Ask for a per-buyer or "
        "per-order metric of the catalog filtered to the member, or for the member's total.",
        "“{phrase}”问的是按成员人均（或每个）的值，Baton 不会猜测这个比率。请改问指标目录中的人均或单均指标并筛选该成员，"
        "或问该成员的总量。",
    ),
    "members_paired_with_periods": (
        "{phrase!r} pairs each member with its own period. Baton compares the same members across "
        "two periods, or members within one period: ask one of those, or the two values one at a time.",
        "“{phrase}”把每个成员和各自的期间配对。Baton 只比较同一批成员的两个期间，或同一期间内的成员："
        "请改问其中一种，或分两次问这两个值。",
    ),
    "kept_by_change": (
        "{phrase!r} keeps only the groups that moved one way, a filter on the change that Baton does not "
        "apply yet. Ask for every group's change instead: the table shows each group's change and sign.",
        "“{phrase}”要求只保留朝某个方向变化的组，Baton 暂不支持按变化本身筛选。请改问各组的变化：结果表会列出每组的变化及其正负。",
    ),
    "ranking_inside_ranking": (
        "{phrase!r} asks a ranking among the groups another ranking picked; Baton ranks once per question. "
        "Ask for the first ranking, then for the lowest (or highest) of the groups it lists by name.",
        "“{phrase}”是在一个排名选出的组里再排名；Baton 每个问题只排一次名。请先问第一个排名，再按名称问其中最低（或最高）的一个。",
    ),
    "share_or_value_moved": (
        "The question asks whether something rose or fell beside a share: the value itself, or its share of the "
        'whole? Ask one at a time, e.g. "did app\'s share of GMV grow last month", then "did app\'s GMV grow".',
        "问题在占比旁边问了涨跌：是问数值本身，还是它占整体的比例？请分开问，例如先问“APP的GMV占比上个月涨了吗”，再问“APP的GMV涨了吗”。",
    ),
    "widest_gap": (
        "{said!r} asks for the two groups furthest apart — the highest against the lowest. Baton answers that "
        'when it is said so, e.g. "the gap between the highest and the lowest region by GMV last month".',
        "“{said}”问的是相差最大的两组，即最高与最低之差。请这样问，例如“上个月GMV最高和最低的区域差多少”。",
    ),
    "only_the_base": (
        "The question names only the period it compares with ({period!r}), not the period compared with it. "
        'Please name both, as in "<this period> vs {period}".',
        "问题只说了对比的基准期（“{period}”），没有说拿哪个期间和它比。请把两个期间都说出来，例如“本期比{period}”。",
    ),
    "ranking_of_what": (
        "A ranking needs something to rank: which dimension (e.g. {dimensions}) or time unit?",
        "排名需要一个排序对象：按哪个维度（如{dimensions}）或时间单位排名？",
    ),
    "share_of_what": (
        'A share needs a whole and a part: which members, or which breakdown, should the share be computed for? Name the whole with "among", e.g. "among {ex_a}, the share of each {ex_dim2}".',
        "占比需要明确整体和部分：请说明要计算哪些成员或哪个维度的占比，并用“…中”指明整体，例如“{ex_a}中各{ex_dim2}的占比”。",
    ),
    "contribution_of_a_ratio": (
        "{metric} is a rate or an average: a group's contribution to its change is part its own change and part "
        "the shift of weight between groups, not the group's own change. Ask which {dimension}'s {metric} fell "
        "(or rose) the most, or why {metric} moved (the analysis splits the change into those parts).",
        "{metric_zh}是比率或均值：某一组对它变化的贡献，一部分来自该组自身的变化，一部分来自各组权重的变化，"
        "并不等于该组自身的变化。可改问哪个{dimension_zh}的{metric_zh}下降（或上升）最多，或问{metric_zh}为什么变化"
        "（分析会把变化拆成这两部分）。",
    ),
    "contribution_of_a_distinct_count": (
        "{metric} counts each one once, and one can be in several {dimension} groups: the groups' changes do not "
        "add up to the change of the whole, so none of them is its contribution. Ask which {dimension}'s {metric} "
        "fell (or rose) the most, or for every {dimension}'s change.",
        "{metric_zh}按去重计数，同一对象可以出现在多个{dimension_zh}里：各组的变化加起来不等于整体的变化，"
        "所以哪一组的变化都不是它的贡献。可改问哪个{dimension_zh}的{metric_zh}下降（或上升）最多，或问各{dimension_zh}的变化。",
    ),
    "contribution_unplaced": (
        '"{said}" is read as a contribution to a change only as "which <group> contributed most to the fall (or '
        'the rise) of <metric>": the groups of one breakdown, ranked by their own change. Here it is said otherwise '
        "(of a period, apart from its move, beside another ranking or as a yes/no). Ask which group contributed most to the fall, or for "
        "each group's change.",
        "“{said}”只在“哪个<维度>对<指标>下降（或增长）贡献最大”这样的问法中读作对变化的贡献，即同一维度的各组按自身变化排名；"
        "这里的说法不同（说的是时间段、与变化分开说、与另一个排名同时出现，或是一个是非问题）。可改问哪一组对下降贡献最大，或问各组的变化。",
    ),
    "contribution_value_or_change": (
        '"{said}" beside a comparison: a part of the value in the period, or of its change against the other '
        'period? Ask "which … had the largest share of <metric>" (or "each …\'s share") for the value, or "which … '
        'contributed most to the rise (fall) of <metric>" (or "each …\'s share of the fall") for the change.',
        "“{said}”与对比同时出现：是本期数值中的占比，还是在变化中的占比？问数值请说“哪个…的<指标>占比最大”（或“各…占比”），"
        "问变化请说“哪个…对<指标>增长（下降）贡献最大”（或“各…对下降的贡献占比”）。",
    ),
    "share_of_a_change": (
        '"{said}" asks how much of the whole\'s rise or fall named groups account for. Baton computes that part '
        "for every group of a breakdown, of one rise or one fall, not yet for named groups alone. Ask for each "
        "group's part (\"each channel's share of the GMV decline last month\"), or which group contributed most "
        "to the fall (or the rise).",
        "“{said}”问的是指定的组在整体增长或下降中占多少。Baton 会为一个拆分的每一组计算它在同一次增长或下降中的占比，"
        "暂不支持只算指定的组。可改问各组的占比（如“上个月各渠道对GMV下降的贡献占比”），或问哪一组对下降（或增长）贡献最大。",
    ),
    "contribution_in_percent": (
        "A group's contribution to a change is an amount (its own change); ranked in percent it is a different "
        'question. Ask "which {dimension} contributed most to the fall (rise)", or "which {dimension} fell '
        '(rose) fastest".',
        "某一组对变化的贡献是一个金额或数量（它自身的变化额）；按百分比排名是另一个问题。可问“哪个{dimension_zh}对下降"
        "（增长）贡献最大”，或“哪个{dimension_zh}降幅（增幅）最大”。",
    ),
    "share_of_a_ratio": (
        "A rate or an average cannot be split into shares of a whole; ask for the rate itself, or for a share of an "
        "amount or a count.",
        "比率或均值无法拆分为整体中的占比；请直接询问该比率，或询问金额、数量的占比。",
    ),
    "average_of_a_ratio": (
        "{metrics} is a rate or an average already: its average {per} could be the rate over the whole period or "
        "the mean of its {values}. Ask for the rate itself, or {per} for an amount or a count.",
        "{metrics}本身是比率或均值，“{per_zh}”可指整个期间的比率，也可指{values_zh}的平均值。请直接询问该比率，"
        "或询问金额、数量的{per_zh}值。",
    ),
    "average_with_grain": (
        "Baton reads an average {per} over one period; a series of them ({series}) is not computed yet. Ask for one "
        "period's average, or for the series itself.",
        "{per_zh}按一个时间段计算，暂不支持按{series_zh}的{per_zh}序列；请询问一个时间段的{per_zh}值，或直接看序列。",
    ),
    "average_with_share": (
        "Baton cannot compute an average {per} and a share in one question; a share is the same {per} as in total.",
        "暂不支持在一个问题中同时计算{per_zh}和占比；占比按{per_zh}与按合计相同。",
    ),
    "average_cuts_a_period": (
        "The average {per} counts whole {grain}s, and {period} ({start} to {end}) cuts one at an edge.{whole} "
        "Or ask for the average per day.",
        "{per_zh}按整{grain_zh}计算，而“{period}”（{start}至{end}）首尾不是整{grain_zh}。{whole_zh}也可以询问日均。",
    ),
    "average_whole_part": (" Ask for the whole {grain}s {start} to {end}.", "请改问整{grain_zh}的{start}至{end}，"),
    "average_of_why": (
        "Baton explains a change of a total or of an average per day; ask why the total changed (the {per} average "
        "moves with it over periods of as many {grain}s).",
        "Baton 可以解释合计或日均的变化；请问合计为什么变化（{per_zh}与合计在{grain_zh}数相同的期间同升同降）。",
    ),
    "share_within_or_across": (
        'A share of a named part next to a breakdown can mean the part\'s share inside each group ("in each {ex_dim2}, what share of {ex_metric} came from {ex_a}") or how the part splits across the groups ("{ex_a}\'s {ex_metric} by {ex_dim2}, as shares"). Which one?',
        "按维度拆分时，某一部分的占比可以指它在每组内的占比（“每个{ex_dim2}的{ex_metric}中{ex_a}占多少”），也可以指它在各组之间的分布（“{ex_a}的{ex_metric}中各{ex_dim2}占多少”）。请问是哪一种？",
    ),
    "two_averages": (
        "The question asks for two averages at once ({words}). Ask one at a time.",
        "问题同时要求两种平均（{words}）。请一次问一种。",
    ),
    "why_of_a_share": (
        "Baton finds why a metric changed, not why a share of it changed (a share moves when its part moves and "
        "when the rest of the whole does). Ask why the part's own figure changed, or for the share compared with "
        "the period before.",
        "Baton 分析的是指标变化的原因，而不是占比变化的原因（部分本身或整体中其余部分变化都会让占比变化）。"
        "请改问该部分自身数值变化的原因，或问占比与对比期相比的变化。",
    ),
    "share_with_comparison": (
        "Baton compares one period's shares of one whole with another period's, but not inside each group, over a "
        "series (each month against the one before), ranked by a change, with a bound, as a growth rate (a share "
        "moves in points), or as which parts moved; ask for the parts' shares against the other period.",
        "Baton 可以比较两个期间同一个整体的占比，但暂不支持每组各自的占比对比、按时间序列逐期对比、按变化排名、加阈值、"
        "增速（占比的变化以百分点计）或判断哪些部分变了；请改问各部分占比与对比期相比的变化。",
    ),
    "metric_item": ("{label} ({name})", "{label}（{name}）"),
    "metric_or_member_listed": (
        '"{said}" is a metric and a member: listed beside {other}, is it a second metric, or {other} of {said} '
        'only? Say "{other} of {said}" for the one, or name the metric in full.',
        "“{said}”既是指标也是成员：和“{other}”并列，是另一个指标，还是只看{said}的{other}？"
        "要后者请说“{said}的{other}”，要前者请写出指标全称。",
    ),
    "partial_member": (
        "{word!r} begins the name of {members}; Baton will not guess which is meant. Ask with the full name.",
        "“{word}”是 {members} 名称的开头；Baton 不会猜测指的是哪一个，请使用完整名称。",
    ),
    "dimension_after_member": (
        'Is {dimension!r} after {member!r} a breakdown (each of them), or only what {member} names? Say "by '
        '{dimension}" to break it down, or ask without it.',
        "“{member}”后面的“{dimension}”是要逐个拆分，还是只看{member}？要拆分请说“按{dimension}”，否则去掉它再问。",
    ),
    "member_and_longer": (
        "{word!r} names {member}, and these names begin with it too: {others}. Baton will not guess whether they "
        "are meant as well. Ask with the full names, or list them.",
        "“{word}”是{member}，而这些名称也以它开头：{others}。Baton 不会猜测是否也包括它们。请使用完整名称，或逐一列出。",
    ),
    "share_of_the_year": (
        "{word!r} is of the whole year, but the question's period is {period!r}: a share of another period than "
        "the one asked is not built. Ask for the whole year's parts (e.g. \"each month's share of 2025 GMV\").",
        "“{word}”指全年，而问题的期间是“{period}”：不计算占另一个期间的比例。请按整年来问（例如“2025年各月GMV占全年的比例”）。",
    ),
    "all_time_compared": (
        "{period!r} is every day up to the as-of date, so there is no period before it to compare with. Name the "
        'two periods to compare (e.g. "this year vs last year"), or ask for {period!r} alone.',
        "“{period}”指截至分析日期的全部时间，没有可对比的上一期。请说明要对比的两个时期（例如“今年和去年比”），或只问“{period}”。",
    ),
    "dimension_of_several": (
        "{word!r} names several dimensions ({dimensions}); say which one.",
        "“{word}”可指多个维度（{dimensions}）；请说明是哪一个。",
    ),
    "member_of_several": (
        "{member!r} is a value of several dimensions ({dimensions}); say which one right beside it (e.g. "
        '"{first} {member}").',
        "“{member}”同时是多个维度（{dimensions}）的取值；请在它旁边写明是哪一个（例如“{first}{member}”）。",
    ),
    "metric_refused": (
        "{label} is in the catalog, but Baton does not compute it: {reason}",
        "指标目录中有“{label}”，但 Baton 不计算它：{reason}",
    ),
    "unknown_metric": (
        "The catalog has no metric {term!r}, so Baton will not guess its definition. Closest catalog metrics: "
        "{closest}.",
        "指标目录中没有“{term}”这个指标，Baton 不会猜测它的口径。最接近的目录指标：{closest}。",
    ),
    # time expressions -----------------------------------------------------------------------------
    "range_reversed": ("Range starts after it ends: {start}..{end}.", "时间范围的开始晚于结束：{start}..{end}。"),
    "invalid_time": (
        "'{text}' is not a valid date or period: {reason}.",
        "“{text}”不是有效的日期或时间段：{reason_zh}。",
    ),
    "no_data_yet": (
        "No data yet for '{text}': it starts on {start}, after the latest complete day ({last}).",
        "“{text}”还没有数据：它从{start}开始，而最新的完整数据日是{last}。",
    ),
    "period_month": ("month", "月"),
    "period_quarter": ("quarter", "季度"),
    "period_half": ("half", "半年"),
    "no_such_period": ("there is no {kind} {number}", "不存在第{number}个{kind_zh}"),
    "no_such_month": ("there is no month {month}", "不存在{month}月"),
    "no_such_day": ("month {month} has no day {day}", "{month}月没有{day}日"),
    "no_such_day_of_week": ("a week has seven days, not {n}", "一周只有七天，没有{n}天"),
    "year_out_of_range": ("year {year} is out of range", "年份{year}超出范围"),
    "no_such_date": ("{year}-{month:02d}-{day:02d} does not exist", "{year}年{month}月{day}日不存在"),
    "periods_at_least_one": ("the number of periods must be at least 1", "时间段的数量至少为1"),
    "no_such_week": ("ISO year {year} has no week {week}", "{year}年没有第{week}周"),
    "ends_before_start_date": ("the range ends before it starts", "结束日期早于开始日期"),
    "ends_before_start_time": ("the range ends before it starts", "结束时间早于开始时间"),
    "latest_inside_a_period": (
        'it ends inside a week or month: say the dates, or the days up to that day ("the 14 days up to June 20")',
        "结束日在一周或一个月当中：请写明日期，或截至该日的天数（如“截至6月20日的14天”）",
    ),
}
