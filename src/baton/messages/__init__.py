"""Every user-facing message Baton writes, in English and Chinese, in one place.

Each area keeps its table in a module of this package (see :data:`AREAS`); keys are
``<area>.<name>`` and every value is an ``(English, Chinese)`` pair of ``str.format``
templates. ``text(key, language, **fields)`` renders one; ``both(key, **fields)`` renders the
pair a :class:`~baton.errors.BatonError` carries.

Both templates of a key take the same fields. A value that itself differs by language is
passed twice: ``x`` for the English template and ``x_zh`` for the Chinese one (``localized``
renders a message as such a pair of fields). Lines that are deliberately bilingual (prompt
headings an LLM reads, a message printed before the user's language is known) hold the same
text as both templates and are rendered with ``bilingual``. ``pick`` chooses between two texts
that are data, not messages (catalog labels, currency words).

Templates of findings may contain ``{num:key}`` placeholders for structured numbers; they
pass through formatting untouched and are rendered later from the exact value.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import ModuleType
from typing import Any

from baton.contracts.common import Language
from baton.messages import (
    analysis,
    answer,
    catalog,
    charts,
    check,
    cli,
    config,
    context,
    conversation,
    dbt,
    evals,
    exports,
    firewall,
    init,
    llm,
    mcp,
    memory,
    model,
    nlu,
    notebook,
    numbers,
    policy,
    prompt,
    query,
    report,
    retrieval,
    runs,
    server,
    sql,
    stats,
    warehouse,
    web,
)

AREAS: dict[str, ModuleType] = {
    "firewall": firewall,
    "warehouse": warehouse,
    "analysis": analysis,
    "answer": answer,
    "cli": cli,
    "charts": charts,
    "report": report,
    "nlu": nlu,
    "config": config,
    "catalog": catalog,
    "dbt": dbt,
    "check": check,
    "policy": policy,
    "runs": runs,
    "stats": stats,
    "sql": sql,
    "context": context,
    "prompt": prompt,
    "query": query,
    "numbers": numbers,
    "evals": evals,
    "retrieval": retrieval,
    "init": init,
    "llm": llm,
    "model": model,
    "memory": memory,
    "mcp": mcp,
    "conversation": conversation,
    "exports": exports,
    "notebook": notebook,
    "server": server,
    "web": web,
}
"""area -> the module holding its ``MESSAGES`` table."""

MESSAGES: dict[str, tuple[str, str]] = {
    f"{area}.{key}": value for area, module in AREAS.items() for key, value in module.MESSAGES.items()
}
"""key -> (English template, Chinese template)."""


class _NumberRef:
    """Keeps ``{num:key}`` placeholders intact through ``str.format``."""

    def __format__(self, spec: str) -> str:
        return "{num:" + spec + "}"


_NUM = _NumberRef()


EXAMPLE_FIELDS = ("ex_metric", "ex_count", "ex_rate", "ex_dim", "ex_dims", "ex_dim2", "ex_a", "ex_b")
"""The fields a message's examples name things by ("e.g. “how much higher was {ex_a}'s {ex_metric} than
{ex_b}'s”"): the catalog's own metric, dimensions and members while a run of it renders messages
(:func:`use_examples`), else neutral words — never one warehouse's names in every warehouse's messages."""

_NEUTRAL: dict[Language, dict[str, str]] = {
    "en": {
        "ex_metric": "<metric>",
        "ex_count": "<count>",
        "ex_rate": "<rate>",
        "ex_dim": "<group>",
        "ex_dims": "<groups>",
        "ex_dim2": "<kind>",
        "ex_a": "<A>",
        "ex_b": "<B>",
    },
    "zh": {
        "ex_metric": "〈指标〉",
        "ex_count": "〈计数〉",
        "ex_rate": "〈比率〉",
        "ex_dim": "〈分组〉",
        "ex_dims": "〈分组〉",
        "ex_dim2": "〈类别〉",
        "ex_a": "〈A〉",
        "ex_b": "〈B〉",
    },
}
_EXAMPLES: ContextVar[Mapping[Language, Mapping[str, str]]] = ContextVar("baton_message_examples", default=_NEUTRAL)


@contextmanager
def use_examples(terms: Mapping[Language, Mapping[str, str]]) -> Iterator[None]:
    """Messages rendered inside name ``terms`` (:data:`EXAMPLE_FIELDS`, per language) in their examples."""
    token = _EXAMPLES.set({lang: {**_NEUTRAL[lang], **terms.get(lang, {})} for lang in _NEUTRAL})
    try:
        yield
    finally:
        _EXAMPLES.reset(token)


class _Fields(dict[str, Any]):
    """A message's fields; an example field it does not give is looked up only when the template
    names it — most messages name none."""

    def __init__(self, fields: dict[str, Any], language: Language) -> None:
        super().__init__({"num": _NUM, **fields})
        self._language: Language = "zh" if language == "zh" else "en"

    def __missing__(self, key: str) -> str:
        if key in _AGREEING:  # words agreeing with the label: "Orders … were", "but they rose"
            return _AGREEING[key] if _plural(str(self.get("label", ""))) else key
        return _EXAMPLES.get()[self._language][key]


_AGREEING = {"was": "were", "it": "they"}
"""English words a message derives from its label: the plural form of each."""


def _plural(label: str) -> bool:
    """Whether a label's last word is a plural ("Orders", "New users"; never "GMV", "Status")."""
    words = label.split()
    last = words[-1].lower() if words else ""
    return len(last) > 3 and last.endswith("s") and not last.endswith(("ss", "us", "is"))


def text(key: str, language: Language, /, **fields: Any) -> str:
    """The message ``key`` in ``language``, formatted with ``fields`` (and the example terms)."""
    english, chinese = MESSAGES[key]
    return (chinese if language == "zh" else english).format_map(_Fields(fields, language))


def both(key: str, /, **fields: Any) -> tuple[str, str]:
    """The message ``key`` in English and Chinese (the pair a :class:`BatonError` carries)."""
    return text(key, "en", **fields), text(key, "zh", **fields)


def localized(name: str, key: str, /, **fields: Any) -> dict[str, str]:
    """The message ``key`` as the fields ``name`` (English) and ``name_zh`` (Chinese) that a
    template with a language-dependent field takes."""
    english, chinese = both(key, **fields)
    return {name: english, f"{name}_zh": chinese}


def average_fields(per: str, /) -> dict[str, str]:
    """The fields every message about an average per day (week, month …) takes: ``per`` ("per
    month" / "月均"), ``values`` ("monthly values" / "每月值") and ``grain`` ("month" / "月")."""
    return {
        **localized("per", f"answer.average_{per}"),
        **localized("values", f"answer.values_{per}"),
        **localized("grain", f"answer.grain_{per}"),
    }


def counted(per: str, n: int, name: str = "count", /) -> dict[str, str]:
    """``n`` days (weeks, months …) as the fields ``name`` and ``name_zh`` ("6 months" / "6 个月")."""
    return localized(name, f"answer.count_{per}", n=n)


def bilingual(key: str, /, **fields: Any) -> str:
    """A line deliberately written in both languages at once (its two templates are the same)."""
    return text(key, "en", **fields)


def pick(language: Language, zh: str, en: str) -> str:
    """Choose between two already-rendered texts (e.g. two catalog labels)."""
    return zh if language == "zh" else en


def capitalised(label: str) -> str:
    """A label that opens a sentence or heading starts with a capital (``refund rate`` -> ``Refund
    rate``; ``GMV`` and Chinese unchanged)."""
    return label[:1].upper() + label[1:]


def firewall_codes() -> tuple[str, ...]:
    """Every firewall refusal code (the part of the key after ``firewall.``)."""
    return tuple(key.removeprefix("firewall.") for key in MESSAGES if key.startswith("firewall."))


__all__ = [
    "AREAS",
    "EXAMPLE_FIELDS",
    "MESSAGES",
    "average_fields",
    "bilingual",
    "both",
    "capitalised",
    "counted",
    "firewall_codes",
    "localized",
    "pick",
    "text",
    "use_examples",
]
