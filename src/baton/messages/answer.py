"""Answer sentences, report headings and failure texts (``answer.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "list_sep": (", ", "、"),
    # an answer's status, in words (the notebook and the web page show it) -------------------------
    "status_answered": ("Answered", "已回答"),
    "status_clarification_needed": ("Needs clarification", "需要澄清"),
    "status_refused": ("Refused", "已拒绝"),
    "status_failed": ("Failed", "失败"),
    "and_sep": (" and ", "、"),
    "or_sep": (" or ", "还是"),
    # the answer sentence (the narrator) -----------------------------------------------------------
    "grain_day": ("day", "天"),
    "grain_week": ("week", "周"),
    "grain_month": ("month", "月"),
    "grain_quarter": ("quarter", "季度"),
    "grain_year": ("year", "年"),
    "filter_part": ("{dim} = {members}", "{dim}={members}"),
    "filter_part_excluded": ("{dim} ≠ {members}", "{dim}不含{members}"),
    "share_item": ("{item}: {value} ({share} of the total)", "{item} {value}（占 {share}）"),
    "shares": (
        "{label}{filters} for {period}, each part with its share of the total: {items}{more}.",
        "{period}{filters}{label}各部分及其占比：{items}{more}。",
    ),
    "share_item_in_period": (
        "{item}: {value} ({share} of that {grain}'s total)",
        "{item} {value}（占当{grain} {share}）",
    ),
    "shares_over_time": (
        "{owner} {label}{filters} by {grain} for {period}, with its share of each {grain}'s total: {items}{more}.",
        "{period}{filters}{owner}的{label}（按{grain}）及其占当{grain}总额的比例：{items}{more}。",
    ),
    "shares_by_period": (
        "{label}{filters} for {period}, each part with its share of its {grain}'s total: {items}{more}.",
        "{period}{filters}{label}各部分及其占当{grain}总额的比例：{items}{more}。",
    ),
    "share_item_in_group": ("{item}: {value} ({share} of its {group})", "{item} {value}（占所在{group} {share}）"),
    "shares_in_groups": (
        "{label}{part}{filters} for {period}, each with its share of its {group}'s total: {items}{more}.",
        "{period}{filters}{part}{label}及其占所在{group}的比例：{items}{more}。",
    ),
    "shares_in_groups_part": (" of {part}", "{part}的"),
    "label_of_part": ("{label} of {part}", "{part}的{label}"),
    "share_item_compared": (
        "{item}: {share} (was {previous}, {points})",
        "{item} 占 {share}（对比期 {previous}，{points}）",
    ),
    "shares_compared": (
        "{label}{filters} for {period}, each part's share of the total ({whole}) {kind} ({previous_period}, "
        "total {previous_whole}): {items}{more}.",
        "{period}{filters}{label}（整体 {whole}）各部分占比，与{previous_period}（整体 {previous_whole}）相比（{kind}）："
        "{items}{more}。",
    ),
    "share_value_compared": (
        "{owner} share of {label}{filters} for {period} was {share} ({value} of {whole}), {points} {kind} "
        "({previous_period}: {previous}, {previous_value} of {previous_whole}).",
        "{period}{filters}{owner}占{label}的比例为 {share}（{value} / 整体 {whole}），对比期（{previous_period}）为 "
        "{previous}（{previous_value} / 整体 {previous_whole}），{kind} {points}。",
    ),
    "share_part_moved": (
        "The part's own {label} ({part}){filters}: {pct} ({change}) {kind}.",
        "其中部分（{part}）{filters}本身的{label}{kind} {pct}（{change}）。",
    ),
    "share_of_label": ("{owner} share of {label}", "{owner}占{label}的比例"),
    "share_value": ("{label}{filters} for {period}: {item}.", "{period}{filters}{label}：{item}。"),
    "share_value_of_whole": (
        "{label}{filters} for {period}: {item}; the total is {whole}.",
        "{period}{filters}{label}：{item}；整体为 {whole}。",
    ),
    "shares_of_whole": (
        "{label}{filters} for {period}, each part with its share of the total ({whole}): {items}{more}.",
        "{period}{filters}{label}（整体 {whole}）各部分及其占比：{items}{more}。",
    ),
    "more_items": ("; {count} more in the table", "；另有 {count} 项见表格"),
    "filter_sep": ("; ", "；"),
    "filters": (" ({parts})", "（{parts}）"),
    "metric_sep": (" ", ""),
    "no_rows": ("No data matched for {period}{filters}.", "{period}{filters}没有查到符合条件的数据。"),
    "value": ("{label}{filters} for {period} {was} {value}.", "{period}{filters}的{label}为 {value}。"),
    "share_part_both": ("both {first} and {second}", "同时属于{first}和{second}的"),
    "value_averaged": (
        "{label}{filters} for {period} {was} {value} (in total {total}).",
        "{period}{filters}的{label}为 {value}（合计 {total}）。",
    ),
    "kind_previous_period": ("vs the previous period", "环比"),
    "kind_same_period_last_year": ("vs the same period last year", "同比"),
    "kind_each_before_day": ("vs the day before", "日环比"),
    "kind_each_before_week": ("vs the week before", "周环比"),
    "kind_each_before_month": ("vs the month before", "月环比"),
    "kind_each_before_quarter": ("vs the quarter before", "季度环比"),
    "kind_each_before_year": ("vs the year before", "年环比"),
    "each_before_span": ("every {grain} against its own, {span}", "每{grain}各自的上一{grain}，{span}"),
    "kind_custom": ("vs the period named", "对比所述期间"),
    "kind_same_weekday": ("vs the same weekday of earlier weeks", "对比前几周同星期"),
    "comparison": (
        "{label}{filters} for {period} {was} {current}, {pct} {kind} ({previous_period}: {previous}).",
        "{period}{filters}的{label}为 {current}，对比期（{previous_period}）为 {previous}，{kind} {pct}。",
    ),
    "comparison_by": (
        "{label}{filters} for {period} {was} {current}, {pct} ({change}) {kind} ({previous_period}: {previous}).",
        "{period}{filters}的{label}为 {current}，对比期（{previous_period}）为 {previous}，{kind} {pct}（{change}）。",
    ),
    "comparison_change_only": (
        "{label}{filters} for {period} {was} {current}, {change} {kind} ({previous_period}: {previous}); no change "
        "in percent, as the earlier value is not above zero.",
        "{period}{filters}的{label}为 {current}，对比期（{previous_period}）为 {previous}，{kind} {change}"
        "（对比期数值不大于零，不计百分比）。",
    ),
    "smallest_rise": ("smallest rise", "增幅最小"),
    "largest_fall": ("largest fall", "降幅最大"),
    "smallest_fall": ("smallest fall", "降幅最小"),
    "largest_rise": ("largest rise", "增幅最大"),
    "among_top": (" (among the top {n} {dims})", "（最高的 {n} 个{dims}中）"),
    "among_bottom": (" (among the bottom {n} {dims})", "（最低的 {n} 个{dims}中）"),
    "comparison_groups_no_pct": (
        "{label}{filters} by {groups} for {period}, {kind} ({previous_period}): no {groups} has an earlier value "
        "above zero, so none has a change in percent.",
        "{period}{filters}各{groups}{label}{kind}：没有{groups}的对比期数值大于零，均无百分比变化；对比期为 "
        "{previous_period}。",
    ),
    "comparison_groups_no_rate": (
        "{label}{filters} by {groups} for {period}, {kind} ({previous_period}): no {groups} has a value in both "
        "periods, so no change is computed (the table shows each period's values).",
        "{period}{filters}各{groups}{label}{kind}：没有{groups}在两期都有数值，无法计算变化（表中列出各期数值）；对比期为 "
        "{previous_period}。",
    ),
    "comparison_ranked": (
        "{word} {count} {groups} by {label}{filters}, {period}, {kind} ({previous_period}): {items}.",
        "{period}{filters}{label}{word}的 {count} 个{groups}（{kind}，对比期为 {previous_period}）：{items}。",
    ),
    "comparison_groups": (
        "{label}{filters} by {groups} for {period}, {kind} ({previous_period}): {low_word} {low} ({low_pct}; now "
        "{low_value}), {high_word} {high} ({high_pct}; now {high_value}).",
        "{period}{filters}各{groups}{label}{kind}：{low_word}的是 {low}（{low_pct}，本期 {low_value}），"
        "{high_word}的是 {high}（{high_pct}，本期 {high_value}）；对比期为 {previous_period}。",
    ),
    "series": (
        "{label}{filters} by {grain} for {period}: {count} points, from {first_value} ({first}) to {last_value} "
        "({last}); peak {peak_value} ({peak}).",
        "{period}{filters}的{label}按{grain}共 {count} 个数据点：首个 {first} 为 {first_value}，最近 {last} 为 "
        "{last_value}；最高为 {peak}（{peak_value}）。",
    ),
    "series_with_low": (
        "{label}{filters} by {grain} for {period}: {count} points, from {first_value} ({first}) to {last_value} "
        "({last}); highest {peak_value} ({peak}), lowest {low_value} ({low}).",
        "{period}{filters}的{label}按{grain}共 {count} 个数据点：首个 {first} 为 {first_value}，最近 {last} 为 "
        "{last_value}；最高为 {peak}（{peak_value}），最低为 {low}（{low_value}）。",
    ),
    "series_each": (
        "{label}{filters} by {grain} for {period}: {items}.",
        "{period}{filters}的{label}按{grain}：{items}。",
    ),
    "point": ("{value} ({bucket})", "{bucket} {value}"),
    "point_partial": ("{value} ({bucket}, part of its days only)", "{bucket}（仅部分日期）{value}"),
    "series_partial_named": (
        " {buckets} holds only part of its days (see the assumptions), so the series is read over the full {grain}s.",
        "其中 {buckets}只含部分日期（见假设说明），首尾按完整的{grain}叙述。",
    ),
    "series_partial": (
        " The {grain} of {buckets} holds only part of its days (see the assumptions), so the series is read "
        "over the full ones.",
        "其中 {buckets} 所在的{grain}只含部分日期（见假设说明），首尾按完整的{grain}叙述。",
    ),
    "series_groups": (
        "{label}{filters} by {grain} and {dims} for {period}: {count} points; {items}{more}.",
        "{period}{filters}按{grain}、按{dims}的{label}共 {count} 个数据点：{items}{more}。",
    ),
    "series_item": (
        "{group} from {first_value} ({first}) to {last_value} ({last})",
        "{group} 从 {first} 的 {first_value} 到 {last} 的 {last_value}",
    ),
    "series_item_one": ("{group} {value} ({at})", "{group} {at} 为 {value}"),
    "series_sep": ("; ", "；"),
    "more_series": ("; the other series are in the table", "；其余序列见表格"),
    "more_rows": ("; the other rows are in the table", "；其余行见表格"),
    "ranked": (
        "{label}{filters}, {period}, {word} {count} rows by {label}: {items}.",
        "{period}{filters}{label}{word}的 {count} 行：{items}。",
    ),
    "ranked_periods": (
        "{word} {count} {unit} by {label}{filters}, {period}: {items}.",
        "{period}{filters}{label}{word}的{count}{unit}：{items}。",
    ),
    "ranked_periods_one": (
        "{word} {unit} by {label}{filters}, {period}: {items}.",
        "{period}{filters}{label}{word}的一{unit}：{items}。",
    ),
    "unit_day": ("day", "天"),
    "unit_week": ("week", "周"),
    "unit_month": ("month", "个月"),
    "unit_quarter": ("quarter", "个季度"),
    "unit_year": ("year", "年"),
    "partial_first": (
        "The first {grain}, {bucket}, holds {days} of its {total} days (the period starts {date}).",
        "第一个{grain}（{bucket} 起）只含其 {total} 天中的 {days} 天（期间始于 {date}）。",
    ),
    "partial_last": (
        "The last {grain}, {bucket}, holds {days} of its {total} days (the period ends {date}).",
        "最后一个{grain}（{bucket} 起）只含其 {total} 天中的 {days} 天（期间止于 {date}）。",
    ),
    "gaps": (
        "No rows, so not shown: {periods} ({count} {grain} bucket(s) inside the series).",
        "没有数据行、未显示的{grain}：{periods}（序列中间共 {count} 个）。",
    ),
    "or_no_sep": (" or no ", "或"),
    "empty_key_not_named": (
        " The (empty) rows, which have no {dimensions} ({values}), are not named as the highest or lowest.",
        "表中“（空）”行的{dimensions}为空（{values}），不计为最高或最低。",
    ),
    "value_and_change": ("{value}, {pct}", "{value}，{pct}"),
    "change_no_pct": ("{change}, no percent", "{change}，无百分比"),
    "no_percent_apart": (
        " With an earlier value not above zero, these have no change in percent and are not ranked by it: {items}.",
        "以下各组对比期数值不大于零，没有百分比变化，未参与涨跌幅排名：{items}。",
    ),
    "empty_key_not_named_change": (
        " The (empty) rows, which have no {dimensions} (now {values}), are not named among the rises and falls.",
        "表中“（空）”行的{dimensions}为空（本期 {values}），不计入涨跌排名。",
    ),
    "unnamed_not_ranked": (
        "Part of the data has no {dimensions} (empty); it belongs to no {dimensions} and is left out.",
        "部分数据的{dimensions}为空，不属于任何{dimensions}，未计入。",
    ),
    "unnamed_in_the_whole": (
        "Part of the data has no {dimensions} (empty): it belongs to no {dimensions} and is not ranked, but its "
        "change ({change}) is inside the change of all groups together.",
        "部分数据的{dimensions}为空：不属于任何{dimensions}，未参与排名，但其变化（{change}）计入了所有组合计的变化。",
    ),
    "unnamed_in_the_whole_unvalued": (
        "Part of the data has no {dimensions} (empty): it belongs to no {dimensions} and is not ranked, but its "
        "change is inside the change of all groups together.",
        "部分数据的{dimensions}为空：不属于任何{dimensions}，未参与排名，但其变化计入了所有组合计的变化。",
    ),
    "no_percent_not_ranked": (
        "Not ranked by the change in percent, having an earlier value not above zero (so no percent): {groups}.",
        "{groups} 上期数值不大于零，没有百分比变化，未参与按变化百分比的排名。",
    ),
    "no_percent_more": (" and {n} more", " 等另外 {n} 组"),
    "unnamed_not_ranked_valued": (
        "Part of the data has no {dimensions} (empty; {metric}: {value}); it belongs to no {dimensions} and is left "
        "out.",
        "部分数据的{dimensions}为空（{metric}：{value}），不属于任何{dimensions}，未计入。",
    ),
    "member_empty": ("(empty)", "（空）"),
    "whole_periods": (
        "Ranked: each whole {grain} from {first} to {last}; a {grain} the period cuts at its edges holds only some "
        "of its days and is left out.",
        "只对 {first} 至 {last} 之间完整的{grain}排名；期间两端被截断的{grain}只含部分天数，不参与排名。",
    ),
    "weeks_against_weeks": (
        "Each week is compared with the same ISO week a year earlier (Monday with Monday), so last year's "
        "days run from {start} to {end}.",
        "每周与去年同一 ISO 周（周一对周一）比较，因此去年的对比日期为 {start} 至 {end}。",
    ),
    "whole_periods_compared": (
        "Each whole {grain} is compared with its own {grain} in the period compared with, {first} to {last}.",
        "每个完整的{grain}与对比期中对应的{grain}比较（{first} 至 {last}）。",
    ),
    "whole_periods_bound": (
        "Compared with the bound: each whole {grain} from {first} to {last}; a {grain} the period cuts at its "
        "edges holds only some of its days and is left out.",
        "只看 {first} 至 {last} 之间完整的{grain}；期间两端被截断的{grain}只含部分天数，不与阈值比较。",
    ),
    "unfilled_ranking": (
        "A period or member without any rows is not in this ranking (counted as 0, it would rank lowest).",
        "没有任何数据行的期间或成员不在此排名中（若计为 0，它们会排在最低）。",
    ),
    "gaps_after_day": (
        "No rows after {last} (the period ends {end}): the series stops there.",
        "{last} 之后没有数据行（期间止于 {end}）：序列到此为止。",
    ),
    "gaps_after": (
        "No rows after the {grain} starting {last} (the period ends {end}): the series stops there.",
        "从 {last} 开始的那个{grain}之后没有数据行（期间止于 {end}）：序列到此为止。",
    ),
    "item_value": ("{item} ({value})", "{item}（{value}）"),
    "dims_groups": ("{dims} groups", "{dims}组合"),
    "top_within": (
        "{word} {n} by {label}{filters} among the {ranked} of each {group}, {period}: {groups}.",
        "{period}{filters}每个{group}内{label}{word}的 {n} 个{ranked}：{groups}。",
    ),
    "top_each_period": (
        "{word} {n} by {label}{filters} among the {ranked} in each {group}, {period}: {groups}.",
        "{period}{filters}每{group}{label}{word}的 {n} 个{ranked}：{groups}。",
    ),
    "within_group": ("{group}: {items}", "{group}：{items}"),
    "within_sep": ("; ", "；"),
    "top_word": ("Top", "最高"),
    "bottom_word": ("Bottom", "最低"),
    "ranked_alongside": ("Their {label}: {items}.", "它们的{label}：{items}。"),
    "ranked_alongside_one": ("Its {label}: {items}.", "其{label}：{items}。"),
    "rank_place": (
        "The {place}-{side} {dims} by {label}{filters}, {period}: {items}.",
        "{period}{filters}{label}第{place}{side}的{dims}：{items}。",
    ),
    "tied_place": ("{count} share that place ({value}).", "这{count}个并列（{value}）。"),
    "first_asked_yes": (
        "Yes: {member} has the {side} {label} of the {counted}{filters}, {period} ({value}).",
        "是，{period}{filters}{member}的{label}在 {counted}中最{side}（{value}）。",
    ),
    "first_asked_no": (
        "No: {top} has the {side} {label}{filters}, {period} ({top_value}); {member} is number {place} of the "
        "{counted} ({value}).",
        "否，{period}{filters}{label}最{side}的是 {top}（{top_value}）；{member}在 {counted}中排第 {place}（{value}）。",
    ),
    "first_asked_no_rows": (
        "{member} has no {label}{filters}, {period}: it is not ranked among the {counted}.",
        "{period}{filters}{member}没有{label}数据，不在{counted}的排名中。",
    ),
    "place_asked": (
        "{member} is number {place} of the {counted} by {label}{filters}, {period} ({value}); the {side} is {top} "
        "({top_value}).",
        "{period}{filters}{member}的{label}在 {counted}中排第 {place}（{value}）；最{side}的是 {top}（{top_value}）。",
    ),
    "place_asked_first": (
        "{member} is number 1 of the {counted} by {label}{filters}, {period}: the {side} ({value}).",
        "{period}{filters}{member}的{label}在 {counted}中排第 1，最{side}（{value}）。",
    ),
    "interpret_place_asked": (", and where {member} ranks", "，以及{member}排第几"),
    "interpret_first_asked": (", and whether {member} is the {side}", "，以及{member}是否最{side}"),
    "side_high": ("highest", "高"),
    "side_low": ("lowest", "低"),
    "threshold": (
        "{count} {groups} had {label} {op} {bound}{filters}, {period}: {items}.",
        "{period}{filters}{label}{op} {bound} 的{groups}有 {count} 个：{items}。",
    ),
    "checked_total_yes": (
        "{label}{filters} for {period} {was} {value}, {op} {bound}: yes.",
        "{period}{filters}的{label}为 {value}，{op} {bound}：是。",
    ),
    "checked_total_no": (
        "{label}{filters} for {period} {was} {value}, {op} {bound}: no.",
        "{period}{filters}的{label}为 {value}，{op} {bound}：否。",
    ),
    "checked_groups_yes": (
        "All {counted} had {label} {op} {bound}{filters}, {period}: yes.",
        "{period}{filters}{counted}的{label}都{op} {bound}：是。",
    ),
    "checked_groups_no": (
        "{failed} of the {counted} had {label} {op} {bound}{filters}, {period}: no ({items}).",
        "{period}{filters}{counted}中有 {failed}的{label}{op} {bound}：否（{items}）。",
    ),
    "groups_counted": ("{n} {group}", "{n} 个{group}"),
    "period_group_pairs": ("{grain} × {groups} pair", "{grain}×{groups}组合"),
    "interpret_checked_groups": (
        ", and whether every one has {metric} {op} {bound}",
        "，以及是否每个的{metric}都{op} {bound}",
    ),
    "bound_not_gt": ("not above", "不高于"),
    "bound_not_ge": ("below", "低于"),
    "bound_not_lt": ("not below", "不低于"),
    "bound_not_le": ("above", "高于"),
    "bound_not_between": ("not between", "不在"),
    "interpret_asked": (", and whether {metrics} {moved}", "，以及{metrics}是否{moved}"),
    "interpret_asked_every": (
        ", and whether {metrics} {moved} in every {group}",
        "，以及是否每个{group}的{metrics}都{moved}",
    ),
    "interpret_asked_which": (
        ", and in which {group} {metrics} {moved}",
        "，以及哪些{group}的{metrics}{moved}",
    ),
    "interpret_asked_any": (
        ", and whether {metrics} {moved} in any {group}",
        "，以及是否有{group}的{metrics}{moved}",
    ),
    "interpret_checked_total": (", and whether {metric} is {op} {bound}", "，以及{metric}是否{op} {bound}"),
    "threshold_none": (
        "No {group} had {label} {op} {bound}{filters}, {period}.",
        "{period}{filters}没有{label}{op} {bound} 的{group}。",
    ),
    "threshold_periods": (
        "{count} {unit} had {label} {op} {bound}{filters}, {period}: {items}.",
        "{period}{filters}{label}{op} {bound} 的有 {count} {unit}：{items}。",
    ),
    "threshold_periods_none": (
        "No {unit} had {label} {op} {bound}{filters}, {period}.",
        "{period}{filters}没有哪{unit}的{label}{op} {bound}。",
    ),
    "top_n": (
        "{word} {count} {dims} by {label}{filters}, {period}: {items}.",
        "{period}{filters}{label}{word}的{count}个{dims}：{items}。",
    ),
    "top_one": (
        "{word} {dims} by {label}{filters}, {period}: {items}.",
        "{period}{filters}{label}{word}的{dims}：{items}。",
    ),
    "tied_at_boundary": (
        "place {place} is shared by {tied} ({value}), so all {count} are listed.",
        "第{place}名有{tied}个并列（{value}），全部列出，共{count}个。",
    ),
    "no_values": ("No {label} values for {period}.", "{period}{filters}{label}没有数值。"),
    "why_needs_analysis": (
        " This is the change only; an analysis finds its drivers (baton analyze, or /why in baton chat).",
        "这里只给出变化；要找出原因，请运行分析（baton analyze，或在 baton chat 中输入 /why）。",
    ),
    "interpret_gap": (", and the gap between the two", "，及两者之差"),
    "interpret_ends_gap": (", and the gap between the highest and the lowest", "，及最高与最低之差"),
    "interpret_ends_ratio": (", and how many times the lowest the highest is", "，及最高是最低的几倍"),
    "interpret_ratio": (", and the ratio of the first to the second", "，及前者是后者的几倍"),
    "member_ratio": (" {first} is {times} times {second}.", "{first}是{second}的 {times} 倍。"),
    "period_ratio": (" {first} is {times} times {second} ({pct}).", "{first}是{second}的 {times} 倍（{pct}）。"),
    "member_gap": (
        " {first} is {gap} {direction} than {second} ({pct}).",
        "{first}比{second}{direction} {gap}（{pct}）。",
    ),
    "ends_gap": (" The highest is {gap} higher than the lowest ({pct}).", "最高比最低高 {gap}（{pct}）。"),
    "member_gap_no_pct": (" {first} is {gap} {direction} than {second}.", "{first}比{second}{direction} {gap}。"),
    "ends_gap_no_pct": (" The highest is {gap} higher than the lowest.", "最高比最低高 {gap}。"),
    "no_period_ratio": (" No ratio: the earlier value is not above zero.", "没有倍数：对比期数值不大于零。"),
    "no_ratio_base": (
        " No ratio: the value it would be divided by is not above zero; the gap instead:",
        "没有倍数：作为除数的数值不大于零；以下为差值：",
    ),
    "ends_ratio": (" The highest is {times} times the lowest.", "最高是最低的 {times} 倍。"),
    "gap_points": ("{points} percentage points", "{points} 个百分点"),
    "gap_higher": ("higher", "高"),
    "gap_lower": ("lower", "低"),
    "breakdown_only_empty": (
        "{label} by {dims}{filters}, {period}: {values}, all of it in rows with no {none} (empty).",
        "{period}{filters}按{dims}拆分的{label}：{values}，全部在{none}为空的行中（空）。",
    ),
    "breakdown_one_and_empty": (
        "{label} by {dims}{filters}, {period}: one named group, {high} ({high_value}), and {values} in rows with no {none} (empty).",
        "{period}{filters}按{dims}拆分的{label}：有名称的仅 1 组，{high} 为 {high_value}；另有 {values} 在{none}为空的行中（空）。",
    ),
    "breakdown_one": (
        "{label} by {dims}{filters}, {period}: one group, {high} ({high_value}).",
        "{period}{filters}按{dims}拆分的{label}：仅 1 组，{high} 为 {high_value}。",
    ),
    "breakdown_even": (
        "{label} by {dims}{filters}, {period}: {high} all {high_value}; {count} groups.",
        "{period}{filters}按{dims}拆分的{label}：{high} 均为 {high_value}，共 {count} 组。",
    ),
    "breakdown": (
        "{label} by {dims}{filters}, {period}: highest {high} ({high_value}), lowest {low} ({low_value}); "
        "{count} groups.",
        "{period}{filters}按{dims}拆分的{label}：最高为 {high}（{high_value}），最低为 {low}（{low_value}），"
        "共 {count} 组。",
    ),
    "incomplete_day": (
        "far fewer rows than usual for that day (the same weekday of earlier weeks; an event's peak day: last "
        "year's event)",
        "当日行数明显低于常规量（对比前几周同星期；活动峰值日对比去年同一活动）",
    ),
    "incomplete_in_current": (
        "The current period ({period}) includes incomplete days ({days}: far fewer rows than usual)"
        "; its value uses the data as loaded and {effect}{compare}.",
        "本期（{period}）含数据不完整的日期（{days}：行数明显低于该日常规量），数值按已加载数据计算，{effect}{compare}。",
    ),
    "incomplete_in_comparison": (
        "The comparison period ({period}) includes incomplete days ({days}: far fewer rows than usual)"
        "; its value uses the data as loaded and {effect}{compare}.",
        "对比期（{period}）含数据不完整的日期（{days}：行数明显低于该日常规量），数值按已加载数据计算，{effect}{compare}。",
    ),
    "incomplete_not_like_for_like": (
        "; the change therefore does not compare like with like",
        "；因此变化率并非同口径比较",
    ),
    "incomplete_day_assumption": (
        "{day} is incomplete: marked on the chart; its value uses the data as loaded and {effect}.",
        "{day} 的数据不完整：图中单独标出，数值按已加载数据计算，{effect}。",
    ),
    "average_before_data": (
        "The data of {period!r} starts on {first}: an average {per} over {start} to {end} would count the "
        "{days} days before it as zero. Ask from {first} on, or for the total.",
        "“{period}”的数据从{first}才开始：按{start}至{end}计算{per_zh}会把此前的 {days} 天算作 0。请从{first}起问，或询问合计。",
    ),
    "no_data_before_start": (
        "No data for the period asked ({period}): it ends before the data's first day, {first}.",
        "所问期间（{period_zh}）没有数据：它在数据的第一天（{first}）之前就结束了。",
    ),
    "comparison_before_data": (
        "The comparison would not be like for like: the data starts on {first}, and the comparison period "
        "({period}) has {days} days before it, with no rows. Ask about the period alone, or compare two "
        "periods from {first} on.",
        "无法同口径对比：数据从{first}才开始，对比期（{period_zh}）中有 {days} 天早于此日，没有数据。"
        "请只问本期，或比较{first}之后的两个期间。",
    ),
    "series_before_data": (
        "The first {grain}s of the series have nothing to be compared with: the data starts on {first}. "
        "Ask for the series from {start} to {end}, whose every {grain} has its counterpart in the data, or "
        "for the series alone.",
        "序列开头的{grain}没有可对比的数据：数据从{first}才开始。请改问{start}至{end}的序列（其中每一期都有对比数据），"
        "或只问序列本身。",
    ),
    "current_before_data": (
        "The comparison would not be like for like: the data starts on {first}, and the period asked "
        "({period}) has {days} days before it, with no rows. Compare two periods from {first} on.",
        "无法同口径对比：数据从{first}才开始，本期（{period_zh}）中有 {days} 天早于此日，没有数据。"
        "请比较{first}之后的两个期间。",
    ),
    "span_named": ("{text!r}: {start} to {end}", "“{text}”：{start} 至 {end}"),
    "no_rows_dated_from": (
        "No data yet for {text!r}: no row is dated by {column} on or after {start}.",
        "“{text}”还没有数据：没有任何一行的 {column} 在{start}或之后。",
    ),
    "no_data_in_period": (
        "No data yet for {text!r}: it starts on {start}, after the newest loaded day ({newest}).",
        "“{text}”还没有数据：它从{start}开始，而已加载数据的最新日期是{newest}。",
    ),
    "pooled_distinct": (
        "{metric} over {members} together is a distinct count: one counted in more than one of them is counted "
        "once, so it can be below the sum of each one's.",
        "{members}合起来的{metric}是去重计数：同时属于其中多个的只计一次，因此可能小于各自之和。",
    ),
    "pooled_ratio": (
        "{metric} over {members} together is computed on their pooled rows, not added or averaged across them.",
        "{members}合起来的{metric}按合并后的数据重新计算，不是各自的值相加或平均。",
    ),
    "share_overlap": (
        "{metric} is a distinct count: the same one can be counted in more than one group, so the groups' shares "
        "need not add up to 100%.",
        "{metric}是去重计数：同一对象可能被计入多个分组，因此各组占比之和不一定等于 100%。",
    ),
    "incomplete_understated": ("may be understated", "可能偏低"),
    "incomplete_biased": ("may be off in either direction", "可能偏高或偏低"),
    # how the question was read --------------------------------------------------------------------
    "interpret": (
        "Read as: {subject}{breakdown}{filters}{ranking}, {period}{comparison}.{corrections}",
        "问题理解为：{period}{filters}{breakdown}的{subject}{ranking}{comparison}。{corrections}",
    ),
    "interpret_why": ("why {metrics} {moved}", "{metrics}{moved}的原因"),
    "interpret_rose": ("rose (as the question says; checked against the data)", "上升（问题所述，已用数据核对）"),
    "interpret_fell": ("fell (as the question says; checked against the data)", "下降（问题所述，已用数据核对）"),
    "interpret_moved": ("changed", "变化"),
    "interpret_share_of_part": ("the share of {part} in {metrics}", "{part}占{metrics}的比例"),
    "interpret_share_by": ("the share of {metrics}", "{metrics}占比"),
    "interpret_share_of_range": ("the share of the whole period's {metrics}", "{metrics}占整个期间的比例"),
    "interpret_share_within": (
        "the share of {part} in each {group}'s {metrics}",
        "每个{group}中{part}占{metrics}的比例",
    ),
    "interpret_share_within_by": ("the share of each {group}'s {metrics}", "每个{group}内的{metrics}占比"),
    "interpret_average": (
        "{metrics} {per} (the {values} summed ÷ {count})",
        "{per_zh}{metrics}（{values_zh}之和 ÷ {count_zh}）",
    ),
    "average_label": ("{label} {per}", "{per_zh}{label}"),
    "interpret_two_counts": ("{count}; the earlier period's ÷ {other}", "{count_zh}，对比期 ÷ {other_zh}"),
    "average_day": ("per day", "日均"),
    "average_week": ("per week", "周均"),
    "average_month": ("per month", "月均"),
    "average_quarter": ("per quarter", "季均"),
    "average_year": ("per year", "年均"),
    "values_day": ("daily values", "每日值"),
    "values_week": ("weekly values", "每周值"),
    "values_month": ("monthly values", "每月值"),
    "values_quarter": ("quarterly values", "每季度值"),
    "values_year": ("yearly values", "每年值"),
    "count_day": ("{n} days", "{n} 天"),
    "count_week": ("{n} weeks", "{n} 周"),
    "count_month": ("{n} months", "{n} 个月"),
    "count_quarter": ("{n} quarters", "{n} 个季度"),
    "count_year": ("{n} years", "{n} 年"),
    "interpret_all_but": ("all but {members}", "{members}以外"),
    "interpret_member": ("{dim} is {members}", "{dim}为{members}"),
    "interpret_excluded": ("{dim} is not {members}", "{dim}不含{members}"),
    "interpret_or": (" or ", "或"),
    "interpret_filter_sep": (" and ", "、"),
    "interpret_where": (", where {filters}", "、{filters}"),
    "interpret_by": (" by {dims}", "、按{dims}"),
    "interpret_per": (" per {grain}", "、按{grain}"),
    "interpret_ranked_floor": (
        ", ranked only among those with {metric} {op} {bound}",
        "，只在{metric}{op} {bound} 的分组中排名",
    ),
    "interpret_threshold": (", only those with {metric} {op} {bound}", "，只看{metric}{op} {bound} 的"),
    "bounded_change_pct": ("a percent change of {label} ({kind})", "{label}{kind}变化率"),
    "bounded_change": ("a change of {label} ({kind})", "{label}{kind}变化额"),
    "bounded_share": ("a share of {label}", "{label}占比"),
    "bounded_share_of": ("{owner} share of {label}", "{owner}{label}占比"),
    "threshold_compared": (" (compared with {previous_period})", "（对比期为 {previous_period}）"),
    "floor_fewer": (
        "Only {count} passed the bound, so fewer than {n} are listed.",
        "只有 {count} 个达到条件，不足 {n} 个。",
    ),
    "ranked_floor": (" (ranked among those with {label} {op} {bound})", "（只在{label}{op} {bound} 的分组中排名）"),
    "kept_floor": (" (only those with {label} {op} {bound})", "（只看{label}{op} {bound} 的分组）"),
    "bound_gt": ("above", "高于"),
    "bound_ge": ("at least", "不低于"),
    "bound_lt": ("below", "低于"),
    "bound_le": ("at most", "不高于"),
    "bound_between": ("between", "介于"),
    "bound_range": ("{low} and {high}", "{low} 和 {high} 之间"),
    "interpret_top_within": (
        ", inside each {group} the top {n} {ranked} by {metric}{first}",
        "，每个{group}内按{metric}取最高的 {n} 个{ranked}{first}",
    ),
    "interpret_top_each_period": (
        ", in each {group} the top {n} {ranked} by {metric}{first}",
        "，每{group}按{metric}取最高的 {n} 个{ranked}{first}",
    ),
    "interpret_bottom_each_period": (
        ", in each {group} the bottom {n} {ranked} by {metric}{first}",
        "，每{group}按{metric}取最低的 {n} 个{ranked}{first}",
    ),
    "interpret_bottom_within": (
        ", inside each {group} the bottom {n} {ranked} by {metric}{first}",
        "，每个{group}内按{metric}取最低的 {n} 个{ranked}{first}",
    ),
    "interpret_top": (", top {n}{first}", "，取最高的 {n} 个{first}"),
    "interpret_place": (", the {place} {side} only", "，只取第 {place} {side}的"),
    "interpret_place_by": (", the {place} {side} by {metric} only", "，按{metric}只取第 {place} {side}的"),
    "interpret_top_by": (", top {n} by {metric}{first}", "，按{metric}取最高的 {n} 个{first}"),
    "interpret_bottom_by": (", bottom {n} by {metric}{first}", "，按{metric}取最低的 {n} 个{first}"),
    "interpret_ranked_desc_by": (", ranked by {metric}, highest first", "，按{metric}从高到低排序"),
    "interpret_ranked_asc_by": (", ranked by {metric}, lowest first", "，按{metric}从低到高排序"),
    "interpret_bottom": (", bottom {n}{first}", "，取最低的 {n} 个{first}"),
    "first_high": (" (highest first)", "（从高到低）"),
    "first_low": (" (lowest first)", "（从低到高）"),
    "listed_asc": (", listed lowest first", "，从低到高列出"),
    "listed_desc": (", listed highest first", "，从高到低列出"),
    "interpret_ranked_desc": (", ranked highest first", "，从高到低排序"),
    "interpret_ranked_asc": (", ranked lowest first", "，从低到高排序"),
    "interpret_change_top": (
        ", the {n} with the largest {move} in {metric} ({measure})",
        "，按{metric}的{measure}取{move}最多的 {n} 个",
    ),
    "interpret_change_ranked": (
        ", ranked by the {move} in {metric} ({measure}), largest first",
        "，按{metric}的{measure}排序，{move}最多的在前",
    ),
    "interpret_contribution": (
        ", with the change of all groups together and each one's part of it",
        "，并列出所有组合计的变化及各组在其中的占比",
    ),
    "change_move_down": ("fall", "下降"),
    "change_move_up": ("rise", "增长"),
    "interpret_measure_change": ("as an amount, not in percent", "变化额（不是变化率）"),
    "interpret_measure_points": ("in percentage points, not in percent", "变化的百分点（不是相对变化率）"),
    "interpret_measure_change_pct": ("in percent, not as an amount", "变化率（不是变化额）"),
    "change_ranked_item": ("{group} ({value}; {change}, {pct})", "{group}（{value}，变化 {change}，{pct}）"),
    "change_ranked_item_no_pct": (
        "{group} ({value}; {change}, no percent: the earlier value is not above zero)",
        "{group}（{value}，变化 {change}，对比期不大于零、无百分比）",
    ),
    "change_word_change_down": ("largest fall", "下降最多"),
    "change_word_change_up": ("largest rise", "增长最多"),
    "change_word_change_pct_down": ("largest fall in percent", "降幅最大"),
    "change_word_change_pct_up": ("largest rise in percent", "增幅最大"),
    "change_word_change_down_all": ("ranked by the fall, largest first", "按下降额从大到小排列"),
    "change_word_change_up_all": ("ranked by the rise, largest first", "按增长额从大到小排列"),
    "change_word_change_pct_down_all": ("ranked by the fall in percent, largest first", "按降幅从大到小排列"),
    "change_word_change_pct_up_all": ("ranked by the rise in percent, largest first", "按增幅从大到小排列"),
    "change_measure_change": ("change", "变化额"),
    "change_measure_change_pct": ("percent change", "变化率"),
    "change_moved_down": ("fell", "下降"),
    "change_moved_up": ("rose", "增长"),
    "change_ranked": (
        "{label}{filters} for {period}, {kind} ({previous_period}): {word}: {items}.",
        "{period}{filters}{label}{kind}{word}的是 {items}；对比期为 {previous_period}。",
    ),
    "change_ranked_none": (
        "No group's {label}{filters} {moved} for {period}, {kind} ({previous_period}); first by {measure}: {items}.",
        "{period}{filters}没有一组的{label}{kind}{moved}；按{measure}排在最前的是 {items}；对比期为 {previous_period}。",
    ),
    "change_ranked_none_pct": (
        "Of the groups with an earlier value above zero (the only ones with a change in percent), none's "
        "{label}{filters} {moved} for {period}, {kind} ({previous_period}); first by {measure}: {items}.",
        "{period}{filters}在上期数值大于零的分组（只有它们有变化百分比）中，没有一组的{label}{kind}{moved}；"
        "按{measure}排在最前的是 {items}；对比期为 {previous_period}。",
    ),
    "change_unknown": (
        " {n} of the rows the ranking returned have no change to show (a value of one period hidden or empty, or "
        "a percent of an earlier value at or below zero) and are left out.",
        "排名返回的行中有 {n} 组的变化无法计算（某一期的数值未显示或为空，或上期数值不大于零、无法算百分比），未列出。",
    ),
    "change_ranked_nothing": (
        "No group's {label}{filters} change can be ranked for {period}, {kind} ({previous_period}).",
        "{period}{filters}没有一组的{label}{kind}变化可以排名；对比期为 {previous_period}。",
    ),
    "change_ranked_not_all": (" Of these, {groups} did not {move}.", "其中 {groups} 并未{move}。"),
    "contribution_whole": (
        " All groups together changed by {change}; {parts}.",
        "所有组合计变化 {change}；{parts}。",
    ),
    "contribution_floored": (
        " The change of all groups together and each one's part of it are not shown: your access hides groups "
        "below a minimum size, so they cannot be computed from what you may see.",
        "所有组合计的变化及各组在其中的占比未列出：你的权限会隐藏低于最小规模的组，无法仅凭你可见的数据计算。",
    ),
    "contribution_other_way_hidden": (
        " All groups together did not {move}, so there was no {move} of the whole for a {dimension} to "
        "contribute to; above is the {word} among the groups you may see.",
        "所有组合计并未{move}，谈不上哪个{dimension}对整体{move}的贡献；以上是你可见的各{dimension}中{word}的。",
    ),
    "contribution_part": ("{group} change is {share} of it", "{group}的变化占其中 {share}"),
    "contribution_whole_other_way": (
        " All groups together did not {move}: they changed by {change}, so there was no {move} of the whole for a "
        "{dimension} to contribute to; above is the {word} among them.",
        "所有组合计变化 {change}，并未{move}，谈不上哪个{dimension}对整体{move}的贡献；以上是各{dimension}中{word}的。",
    ),
    "interpret_compared": (", compared with {kind}: {period}", "，对比{kind}：{period}"),
    "interpret_against": (", compared with {period}", "，对比 {period}"),
    "interpret_previous_period": ("the previous period", "上一周期"),
    "interpret_same_period_last_year": ("the same period last year", "去年同期"),
    "interpret_each_before": (
        ", each {grain} compared with the {grain} before it ({period})",
        "，每{grain}对比上一{grain}（{period}）",
    ),
    "interpret_same_weekday": ("the same weekday of the 4 weeks before", "前 4 周同星期"),
    "interpret_read_as": ("{written!r} as {read_as!r}", "“{written}”读作“{read_as}”"),
    "interpret_context": ("{written!r} as context, not part of the query", "“{written}”作为背景，未计入查询"),
    "interpret_traditional": ("traditional characters as simplified", "繁体字按简体读"),
    "interpret_notes": (" (Read {notes}.)", "（{notes}。）"),
    "span": ("{start} to {end}", "{start} 至 {end}"),
    "all_time": ("all time (up to {end})", "全部时间（截至 {end}）"),
    "span_day": ("{day}", "{day}"),
    "period_words": ("{words} ({span})", "{words}（{span}）"),
    "period_read_dates": ("{words!r} is read as {period}.", "“{words}”解释为 {period}。"),
    "period_so_far": (
        "{words!r} is not over on the as-of date {as_of}: only its {days} days so far are counted ({period}).",
        "截至分析日期 {as_of}，“{words}”尚未结束：只计已过去的 {days} 天（{period}）。",
    ),
    "whole_periods_not_rolling": (
        "{words!r} counts whole calendar periods up to {end} (the current one, not over yet, is left out), "
        'not the {days} days up to the as-of date; for a rolling window ask for "the last {days} days".',
        "“{words}”按完整的自然周期计到 {end}（尚未结束的本期不计），不是截至分析日期的最近 {days} 天；"
        "如要滚动窗口，请说“近{days}天”。",
    ),
    "period_read_as": (
        "{words!r} is read relative to as-of date {as_of}: {period}.",
        "“{words}”按分析日期 {as_of} 解释为 {period}。",
    ),
    "compared_previous_period": (
        "Compared with the previous period of the same length ({days} days): {period}{lengths}.",
        "对比期为环比（之前同长度的 {days} 天）：{period}{lengths}。",
    ),
    "compared_previous_month": (
        "Compared with the previous calendar month: {period}{lengths}.",
        "对比期为环比（上一个自然月）：{period}{lengths}。",
    ),
    "compared_previous_quarter": (
        "Compared with the previous calendar quarter: {period}{lengths}.",
        "对比期为环比（上一个自然季度）：{period}{lengths}。",
    ),
    "compared_previous_year": (
        "Compared with the previous calendar year: {period}{lengths}.",
        "对比期为上一个自然年：{period}{lengths}。",
    ),
    "compared_previous_weekend": (
        "Compared with the weekend before (Saturday and Sunday): {period}{lengths}.",
        "对比期为上一个周末（周六、周日）：{period}{lengths}。",
    ),
    "compared_previous_week": (
        "Compared with the previous calendar week (Monday to Sunday): {period}{lengths}.",
        "对比期为环比（上一个自然周，周一至周日）：{period}{lengths}。",
    ),
    "compared_lengths": (
        " ({previous} days against {current} in the current period)",
        "（对比期 {previous} 天，本期 {current} 天）",
    ),
    "corrected_typo": (
        "{written!r} is not a catalog term; it was read as {read_as!r}, the only term one character away.",
        "“{written}”不是指标目录中的词，按唯一一个只差一个字符的词“{read_as}”理解。",
    ),
    "corrected_partial": (
        "{written!r} begins the name of one member only; it was read as {read_as!r}.",
        "“{written}”是唯一一个成员名称的开头，按“{read_as}”理解。",
    ),
    "corrected_shorthand": (
        "{written!r} was read as the shorthand for {read_as!r}.",
        "“{written}”按缩写理解为“{read_as}”。",
    ),
    "corrected_ratio": (
        "{written!r} names two metrics, one over the other; it was read as {read_as!r}, the catalog metric "
        "defined as that ratio (see its definition).",
        "“{written}”是两个指标相除，按指标目录中定义为该比值的指标“{read_as}”理解（见其口径）。",
    ),
    "corrected_pointer": (
        "{written!r} points at the rows the previous answer listed: {read_as}.",
        "“{written}”指上一个回答列出的：{read_as}。",
    ),
    "corrected_context": (
        "{written!r} was read as context (it names nothing the question does not name again) and left out of "
        "the query.",
        "“{written}”被视为背景说明（其中没有问题其他部分未提到的内容），未计入查询。",
    ),
    "corrected_traditional": (
        "The question was read in simplified characters: {read_as!r}.",
        "问题中的繁体字按简体读作：“{read_as}”。",
    ),
    "compared_custom": (
        "Compared with the period the question names: {period}{lengths}.",
        "对比期为问题中指定的期间：{period}{lengths}。",
    ),
    "compared_each_before": (
        "Each {grain} is compared with the {grain} before it: the comparison's days run {period}.",
        "每{grain}与其上一{grain}对比（环比），对比期的数据为 {period}。",
    ),
    "compared_same_weekday": (
        "Compared with its usual level: the same weekday of the 4 weeks before ({period}).",
        "对比其常规水平：前 4 周的同星期（{period}）。",
    ),
    "compared_same_period_last_year": (
        "Compared with the same period last year: {period}{lengths}.",
        "对比期为同比（去年同期）：{period}{lengths}。",
    ),
    "fresh_loaded": ("Data up to {newest} (loaded: {loads})", "数据更新至 {newest}（加载时间：{loads}）"),
    "fresh": ("Data up to {newest}", "数据更新至 {newest}"),
    "all_time_from": (
        "All time counts from the first day of data, {first}.",
        "全部时间从数据的第一天 {first} 算起。",
    ),
    "range_before_data": (
        "The data starts on {first}: {start} to {before} has no rows, and the values hold the data from {first} on.",
        "数据从{first}才开始：{start}至{before}没有数据，数值只含{first}起的数据。",
    ),
    "range_past_data": (
        "The range ends {end} but data only reaches {newest}; later days have no data.",
        "所选时间范围截至 {end}，但数据只更新到 {newest}，之后的日期没有数据。",
    ),
    # how a run ends ---------------------------------------------------------------------------------
    "cancelled": ("Cancelled by the user.", "用户已取消。"),
    "internal_error": (
        "Internal error ({error}); the details are in the run trace.",
        "内部错误，本次未能回答；详情已记录在运行轨迹中。",
    ),
    "budget_stopped": (
        "{message} The run stopped; finished steps: {finished}. Partial results below, not fully checked.",
        "{message} 运行已停止，已完成的步骤：{finished}；以下为部分结果，未经完整核对。",
    ),
    "replay_cannot_run": (
        "A replay reads the run's checkpoints only; this run needs a step that never finished.",
        "回放只读取运行的检查点；该运行缺少未完成的步骤。",
    ),
    "missing_step": (
        "Run {run_id} has no finished step {step}; resume it instead.",
        "运行 {run_id} 缺少已完成的步骤 {step}，请改用 resume 继续。",
    ),
    "suppressed_groups": (
        "{n} more groups, each of fewer than {k} rows, are not shown.",
        "另有 {n} 组因样本少于 {k} 未显示。",
    ),
    "suppression_rule": (
        "Your access to this table is aggregate-only: groups of fewer than {k} rows are left out of results.",
        "你对该表只有汇总权限：少于 {k} 条记录的分组不显示在结果中。",
    ),
    "replay_unfinished": (
        "Run {run_id} stopped before executing anything; resume it instead.",
        "运行 {run_id} 在执行查询前就已停止，请改用 resume 继续。",
    ),
    "evidence_missing": ("Evidence {evidence_id} is missing from the run.", "运行记录缺少证据 {evidence_id}。"),
    # refusals on the question -------------------------------------------------------------------
    "not_permitted_metric": (
        "Not permitted: user {user!r} may not read {label} (table {table}).",
        "不允许：用户“{user}”无权查看{label_zh}（数据表 {table}）。",
    ),
    "not_permitted_members": (
        "Not permitted: user '{user}' may only see data for {dim} {allowed}, not {outside}.",
        "不允许：用户“{user}”只能查看{dim_zh}为{allowed_zh}的数据，无权查看{outside_zh}。",
    ),
    "not_permitted_pii_dimension": (
        "Not permitted: {label} is read from the personal-data column {column}, which user {user!r} sees masked "
        "or not at all, so it cannot break down or filter a result.",
        "不允许：{label_zh}来自个人信息列 {column}，用户“{user}”只能看到脱敏值或无权查看，不能用它拆分或筛选结果。",
    ),
    "not_permitted_joined_rows": (
        "Not permitted: {label} is read through a join from {column}, and user {user!r} sees only some rows of "
        "that table, so it cannot break down or filter a result.",
        "不允许：{label_zh}经关联读自 {column}，而用户“{user}”只能看到该表的部分行，不能用它拆分或筛选结果。",
    ),
    "not_permitted_share": (
        "Not permitted: user {user!r} sees only some members of this dimension in {table}, so their share of "
        "the whole {label} cannot be computed for them.",
        "不允许：用户“{user}”在 {table} 中只能看到该维度的部分成员，无法计算其占全部{label_zh}的比例。",
    ),
    "not_permitted_excluded": (
        "Not permitted: user '{user}' may only see data for {dim} {allowed}, and the question excludes all of it.",
        "不允许：用户“{user}”只能查看{dim_zh}为{allowed_zh}的数据，而问题排除了这些数据。",
    ),
    "row_filter_note": (
        "Per the grants of user {user}, {table} is limited to {column} in ({allowed}).",
        "按用户 {user} 的权限，{table} 仅包含 {column} 为 {allowed} 的数据。",
    ),
    "clause_sep": (", ", "，"),
    "sentence_sep": (" ", " "),
    # the analysis report ------------------------------------------------------------------------
    "analysis_title": ("Why {label} moved: {period}", "{period}{label}变化分析"),
    "analysis_headline_down": (
        "{label} for {period} fell against the comparison period (change {num:headline.change_pct}): "
        "{num:headline.current} vs {num:headline.previous}.",
        "{period}{label}较对比期下降（变化 {num:headline.change_pct}）：{num:headline.current}，对比期 {num:headline.previous}。",
    ),
    "analysis_headline_up": (
        "{label} for {period} rose against the comparison period (change {num:headline.change_pct}): "
        "{num:headline.current} vs {num:headline.previous}.",
        "{period}{label}较对比期上升（变化 {num:headline.change_pct}）：{num:headline.current}，对比期 {num:headline.previous}。",
    ),
    "analysis_headline_change": (
        "{label} for {period} changed by {num:headline.change}.",
        "{period}{label}变化 {num:headline.change}。",
    ),
    "analysis_headline_both": (
        "{label} for {period} {moved} on comparable days ({basis}): change {num:comparable.change_pct} "
        "({num:comparable.current} vs {num:comparable.previous}); as loaded, {num:headline.change_pct} "
        "({num:headline.current} vs {num:headline.previous}).",
        "{period}{label}按可比口径（{basis}）{moved}：变化 {num:comparable.change_pct}（{num:comparable.current}，"
        "对比期 {num:comparable.previous}）；按已加载数据，变化 {num:headline.change_pct}"
        "（{num:headline.current}，对比期 {num:headline.previous}）。",
    ),
    "analysis_headline_comparable": (
        "{label} for {period} {moved} on comparable days ({basis}): change {num:comparable.change_pct} "
        "({num:comparable.current} vs {num:comparable.previous}).",
        "{period}{label}按可比口径（{basis}）{moved}：变化 {num:comparable.change_pct}（{num:comparable.current}，"
        "对比期 {num:comparable.previous}）。",
    ),
    "basis_stale": ("no data yet after {day}", "{day} 之后尚无数据"),
    "basis_left_out": ("incomplete {days} left out", "剔除不完整的 {days}"),
    "basis_average": (
        "{per}, {current} against {previous}",
        "按{per_zh}，本期 {current_zh}、对比期 {previous_zh}",
    ),
    "analysis_headline_day": (
        "{label} on {period} {was} {num:comparable.current}, {num:comparable.change_pct} against its usual level "
        "{num:comparable.previous} (the mean of the same weekday in the 4 weeks before).",
        "{period}的{label}为 {num:comparable.current}，较其常规水平 {num:comparable.previous}（前 4 周同星期的均值）"
        "变化 {num:comparable.change_pct}。",
    ),
    "premise_up": ("rose", "上升"),
    "premise_down": ("fell", "下降"),
    "premise_flat": ("did not change", "没有变化"),
    "premise_not_up": ("did not rise", "没有上升"),
    "premise_not_down": ("did not fall", "没有下降"),
    "comparison_asked_yes": ("Yes: {label} {actual}. ", "是，{label}{actual}："),
    "comparison_asked_no": ("No: {label} {actual}. ", "否，{label}{actual}："),
    "comparison_groups_asked_yes": (" {label} {actual} in all {counted}: yes.", "{counted}的{label}都{actual}：是。"),
    "comparison_groups_asked_no": (
        " {label} {not_moved} in {failed} of the {counted}: no ({items}).",
        "{counted}中有 {failed}的{label}{not_moved}：否（{items}）。",
    ),
    "comparison_groups_any": (
        " {label} {actual} in {moved} of the {counted}: yes ({items}).",
        "{counted}中有 {moved}的{label}{actual}：是（{items}）。",
    ),
    "comparison_groups_which": (
        " {label} {actual} in {moved} of the {counted}: {items}.",
        "{counted}中有 {moved}的{label}{actual}：{items}。",
    ),
    "comparison_groups_which_none": (
        " {label} {actual} in none of the {counted}.",
        "{counted}中没有一个的{label}{actual}。",
    ),
    "comparison_groups_any_none": (
        " {label} {actual} in none of the {counted}: no.",
        "{counted}中没有一个的{label}{actual}：否。",
    ),
    "comparison_premise_wrong": (
        "The question takes it that {label} {said}, but {it} {actual}. ",
        "问题说{label}{said}，但实际{actual}：",
    ),
    "analysis_premise_wrong": (
        "The question says {label} {said}, but the data shows it {actual}; below is the change that happened.",
        "问题说{label}{said}，但数据显示它{actual}；以下分析的是实际发生的变化。",
    ),
    "analysis_premise_totals_only": (
        "The question says {label} {said}: in total it did, but on comparable days it {actual}; both are below.",
        "问题说{label}{said}：按总量确实如此，但按可比口径它{actual}；下面两种口径都列出。",
    ),
    "analysis_premise_comparable_only": (
        "The question says {label} {said}: on comparable days it did, but in total it {actual}; both are below.",
        "问题说{label}{said}：按可比口径确实如此，但按总量它{actual}；下面两种口径都列出。",
    ),
    "analysis_premise_not_significant_unlike": (
        "The question says {label} {said}; it did, though the daily average's change is not statistically "
        "significant — and the two periods are not like for like (below).",
        "问题说{label}{said}；确实如此，但日均值的变化在统计上不显著——且两期不是同类日子相比（见下）。",
    ),
    "analysis_premise_not_significant": (
        "The question says {label} {said}; it did, but the change is not statistically significant, so it may be "
        "noise.",
        "问题说{label}{said}；确实如此，但变化在统计上不显著，可能只是正常波动。",
    ),
    "analysis_mean_significant": (
        "The daily mean changed {num:stats.rel_change} (95% CI {num:stats.rel_ci_low} to {num:stats.rel_ci_high}), "
        "statistically significant.",
        "日均值变化 {num:stats.rel_change}（95% 区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}），统计上显著。",
    ),
    "analysis_mean_not_significant": (
        "The daily mean changed {num:stats.rel_change} (95% CI {num:stats.rel_ci_low} to {num:stats.rel_ci_high}): "
        "not statistically significant.",
        "日均值变化 {num:stats.rel_change}（95% 区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}）：统计上不显著。",
    ),
    "analysis_day_significant": (
        "The day is outside its usual range (95% prediction interval of the change {num:stats.rel_ci_low} to "
        "{num:stats.rel_ci_high}).",
        "该日超出其常规范围（变化的 95% 预测区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}）。",
    ),
    "analysis_day_not_significant": (
        "The day is within its usual range (95% prediction interval of the change {num:stats.rel_ci_low} to "
        "{num:stats.rel_ci_high}): not statistically significant.",
        "该日仍在常规范围内（变化的 95% 预测区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}）：统计上不显著。",
    ),
    "analysis_main_driver": ("Largest driver — {text}", "最大的驱动因素——{text}"),
    "analysis_offset_by": ("Offset by — {text}", "反向抵消——{text}"),
    "analysis_only_offsets": (
        "No member drives the change; one moved against it — {text}",
        "没有成员推动这一变化；反向变动的是——{text}",
    ),
    "analysis_largest_contribution": (
        "A part of the movement that is significant on its own (the change is not significant, so this is no "
        "driver, and other parts may be larger but not significant) — {text}",
        "单独显著的组成部分（变化本身不显著，这不是驱动因素；其他不显著的部分可能更大）——{text}",
    ),
    "analysis_net_little": (
        "Little net change: {down} down ({num:{down_key}}), offset by {up} up ({num:{up_key}}).",
        "净变化很小：{down}下降（{num:{down_key}}），被{up}上升（{num:{up_key}}）抵消。",
    ),
    "analysis_no_driver": (
        "No member explains the change on its own: none moved apart from the rest beyond what chance explains.",
        "没有哪个成员能单独解释这一变化：没有成员显著地与其余部分走势不同。",
    ),
    "analysis_quality_note": (
        "Note: {count} data-quality issue(s) touch the analysed periods (see Data quality).",
        "注意：{count} 个数据质量问题涉及分析期（见“数据质量”）。",
    ),
    "analysis_no_conclusion": ("No conclusion could be drawn.", "没有得到结论。"),
    "heading_offsets": ("Offsetting drivers", "反向抵消因素"),
    "heading_contributions": ("Parts significant on their own", "单独显著的组成部分"),
    "heading_drivers": ("Drivers", "驱动因素"),
    "heading_tree": ("Metric tree", "指标树"),
    "heading_tests": ("Tests", "显著性检验"),
    "heading_trend": ("Trend", "走势"),
    "heading_quality": ("Data quality", "数据质量"),
    "heading_assumptions": ("Assumptions", "前置假设"),
    "heading_excluded": ("Ruled out", "已排除的路径"),
    "heading_definition": ("Definition and filters", "口径与过滤条件"),
    # a SQL statement run as a run (`baton sql run`) ------------------------------------------------
    "sql_interpretation": (
        "Read as: a SQL statement, run as user {user} through the SQL firewall.",
        "问题理解为：以用户 {user} 的身份经 SQL 防火墙执行的一条 SQL 语句。",
    ),
    "sql_masked": (
        "Personal-data columns shown masked for user {user}: {columns}.",
        "按用户 {user} 的权限，以下个人信息列以脱敏形式显示：{columns}。",
    ),
    "sql_row_filters": (
        "Per the grants of user {user}, only these rows were read: {filters}.",
        "按用户 {user} 的权限，只读取了以下范围的行：{filters}。",
    ),
    "sql_rows": ("{rows} rows.", "共 {rows} 行。"),
    "sql_one_row": ("1 row.", "共 1 行。"),
    "sql_truncated": (
        "{rows} rows (the result was cut at the row cap of {cap}).",
        "共 {rows} 行（结果已按行数上限 {cap} 截断）。",
    ),
}
