"""User memory: remembered preferences, their use as defaults, ``baton memory`` (``memory.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # errors
    "unknown_key": (
        "Unknown memory key {key!r}; the keys are: {keys}.",
        "未知的记忆项 {key!r}；可用的记忆项：{keys}。",
    ),
    "no_key": (
        "Name the key to forget ({keys}), or use --all.",
        "请指明要忘记的记忆项（{keys}），或使用 --all。",
    ),
    "unknown_dimension": (
        "The catalog has no dimension {value!r}; a default breakdown is one of: {known}.",
        "指标目录中没有维度 {value!r}；默认拆分可选：{known}。",
    ),
    "unknown_metric": (
        "The catalog has no metric {value!r}; favourite metrics are catalog metrics: {known}.",
        "指标目录中没有指标 {value!r}；常看指标须为目录中的指标：{known}。",
    ),
    "bad_language": (
        "A language is zh or en, not {value!r}.",
        "语言只能是 zh 或 en，不能是 {value!r}。",
    ),
    "bad_chart": (
        "A chart preference is one of {codes}, not {value!r}.",
        "图表偏好只能是 {codes} 之一，不能是 {value!r}。",
    ),
    "bad_value": (
        "Not a value memory can hold for {key}: {reason}",
        "记忆项 {key} 不能保存这个值：{reason}",
    ),
    "bad_user": (
        "A user name is needed to remember anything.",
        "需要用户名才能记住偏好。",
    ),
    "store_failed": (
        "The memory store {path} could not be read or written ({error}).",
        "无法读写记忆库 {path}（{error}）。",
    ),
    # the assumption a remembered default adds to an answer
    "applied_breakdown": (
        "Broken down by {dimension}, your remembered default breakdown ({how}); "
        "to stop, run `baton memory forget default_breakdown`.",
        "按{dimension}拆分：这是记住的你的默认拆分（{how_zh}）；如不需要，运行 `baton memory forget default_breakdown`。",
    ),
    "applied_language": (
        "The question does not say its language, so the answer is in {lang}, the answer language you "
        "keep ({how}); `baton memory forget language` undoes this.",
        "问题看不出语言，因此按你记住的回答语言（{how_zh}）用{lang_zh}回答；`baton memory forget language` 可取消。",
    ),
    "applied_favourite": (
        "{term!r} can mean {labels}; {metric} was taken because it is one of your favourite metrics "
        "({how}). Name the metric to choose another; `baton memory forget favourite_metrics` undoes this.",
        "“{term}”可以指{labels}；因为{metric}是你常看的指标（{how_zh}），所以采用了它。如需其他指标请直接说出"
        "名称；`baton memory forget favourite_metrics` 可取消。",
    ),
    "how_stated": ("you asked for it", "你曾这样要求"),
    "how_repeated": ("learned from your recent questions", "从你最近的问题中学到"),
    # baton memory
    "title": ("Memory of {user} ({status})", "{user} 的记忆（{status}）"),
    "status_on": ("on", "已开启"),
    "status_off": ("off: nothing is learned or applied", "已关闭：不学习也不使用"),
    "empty": ("Nothing is remembered for {user}.", "没有为 {user} 记住任何偏好。"),
    "col_key": ("key", "记忆项"),
    "col_value": ("value", "值"),
    "col_source": ("source", "来源"),
    "col_evidence": ("evidence", "依据"),
    "col_learned": ("learned at", "记住于"),
    "source_stated": ("stated", "你说过"),
    "source_repeated": ("repeated choice", "重复选择"),
    "evidence_repeated": ("{count} of the last {total} questions", "最近 {total} 个问题中的 {count} 个"),
    "key_language": ("answer language", "回答语言"),
    "key_default_breakdown": ("default breakdown", "默认拆分"),
    "key_favourite_metrics": ("favourite metrics", "常看指标"),
    "key_chart": ("chart", "图表类型"),
    "lang_zh": ("Chinese", "中文"),
    "lang_en": ("English", "英文"),
    "chart_bar": ("bar chart", "柱状图"),
    "chart_horizontal_bar": ("horizontal bar chart", "条形图"),
    "chart_line": ("line chart", "折线图"),
    "chart_donut": ("donut chart", "环形图"),
    "chart_scatter": ("scatter plot", "散点图"),
    "chart_table": ("table", "表格"),
    "forgot": ("Forgot {key} for {user}.", "已为 {user} 忘记 {key}。"),
    "nothing_to_forget": ("Nothing was remembered as {key} for {user}.", "{user} 没有记住的 {key}。"),
    "forgot_all": (
        "Forgot everything remembered for {user} ({count} preferences).",
        "已忘记为 {user} 记住的全部偏好（{count} 项）。",
    ),
    "disabled": (
        "Memory is off for {user}: nothing is learned or applied (what is remembered stays until you forget it).",
        "已为 {user} 关闭记忆：不再学习，也不再使用（已记住的偏好保留，直到你删除）。",
    ),
    "enabled": (
        "Memory is on for {user}: stated preferences and repeated choices are remembered and used as defaults.",
        "已为 {user} 开启记忆：明确说明的偏好和重复的选择会被记住，并作为默认值使用。",
    ),
    "remembered": ("Remembered for {user}: {key} = {value}.", "已为 {user} 记住：{key} = {value}。"),
    "remembered_while_off": (
        "Memory is off for {user}: this is used once memory is enabled (`baton memory enable`).",
        "{user} 的记忆已关闭：开启后（`baton memory enable`）才会使用。",
    ),
}
