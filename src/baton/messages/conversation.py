"""Conversations: follow-up questions and what they inherit (``conversation.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "unclear_follow_up": (
        "Baton could not tie this to the previous question. Say what should change — a member, a period, a breakdown, a comparison, a ranking — or ask a whole question.",
        "无法把这句话和上一个问题联系起来。请说明要改变什么——某个成员、时间、拆分维度、对比或排名——或完整地提问。",
    ),
    "exclude_absent": (
        "The previous question was about {kept} only, without {members}: there is nothing to take out. Say which "
        "members to keep, or ask a whole question.",
        "上一问只包含{kept}，没有{members}，无从去掉。请说明要保留哪些成员，或完整地提问。",
    ),
    "exclude_all": (
        "The previous question was about {kept} only: taking out {members} leaves nothing. Did you mean every "
        "{dimension}, with no filter on it, or every {dimension} except {members}?",
        "上一问只包含{kept}：去掉{members}后什么都不剩。是要看全部{dimension}（请说“所有{dimension}”），还是除{members}以外的"
        "{dimension}（请说“其他{dimension}”）？",
    ),
    "replace_which_filter": (
        "Replace {kept} with {members}, or look at {members} within {kept}? Ask the whole question, so that "
        "which one is clear.",
        "是把{kept}换成{members}，还是看{kept}中的{members}？请完整地提问，说清是哪一种。",
    ),
    "this_period_or_that": (
        '"{said}": the period of the previous answer, {parent}, a year earlier ({same}), or the current one a year '
        'back ({current})? Say "the same period last year" for the first, or name the dates.',
        "“{said}”是指上一问的时间 {parent} 的去年同期（{same}），还是当前这一期的去年（{current}）？前者请说“去年同期”，或直接说日期。",
    ),
    "whole_of_which": (
        'The whole of what? The previous question had filters on more than one dimension; say which to drop ("all {ex_dims}"), or ask a whole question.',
        "哪个层面的整体？上一问在多个维度上有筛选；请说明去掉哪一个（如“所有{ex_dims}”），或完整地提问。",
    ),
    "which_side_replaced": (
        "The previous question compared two periods (against {against}): does {said!r} replace the period asked "
        "about, or the one it was compared with? Ask with both, e.g. '{said} vs {against}'.",
        "上一问对比了两个期间（对比 {against}）：“{said}”替换的是所问的期间，还是对比的期间？请把两个都说出来，例如“{said}对比{against}”。",
    ),
    "breakdown_of_what": (
        "By what? The previous answer has no breakdown; say by which dimension (or keep a default with "
        "`baton memory set default_breakdown …`).",
        "按什么拆分？上一个回答没有拆分维度；请说明按哪个维度（或用 `baton memory set default_breakdown …` 设置默认拆分）。",
    ),
    "follow_up": (
        "Following the previous question: kept {kept}; changed {changed}.",
        "接上一问：沿用{kept}；改为{changed}。",
    ),
    "follow_up_kept_only": ("Following the previous question: kept {kept}.", "接上一问：沿用{kept}。"),
    "follow_up_took_away": (
        "Following the previous question: kept {kept}; took away {dropped}.",
        "接上一问：沿用{kept}；去掉{dropped}。",
    ),
    "follow_up_changed_took_away": (
        "Following the previous question: kept {kept}; changed {changed}; took away {dropped}.",
        "接上一问：沿用{kept}；改为{changed}；去掉{dropped}。",
    ),
    "standalone": (
        "A new question: nothing is carried over from the previous one.",
        "新问题：未沿用上一问的任何条件。",
    ),
    "nothing": ("nothing", "无"),
    "part_metric": ("the metric", "指标"),
    "part_filter": ("the filter", "筛选"),
    "part_exclusion": ("the exclusion", "排除条件"),
    "part_period": ("the period", "时间范围"),
    "part_grain": ("the time grain", "时间粒度"),
    "part_comparison": ("the comparison", "对比期"),
    "part_breakdown": ("the breakdown", "拆分维度"),
    "part_ranking": ("the ranking", "排名"),
    "part_share": ("the share", "占比"),
    "part_threshold": ("the bound", "阈值"),
    "part_why": ("whether it asks why", "是否分析原因"),
    "model_rejected": (
        "(A language model was asked too; its reading was not used: {reason})",
        "（也询问了语言模型，但未采用其理解：{reason}）",
    ),
    "no_model": (
        "No language model is configured (add an [llm] section to baton.toml).",
        "未配置语言模型（在 baton.toml 中添加 [llm] 配置）。",
    ),
    "why_question": ("Why did it change?", "为什么变化了？"),
    "chat_welcome": (
        'Conversation {id}. Ask a question, then follow up ("what about {ex_b}?", "show it weekly"). /why explains the last answer, /new starts over, /runs lists the turns, /quit or Ctrl-D leaves.',
        "对话 {id}。先提问，再追问（“那{ex_b}呢？”“换成按周看”）。/why 解释上一个回答，/new 重新开始，/runs 列出各轮，/quit 或 Ctrl-D 退出。",
    ),
    "chat_new": ("New conversation {id}.", "新对话 {id}。"),
    "chat_help": (
        "Commands: /why (why the last answer moved), /new, /runs, /quit. Anything else is a question.",
        "命令：/why（解释上一个回答的变化）、/new、/runs、/quit。其他输入都当作问题。",
    ),
    "chat_remembered": (
        "Remembered: {what}. `baton memory list` shows it, `baton memory forget {key}` forgets it.",
        "已记住：{what}。`baton memory list` 查看，`baton memory forget {key}` 删除。",
    ),
    "same_period": (
        'That period is the previous answer\'s own ({period}); say the dates you mean (e.g. "May 2026").',
        "这个时间与上一个回答相同（{period}）；请说明具体是哪段时间（如“2026年5月”）。",
    ),
    "year_or_same_period": (
        '"{said}" after {parent}: the whole year ({year}), or the same period that year ({same})? Say "the whole '
        'of {said}", or the dates (e.g. "{same_from} to {same_to}").',
        "上一问是{parent}，“{said}”是指全年（{year}），还是当年同期（{same}）？请说“{said}全年”，"
        "或直接说日期（如“{same_from}至{same_to}”）。",
    ),
    "share_whole_in_one_question": (
        "The previous answer's share had a part and a whole; a new whole for it is asked in one question "
        'that names both, e.g. "{ex_a}\'s share of {ex_metric} in {ex_b}" or "each {ex_dim2}\'s share of {ex_a}\'s {ex_metric}".',
        "上一问的占比有其部分和整体；要换一个整体，请在一个问题里同时说明部分和整体，例如“{ex_b}的{ex_metric}中{ex_a}占多少”"
        "或“{ex_a}的{ex_metric}中各{ex_dim2}占多少”。",
    ),
    "new_bound_in_one_question": (
        'A bound on a metric named anew is asked in one question, with its groups and period, e.g. "{ex_dims} '
        'with {ex_metric} above 5 million in May".',
        "新指标的阈值请在一个问题里连同分组和时间一起问，例如“5月{ex_metric}超过500万的{ex_dims}”。",
    ),
    "bound_in_one_question": (
        "The previous answer kept only the groups past a bound, and a bound goes on only while its metric and "
        'groups stay: ask this in one question, with or without the bound, e.g. "{ex_dims} with {ex_metric} above '
        '5 million in May".',
        "上一问只保留了超过阈值的分组，阈值只在指标和分组都不变时沿用：请在一个问题里完整地再问一次（带或不带阈值），"
        "例如“5月{ex_metric}超过500万的{ex_dims}”。",
    ),
    "half_not_begun": (
        '"{period}" of the previous question\'s year begins on {start}, which has not come yet; the latest one is '
        "{latest} to {latest_end}. Name its year to ask for it.",
        "上一问所在年份的“{period}”从 {start} 开始，还没到；最近一个是 {latest} 至 {latest_end}。如需查询请写明年份。",
    ),
    "sum_in_one_question": (
        'Baton adds a member to the one the previous question kept (e.g. "和华南加起来多少" after "华东的GMV"); '
        "any other sum — of periods, of metrics, or of a breakdown — please ask in one question, naming all its "
        'parts (e.g. "5月和6月华东的GMV合计").',
        "Baton 只能把一个成员加到上一问保留的成员上（如“华东的GMV”之后问“和华南加起来多少”）；其他合计——几个时段、几个指标或拆分后的各组——请在一个问题里"
        "说出所有部分（如“5月和6月华东的GMV合计”）。",
    ),
    "place_or_period_beside": (
        '{said!r} after a ranking: the place next to the one shown (e.g. "the second one"), or the same ranking '
        'in the period next to {period!r} (e.g. "the month before")? Say which.',
        "“{said}”跟在排名之后：是指相邻的名次（如“第二名”），还是“{period}”相邻时段（如“前一个月”）的同一排名？请说明。",
    ),
    "one_beside_which": (
        "{said!r} after {period!r}, which holds several such periods: which one do you mean? Name the period you "
        "want, e.g. by its dates.",
        "“{said}”跟在包含多个这样时段的“{period}”之后：指的是哪一个？请直接说出想看的时段，例如给出日期。",
    ),
    "no_filter_to_remove": (
        "The previous question keeps every member: it has no filter to remove. Say what to change.",
        "上一个问题没有筛选条件，无需去掉。请说明要改变什么。",
    ),
    "only_the_rows_of_a_count": (
        '"{said}" after {shown}: {shown} of those rows only, or {count} instead? Baton will not guess: say "{count}" '
        "to see the count, or filter {shown} by a dimension of the catalog.",
        "上一问是{shown}，“{said}”是只看这些行的{shown}，还是改看{count}？Baton 不会猜测：要看数量请说“{count}”，"
        "或用目录中的维度筛选{shown}。",
    ),
    "which_filter": (
        'The previous question is filtered on {dimensions}: which filter should go? Say which, or "remove all '
        'filters".',
        "上一个问题筛选了{dimensions}：要去掉哪一个筛选？请说明，或说“去掉所有筛选”。",
    ),
    "placed_by_which_metric": (
        '"{said}" of an answer that showed several metrics: by which one? Name the member to leave out instead.',
        "上一个回答有多个指标，“{said}”按哪个指标算？请直接说出要去掉的成员。",
    ),
    "placed_away_which": (
        '"{said}" taken away from a ranking, a comparison or a share: the other rows shown, all the others '
        "ranked anew, or shares of which whole? Name the members to keep or to leave out.",
        "从排名、对比或占比中去掉“{said}”：是看已列出的其余几行、其余全部重新排名，还是以哪个整体算占比？请直接说出要保留或去掉的成员。",
    ),
    "pointer_not_placed": (
        '"{said}" points at rows of the previous answer, but they cannot be placed (it listed another '
        "number of rows, or rows of another kind). Name them, e.g. the members or the date.",
        "“{said}”指上一个回答中的结果，但无法对应（上一个回答列出的行数或种类不同）。请直接说出成员或日期。",
    ),
    "pointed_periods_apart": (
        '"{said}" points at {periods}, which do not follow one another: Baton reads one span of time at a '
        "time, so ask about each of them, or name the whole span.",
        "“{said}”指的是 {periods}，它们并不相连：Baton 一次只读一段连续的时间，请分别询问，或说出整段时间。",
    ),
    "pointer_after_ranking": (
        '"{said}" points at the rows the previous answer listed: name them (e.g. "{ex_count} of {ex_a}") so the figure is theirs, not a new ranking by another measure.',
        "“{said}”指上一问列出的结果：请直接说出成员（如“{ex_a}的{ex_count}”），Baton 不会把它当成按新指标重新排名。",
    ),
    "gap_in_one_question": (
        "A gap is asked in one question naming both sides, e.g. \"how much higher was {ex_a}'s {ex_metric} than {ex_b}'s last month\".",
        "差值请在一个问题里说明两边，例如“上个月{ex_a}的{ex_metric}比{ex_b}高多少”。",
    ),
    "metric_or_member": (
        '"{said}" is both a metric ({metric}) and a member ({member}): switch to the metric, or keep the '
        "previous metric for {member} only?",
        "“{said}”既是指标（{metric_zh}），也是成员（{member_zh}）：是换成这个指标，还是沿用上一问的指标、只看{member_zh}？",
    ),
    "ranking_direction": (
        "Best or worst means the other end for this metric: say highest or lowest.",
        "对这个指标来说“最好/最差”方向不同：请说明要最高还是最低。",
    ),
    "no_conversation": ("No conversation {conversation_id!r}.", "没有对话 {conversation_id!r}。"),
    "not_yours": (
        "Not permitted: conversation {conversation_id} belongs to another user.",
        "不允许：对话 {conversation_id} 属于其他用户。",
    ),
    "no_parent": (
        "The conversation has no answered question yet to follow up on; ask a whole question.",
        "该对话还没有已回答的问题可以追问；请完整地提问。",
    ),
    "why_needs_answer": (
        "/why explains the previous answer, but there is none yet.",
        "/why 用于解释上一个回答，但目前还没有回答。",
    ),
}
