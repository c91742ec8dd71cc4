"""User memory: a few per-user preferences, learned only from explicit statements or repeated
choices, used by the planners as defaults (and said in the assumptions), and under the user's
control — listed, forgotten, disabled (``baton memory``).

What is remembered: the answer language (``zh``/``en``), a default breakdown (a catalog
dimension), favourite metrics (catalog metrics) and a chart kind — never free text, result
rows or personal data. One :class:`Memory` serves one runs directory (``memory.sqlite``, 0600)
and one catalog:

    >>> memory = Memory(runs_dir, catalog)  # doctest: +SKIP
    >>> memory.learn("analyst", "以后默认按渠道拆分")  # a statement: remembered when memory is on
    >>> memory.default_breakdown("analyst", "zh")  # ("channel", "按渠道拆分：…") where a breakdown is left open
    >>> memory.observe("analyst", planned)  # the breakdown a question chose (repeated choices)
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.memory import CHART_CODES, MemoryState, Preference, PreferenceKey
from baton.contracts.semantic import SemanticQuery
from baton.errors import InvalidInput, UnknownMetric
from baton.memory.apply import default_breakdown
from baton.memory.statements import chart_code, language_code, read_statement
from baton.memory.store import FILE_NAME, MemoryStore, check_key, check_value
from baton.messages import both

__all__ = [
    "FILE_NAME",
    "Memory",
    "MemoryStore",
    "chart_code",
    "check_key",
    "check_value",
    "default_breakdown",
    "language_code",
    "read_statement",
]


class Memory:
    """The preferences of the users of one runs directory, read and applied against one catalog."""

    def __init__(self, runs_dir: Path, catalog: Catalog) -> None:
        self.runs_dir = runs_dir
        self.catalog = catalog
        self.path = runs_dir / FILE_NAME

    @cached_property
    def store(self) -> MemoryStore:
        """The SQLite store, opened (and created 0600) on first use."""
        return MemoryStore(self.path)

    def close(self) -> None:
        """Close the store's connection, when one was opened."""
        store = self.__dict__.get("store")
        if store is not None:
            store.close()

    # -- what is remembered ----------------------------------------------------------------------
    def state(self, user: str) -> MemoryState:
        """Everything remembered for ``user``, and whether memory is on for them."""
        return self.store.state(user)

    def language(self, user: str) -> Language | None:
        """The answer language ``user`` asked for (``None``: none remembered, or memory off)."""
        state = self.state(user)
        pref = state.get("language")
        if not state.enabled or pref is None:
            return None
        return "zh" if pref.value == "zh" else "en"

    def favourite_metrics(self, user: str) -> list[str]:
        """The catalog metrics ``user`` said they care most about (empty: none, or memory off)."""
        state = self.state(user)
        pref = state.get("favourite_metrics")
        if not state.enabled or pref is None or not isinstance(pref.value, list):
            return []
        return [m for m in pref.value if m in self.catalog.metrics]

    def source(self, user: str, key: PreferenceKey) -> str | None:
        """Where ``user``'s remembered ``key`` came from (``stated`` or ``repeated``), if remembered."""
        pref = self.state(user).get(key)
        return pref.source if pref is not None else None

    # -- learning --------------------------------------------------------------------------------
    def read_statement(self, text: str) -> Preference | None:
        """The preference ``text`` states, or ``None`` (:func:`statements.read_statement`)."""
        return read_statement(text, self.catalog)

    def learn(self, user: str, text: str) -> Preference | None:
        """Read ``text`` as a preference statement and remember it for ``user``; ``None`` when
        it is not one, or when memory is off for ``user`` (then nothing is stored)."""
        pref = self.read_statement(text)
        if pref is None or not self.store.enabled(user):
            return None
        return self.remember(user, pref)

    def remember(self, user: str, pref: Preference) -> Preference:
        """Keep ``pref`` for ``user``; its names must be in the catalog (a typed error otherwise)."""
        return self.store.remember(user, pref, catalog=self.catalog)

    def set_preference(self, user: str, key: str, value: str) -> Preference:
        """An explicit statement from the command line (``baton memory set KEY VALUE``): ``value``
        is a language (``zh``/``en`` or its name), a chart kind (a code or its name: ``line``,
        "折线图", "pie"), a dimension, or comma-separated metrics, by catalog name, label or
        synonym; a typed error when the key or a name is unknown. What is stored is the code or
        the catalog name."""
        checked = check_key(key)
        resolved = self._resolve(checked, value)
        shown = ",".join(resolved) if isinstance(resolved, list) else resolved
        pref = Preference(
            key=checked,
            value=resolved,
            source="stated",
            evidence=f"baton memory set {checked} {shown}",
            learned_at=_now(),
        )
        return self.remember(user, pref)

    def observe(self, user: str, query: SemanticQuery) -> Preference | None:
        """Log the breakdown a question chose; the ``default_breakdown`` newly learned from
        repeated choices, if any (:meth:`MemoryStore.observe`). Pass the query as planned,
        before a default is used."""
        return self.store.observe(user, query, self.catalog)

    # -- control ---------------------------------------------------------------------------------
    def forget(self, user: str, key: str) -> bool:
        """Forget ``key`` for ``user`` (whether anything was remembered); an unknown key is a typed error."""
        return self.store.forget(user, key)

    def forget_all(self, user: str) -> int:
        """Forget everything remembered for ``user``; how many preferences there were."""
        return self.store.forget_all(user)

    def set_enabled(self, user: str, enabled: bool) -> None:
        """Memory on or off for ``user`` (off: nothing learned, logged or applied)."""
        self.store.set_enabled(user, enabled)

    # -- use -------------------------------------------------------------------------------------
    def default_breakdown(self, user: str, language: Language) -> tuple[str, str] | None:
        """``user``'s remembered default breakdown and the sentence stating its use, or ``None``
        (:func:`apply.default_breakdown`: used only where a question leaves the breakdown open)."""
        return default_breakdown(self.state(user), self.catalog, language)

    def _resolve(self, key: PreferenceKey, value: str) -> str | list[str]:
        raw = value.strip()
        if key == "language":
            language = language_code(raw)
            if language is None:
                raise InvalidInput(*both("memory.bad_language", value=raw), detail={"reason": "bad_value", "key": key})
            return language
        if key == "chart":
            chart = chart_code(raw)
            if chart is None:
                raise InvalidInput(
                    *both("memory.bad_chart", value=raw, codes=", ".join(CHART_CODES)),
                    detail={"reason": "bad_value", "key": key},
                )
            return chart
        if key == "default_breakdown":
            return self._name("dimension", raw)
        names = [self._name("metric", part.strip()) for part in raw.split(",") if part.strip()]
        if not names:
            raise UnknownMetric(
                *both("memory.unknown_metric", value=raw, known=", ".join(self.catalog.metrics)),
                detail={"reason": "unknown_metric", "key": key, "value": raw},
            )
        return list(dict.fromkeys(names))

    def _name(self, kind: str, raw: str) -> str:
        """A catalog name given by name, label or synonym (the whole of ``raw``), or the typed
        error naming what the catalog has."""
        names = self.catalog.dimensions if kind == "dimension" else self.catalog.metrics
        if raw in names:
            return raw
        from baton.nlu.lexicon import Lexicon, normalise

        hits = Lexicon(self.catalog).find(raw)
        if len(hits) == 1 and hits[0].start == 0 and hits[0].end == len(normalise(raw)):
            targets = {t.target for t in hits[0].terms if t.kind == kind}
            if len(targets) == 1:
                return targets.pop()
        if kind == "dimension":
            raise InvalidInput(
                *both("memory.unknown_dimension", value=raw, known=", ".join(self.catalog.dimensions)),
                detail={"reason": "unknown_dimension", "value": raw},
            )
        raise UnknownMetric(
            *both("memory.unknown_metric", value=raw, known=", ".join(self.catalog.metrics)),
            detail={"reason": "unknown_metric", "value": raw},
        )


def _now() -> datetime:
    return datetime.now(UTC)
