"""Every user-facing message Baton writes, in English and Chinese, in one place.

Each area keeps its table in a module of this package (``firewall``, ``warehouse``,
``analysis``, ``answer``, ``cli``); keys are ``<area>.<name>`` and every value is an
``(English, Chinese)`` pair of ``str.format`` templates. ``text(key, language, **fields)``
renders one; ``both(key, **fields)`` renders the pair a :class:`~baton.errors.BatonError`
carries.

Templates of findings may contain ``{num:key}`` placeholders for structured numbers; they
pass through formatting untouched and are rendered later from the exact value.
"""

from __future__ import annotations

from typing import Any

from baton.contracts.common import Language
from baton.messages import analysis, answer, cli, firewall, warehouse

MESSAGES: dict[str, tuple[str, str]] = {
    **{f"firewall.{key}": value for key, value in firewall.MESSAGES.items()},
    **{f"warehouse.{key}": value for key, value in warehouse.MESSAGES.items()},
    **{f"analysis.{key}": value for key, value in analysis.MESSAGES.items()},
    **{f"answer.{key}": value for key, value in answer.MESSAGES.items()},
    **{f"cli.{key}": value for key, value in cli.MESSAGES.items()},
}
"""key -> (English template, Chinese template)."""


class _NumberRef:
    """Keeps ``{num:key}`` placeholders intact through ``str.format``."""

    def __format__(self, spec: str) -> str:
        return "{num:" + spec + "}"


_NUM = _NumberRef()


def text(key: str, language: Language, /, **fields: Any) -> str:
    """The message ``key`` in ``language``, formatted with ``fields``."""
    english, chinese = MESSAGES[key]
    return (chinese if language == "zh" else english).format_map({"num": _NUM, **fields})


def both(key: str, /, **fields: Any) -> tuple[str, str]:
    """The message ``key`` in English and Chinese (the pair a :class:`BatonError` carries)."""
    return text(key, "en", **fields), text(key, "zh", **fields)


def pick(language: Language, zh: str, en: str) -> str:
    """Choose between two already-rendered texts (e.g. two catalog labels)."""
    return zh if language == "zh" else en


def firewall_codes() -> tuple[str, ...]:
    """Every firewall refusal code (the part of the key after ``firewall.``)."""
    return tuple(key.removeprefix("firewall.") for key in MESSAGES if key.startswith("firewall."))


__all__ = ["MESSAGES", "both", "firewall_codes", "pick", "text"]
