"""`baton memory list|forget|disable|enable|set`: what Baton remembers about a user, under their control.

Every command acts for ``--user`` (default: the configured user; a user the policy does not
know is refused) and takes ``--json``: ``list`` prints the MemoryState ``{user, enabled,
preferences: [{key, value, source, evidence, learned_at}]}``; ``forget`` prints ``{user, key,
forgotten}`` (``{user, forgotten: N}`` with ``--all``); ``disable``/``enable`` print ``{user,
enabled}``; ``set`` prints ``{user, enabled, preference}``. Output is in the user's remembered
language, else in both (there is no question to tell the language by).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baton.cli.common import ConfigOpt, JsonOpt
from baton.cli.errors import reported
from baton.cli.terminal import terminal_markup, terminal_text
from baton.messages import text

if TYPE_CHECKING:
    from baton.catalog.model import Catalog
    from baton.contracts.common import Language
    from baton.contracts.memory import Preference
    from baton.memory import Memory

memory_app = typer.Typer(
    no_args_is_help=True, help="What Baton remembers about you (language, default breakdown, metrics, chart)."
)
UserOpt = Annotated[str | None, typer.Option("--user", help="Whose memory (default: the configured user).")]
_REPEATED = re.compile(r"(\d+) of the last (\d+) questions")


def _open(config: Path | None, user: str | None) -> tuple[Memory, str, Language | None]:
    """The memory of the runs folder, the acting user (checked against the policy) and the
    language to answer in (the remembered one, else ``None``: both)."""
    from baton.cli.common import settings_for
    from baton.orchestrator.session import Session

    session = Session(settings_for(config), user=user)
    who = session.user
    session.principal(who)  # an unknown user is refused, not given a memory
    memory = session.memory
    return memory, who, memory.language(who)


def _say(key: str, lang: Language | None, /, **fields: Any) -> str:
    """A message in ``lang``, or in English and Chinese when no language is known."""
    if lang is not None:
        return text(key, lang, **fields)
    return f"{text(key, 'en', **fields)} / {text(key, 'zh', **fields)}"


def _print(line: str) -> None:
    from rich.console import Console

    Console(highlight=False).print(terminal_markup(line))


@memory_app.command("list")
def list_memory(config: ConfigOpt = None, user: UserOpt = None, as_json: JsonOpt = False) -> None:
    """What is remembered for you, where each preference came from, and whether memory is on."""
    with reported(as_json=as_json):
        memory, who, lang = _open(config, user)
        state = memory.state(who)
    if as_json:
        print(json.dumps(state.model_dump(mode="json"), ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    status = _say("memory.status_on" if state.enabled else "memory.status_off", lang)
    if not state.preferences:
        _print(_say("memory.title", lang, user=who, status=status))
        _print(_say("memory.empty", lang, user=who))
        return
    table = Table(title=terminal_text(_say("memory.title", lang, user=who, status=status), multiline=False))
    for col in ("col_key", "col_value", "col_source", "col_evidence", "col_learned"):
        table.add_column(_say(f"memory.{col}", lang))
    for pref in state.preferences:
        cells = (
            f"{pref.key} ({_say(f'memory.key_{pref.key}', lang)})",
            _value(pref, memory.catalog, lang),
            _say(f"memory.source_{pref.source}", lang),
            _evidence(pref, lang),
            pref.learned_at.strftime("%Y-%m-%d %H:%M"),
        )
        table.add_row(*(terminal_text(cell, multiline=False) for cell in cells))
    Console().print(table)


@memory_app.command("forget")
def forget(
    key: Annotated[str | None, typer.Argument(help="language | default_breakdown | favourite_metrics | chart")] = None,
    forget_all: Annotated[bool, typer.Option("--all", help="Forget everything remembered for you.")] = False,
    config: ConfigOpt = None,
    user: UserOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Forget one remembered preference (or everything, with --all)."""
    from baton.contracts.memory import PREFERENCE_KEYS
    from baton.errors import InvalidInput
    from baton.messages import both

    with reported(as_json=as_json):
        memory, who, lang = _open(config, user)
    with reported(as_json=as_json, language=lang):
        if forget_all:
            count = memory.forget_all(who)
            shown: dict[str, Any] = {"user": who, "forgotten": count}
            line = _say("memory.forgot_all", lang, user=who, count=count)
        elif key is None:
            raise InvalidInput(*both("memory.no_key", keys=", ".join(PREFERENCE_KEYS)), detail={"reason": "no_key"})
        else:
            gone = memory.forget(who, key)
            shown = {"user": who, "key": key, "forgotten": gone}
            line = _say("memory.forgot" if gone else "memory.nothing_to_forget", lang, user=who, key=key)
    if as_json:
        print(json.dumps(shown, ensure_ascii=False, indent=2))
    else:
        _print(line)


@memory_app.command("disable")
def disable(config: ConfigOpt = None, user: UserOpt = None, as_json: JsonOpt = False) -> None:
    """Stop learning and using preferences (what is remembered stays until you forget it)."""
    _switch(config, user, as_json, enabled=False)


@memory_app.command("enable")
def enable(config: ConfigOpt = None, user: UserOpt = None, as_json: JsonOpt = False) -> None:
    """Learn preferences from your statements and repeated choices, and use them as defaults."""
    _switch(config, user, as_json, enabled=True)


def _switch(config: Path | None, user: str | None, as_json: bool, *, enabled: bool) -> None:
    with reported(as_json=as_json):
        memory, who, lang = _open(config, user)
    with reported(as_json=as_json, language=lang):
        memory.set_enabled(who, enabled)
    lang = memory.language(who)  # while off, the remembered language is not used
    if as_json:
        print(json.dumps({"user": who, "enabled": enabled}, ensure_ascii=False, indent=2))
    else:
        _print(_say("memory.enabled" if enabled else "memory.disabled", lang, user=who))


@memory_app.command("set")
def set_preference(
    key: Annotated[str, typer.Argument(help="language | default_breakdown | favourite_metrics | chart")],
    value: Annotated[
        str,
        typer.Argument(
            help="zh|en; a catalog dimension; catalog metrics, comma-separated; "
            "bar|horizontal_bar|line|donut|scatter|table"
        ),
    ],
    config: ConfigOpt = None,
    user: UserOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Remember a preference you state (checked against the catalog)."""
    with reported(as_json=as_json):
        memory, who, lang = _open(config, user)
    with reported(as_json=as_json, language=lang):
        pref = memory.set_preference(who, key, value)
        state = memory.state(who)
    lang = memory.language(who)
    if as_json:
        shown = {"user": who, "enabled": state.enabled, "preference": pref.model_dump(mode="json")}
        print(json.dumps(shown, ensure_ascii=False, indent=2))
        return
    _print(_say("memory.remembered", lang, user=who, key=pref.key, value=_value(pref, memory.catalog, lang)))
    if not state.enabled:
        _print(_say("memory.remembered_while_off", lang, user=who))


def _value(pref: Preference, catalog: Catalog, lang: Language | None) -> str:
    """The value with its label: ``channel (渠道)``, ``zh (Chinese)``; names a catalog no longer
    holds are shown as they are."""

    def label(name: str) -> str:
        if pref.key == "language":
            return _say(f"memory.lang_{name}", lang)
        if pref.key == "chart":
            return _say(f"memory.chart_{name}", lang)
        table = catalog.dimensions if pref.key == "default_breakdown" else catalog.metrics
        item = table.get(name)
        if item is None:
            return ""
        return item.label.for_lang(lang) if lang is not None else f"{item.label.en} / {item.label.zh}"

    parts = []
    for name in pref.values:
        shown = label(name)
        parts.append(f"{name} ({shown})" if shown and shown != name else name)
    return ", ".join(parts)


def _evidence(pref: Preference, lang: Language | None) -> str:
    """The statement's words as said; a repeated choice's count in the reader's language."""
    found = _REPEATED.fullmatch(pref.evidence)
    if pref.source == "repeated" and found is not None:
        return _say("memory.evidence_repeated", lang, count=int(found.group(1)), total=int(found.group(2)))
    return pref.evidence
